"""Issue 49 on the wire: one model at three effort levels against baselines is three players;
each level's thinking is stored per turn (exported, searchable), a reply cut off by the cap is
counted as its own class, and the table holds the sweep: rating against reasoning tokens per
decision and dollars per episode."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from arena.cli.main import main
from arena.display.tables import render_table
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import run_tournament
from arena.tournament.standings import tournament_table
from tests.support.modelkit import CANARY_KEY, KEY_ENV
from tests.support.wire_server import Behaviour, WireServer, prompt_of, thinking, truncated

LEVELS = {"low": 200, "medium": 900, "high": 3000}
"""Reasoning tokens the wire server reports per reply at each effort."""
PLAYERS = ("mini-low", "mini-medium", "mini-high", "baseline:weather", "baseline:cost-plus")


def models_file(path: Path, wire: WireServer) -> Path:
    tables = [
        f'[models.mini-{effort}]\nprovider = "openai"\nmodel = "gpt-test"\nbase_url = "{wire.openai_url}"\n'
        f'api_key_env = "{KEY_ENV}"\nreasoning_effort = "{effort}"\n'
        "price_input_per_mtok = 0.25\nprice_output_per_mtok = 2.0\n"
        for effort in LEVELS
    ]
    path.write_text("\n".join(tables))
    return path


def answer(body: Any) -> Behaviour:
    """A legal lemonade day; effort low is cut off by the cap first and answers the re-ask."""
    effort = body["reasoning"]["effort"]
    if effort == "low" and "cut off" not in prompt_of(body):
        cut = truncated()
        cut.thinking, cut.reasoning_tokens = "low: ran out of room", LEVELS["low"]
        return cut
    action = {"price": 3.0 if effort == "high" else 2.0, "produce": 20, "promotion": "none", "reason": "plan"}
    return thinking(action, f"{effort}: weighing price against demand", reasoning_tokens=LEVELS[effort])


@pytest.fixture
def sweep(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    with WireServer() as wire:
        monkeypatch.setenv(KEY_ENV, CANARY_KEY)
        monkeypatch.setenv("ARENA_MODELS", str(models_file(tmp_path / "models.toml", wire)))
        wire.responder = answer
        yield wire


async def test_an_effort_sweep_is_one_table_with_thinking_stored_and_cut_offs_counted(
    sweep: WireServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "sweep.db"
    store = Store(db)
    try:
        config = build_config(
            game="lemonade", players=PLAYERS, seeds=2, seed=5, options={"days": 3}, concurrency=2
        )
        progress = await run_tournament(store, config)
        assert progress.status == "finished"
        table = tournament_table(store, progress.tournament_id)
        efforts = {body["reasoning"]["effort"] for body in (r.body for r in sweep.posts())}
        assert efforts == set(LEVELS)  # every level sent its own effort
        settings = store.tournament(progress.tournament_id)["config"]["player_configs"]  # type: ignore[index]
        assert len({settings[f"mini-{effort}"] for effort in LEVELS}) == 3  # three players by hash

        counts = table["failures"]["per_player"]
        assert counts["mini-low"]["cut_off"] == counts["mini-low"]["decisions"] > 0
        assert counts["mini-high"]["cut_off"] == 0 and counts["mini-high"]["invalid"] == 0

        [sweep_table] = table["sweeps"]
        assert sweep_table["model"] == "openai:gpt-test"
        levels = [level["level"] for level in sweep_table["levels"]]
        assert levels == ["effort low", "effort medium", "effort high"]  # low: 2 x 200 tokens (cut, re-asked)
        by_player = {level["player"]: level for level in sweep_table["levels"]}
        assert by_player["mini-high"]["reasoning_tokens_per_decision"] == LEVELS["high"]
        assert by_player["mini-low"]["reasoning_tokens_per_decision"] == 2 * LEVELS["low"]  # cut, re-asked
        assert all(level["usd_per_episode"] > 0 for level in sweep_table["levels"])

        thoughts = [
            text
            for (text,) in store.conn.execute(
                "SELECT thinking FROM turns WHERE thinking IS NOT NULL ORDER BY episode_id, idx"
            )
        ]
        assert any(text == "high: weighing price against demand" for text in thoughts)
        assert any(
            text.startswith("low: ran out of room\n\n--- re-asked ---\n\nlow: weighing") for text in thoughts
        )
        reasons = {reason for (reason,) in store.conn.execute("SELECT reason FROM turns")}
        assert not any("weighing" in reason for reason in reasons)  # apart from the stated reason
        for body in (r.body for r in sweep.posts()):  # never sent to any seat
            assert "weighing" not in json.dumps(body) and "ran out of room" not in json.dumps(body)
        buffer = io.StringIO()
        Console(file=buffer, width=160, color_system=None).print(render_table(table))
        shown = buffer.getvalue()
        assert "effort sweep: openai:gpt-test" in shown and "cut off" in shown
        tournament_id = progress.tournament_id
    finally:
        store.close()

    out = tmp_path / "high.jsonl"
    assert (
        main(
            [
                "--db",
                str(db),
                "export",
                "--tournament",
                str(tournament_id),
                "--thinking",
                "high:",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and any(row["thinking"] == "high: weighing price against demand" for row in rows)
    assert {row["player"] for row in rows} >= {"mini-high"}
    capsys.readouterr()
    assert (
        main(["--db", str(db), "export", "--tournament", str(tournament_id), "--thinking", "no such thought"])
        == 1
    )
