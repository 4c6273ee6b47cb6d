"""What a person reads at the console is words: results, form prompts and messages, the end of a bargain."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.contract.player import UserLeft
from arena.engine.runner import decision_request
from arena.plugins.games import get_game
from players.console_human import ConsoleHuman
from tests.support.processes import OUR_ENV


def arena(db: Path, *argv: str, typed: str = "") -> str:
    """``arena --db DB ARGV...`` in a child with ``typed`` as its input; returns its output."""
    process = subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "--db", str(db), *argv],
        input=typed,
        capture_output=True,
        text=True,
        env=OUR_ENV,
        check=False,
    )
    assert process.returncode == 0, process.stderr
    return process.stdout


def test_the_results_show_a_metric_per_tier_as_rows_in_words(tmp_path: Path) -> None:
    seats = ["--seat", "a=baseline:sloppy", "--seat", "b=baseline:oracle"]
    out = arena(tmp_path / "a.db", "play", "paperclip", *seats, "--option", "puzzles=3", "--seed", "4")
    results = out[out.index("results") :]
    assert "accuracy by tier: " in results and "breaking point" in results
    assert "{" not in results and "_" not in results, results


def test_a_persons_bargain_ends_with_the_other_sides_value_the_zone_and_each_flag_explained(
    tmp_path: Path,
) -> None:
    # seed 3: cost 25, value 64; the bluffing buyer answers 50 with a bid of 26, which the seller takes
    typed = "\n".join(["offer", "50", "take it or leave it, final offer", "", "accept", "", "", ""])
    seats = ["--seat", "seller=human", "--seat", "buyer=baseline:bluffing"]
    out = arena(tmp_path / "a.db", "play", "bargain", *seats, "--seed", "3", typed=typed)
    during, end = out.split("the full view, now that the episode is over:")
    assert "buyer value" not in during and "zone" not in during
    words = " ".join(end.split())
    assert "seller cost 25 buyer value 64 zone 25..64 (surplus 39)" in words
    assert (
        'round 3 seller: bluff, broke its final offer: called 50 final in round 1 ("take it or leave it,'
        ' final offer"), then accepted 26'
    ) in words


async def test_the_console_form_asks_and_complains_in_words() -> None:
    game = get_game("paperclip").create(3, {"tier": "entry", "puzzles": 1})
    prompts: list[str] = []
    said: list[str] = []

    def reader(prompt: str) -> str:
        prompts.append(prompt)
        if any("cannot read" in line for line in said):  # the complaint is in: the person leaves
            raise EOFError
        name = prompt.strip().split(" (", 1)[0]
        return {"total": "1", "colour count": "1", "reason": ""}.get(name, "A: grn x")

    with pytest.raises(UserLeft):
        await ConsoleHuman(reader, said.append).decide(decision_request(game, "a", 0))
    asked = [prompt.strip().split(" (", 1)[0] for prompt in prompts]
    assert asked[:2] == ["step 1", "step 2"] and "colour count" in asked, asked
    complaint = next(line for line in said if "cannot read" in line)
    assert "step 1: box A: cannot read 'grn x'" in complaint, complaint
    assert "Value error" not in complaint and "step_" not in complaint
