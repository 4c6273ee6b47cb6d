"""``arena games``: Arena's own games and one line per catalogue; ``arena games PREFIX`` lists one.

The whole listing used to be 182 lines with the catalogues' unavailable games mixed in.
"""

from __future__ import annotations

import json

import pytest

from arena.cli.main import main
from arena.contract.catalogue import PREFIX_SEPARATOR
from arena.plugins.games import catalogue, game_names


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def named(out: str) -> list[str]:
    """The names that start lines (a game's or a catalogue's), in order."""
    return [line.split("\t")[0] for line in out.splitlines() if line and not line.startswith("\t")]


def test_the_listing_is_arenas_own_games_and_one_line_per_catalogue_with_its_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0
    own = [name for name in game_names() if PREFIX_SEPARATOR not in name]
    assert own[:4] == ["lemonade", "bargain", "paperclip", "cattle"]
    lines = named(out)
    assert lines[: len(own)] == own
    assert not [line for line in lines if PREFIX_SEPARATOR in line and " " not in line], "no catalogue game"
    assert "unavailable:" not in out
    textarena = catalogue("textarena")
    listed, apart = len(textarena.listed()), len(textarena.unavailable())
    assert (
        f"textarena\tTextArena: {listed} games, {apart} more unavailable here (arena games textarena)\n"
        in out
    )
    openspiel = catalogue("openspiel")
    assert f"openspiel\tOpenSpiel: {len(openspiel.listed())} games (arena games openspiel)\n" in out
    assert len(out.splitlines()) < 40


@pytest.mark.parametrize("prefix", ["openspiel", "textarena"])
def test_a_catalogue_lists_its_games_then_the_unavailable_apart_with_reasons(
    capsys: pytest.CaptureFixture[str], prefix: str
) -> None:
    code, out, _ = run(capsys, "games", prefix)
    assert code == 0
    each = catalogue(prefix)
    playable = [each.qualified(name) for name in each.listed()]
    unavailable = {each.qualified(name): why for name, why in each.unavailable().items()}
    head, _, tail = out.partition(f"unavailable here ({len(unavailable)}):\n")
    assert named(head) == playable
    assert "\twins, draws and losses: " in head  # each game whole: options and what a win means
    assert tail.splitlines() == [f"{name}\t{why}" for name, why in unavailable.items()]
    assert (not unavailable) == (tail == "")
    for name in ("lemonade", "bargain"):
        assert name not in named(out)


def test_a_catalogue_as_json_marks_the_unavailable_with_their_reason(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "games", "textarena", "--json")
    assert code == 0
    rows = json.loads(out)
    wordle = next(row for row in rows if row["name"] == "textarena:Wordle-v0")
    assert set(wordle) == {"name", "unavailable"} and wordle["unavailable"].startswith("needs NLTK")
    nim = next(row for row in rows if row["name"] == "textarena:Nim-v0")
    assert nim["seats"] == ["p0", "p1"] and "unavailable" not in nim


def test_one_game_by_name_and_an_unknown_name_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games", "bargain")
    assert code == 0 and named(out) == ["bargain"]
    code, out, err = run(capsys, "games", "openspiel:liars_dice")
    assert code == 0 and named(out) == ["openspiel:liars_dice"]
    code, out, err = run(capsys, "games", "nope")
    assert (code, out) == (2, "")
    own = ", ".join(name for name in game_names() if PREFIX_SEPARATOR not in name)
    assert (
        err == f"arena: error: no game or catalogue 'nope' (games: {own}; catalogues: openspiel, textarena)\n"
    )
    code, _, err = run(capsys, "games", "textarena:Wordle-v0")
    assert code == 2 and err.startswith("arena: error: textarena:Wordle-v0 is unavailable: needs NLTK")
