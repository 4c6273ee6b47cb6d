"""A catalogue game that cannot play as asked is one line and exit 2 before an episode or a tournament exists.

``arena play`` and ``arena tournament run``, in-process over a real SQLite file: options the
library refuses (goofspiel's 5 turns of 3 cards, a one-row breakthrough), a game with action
structs only (crossword), TextArena values outside what its code plays (a connect four of no
rows, a battleship grid too small for its ships, which used to store an ``aborted`` episode a
tournament resume would replay forever). TextArena checks no value itself: a range Arena did not
write is caught by building the environment once (the no-ranges copy below).
"""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

from arena.cli.main import main
from arena.contract.options import OptionError
from games.textarena_catalogue.definition import make_definition
from games.textarena_catalogue.listing import LISTED

RANDOM_SEATS = ["--seat", "p0=baseline:random", "--seat", "p1=baseline:random"]


def _rows(db: Path, table: str) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as connection:
        return int(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


@pytest.mark.parametrize(
    ("game", "options", "said"),
    [
        (
            "openspiel:goofspiel",
            ["num_cards=3", "num_turns=5"],
            "OpenSpiel cannot play goofspiel with these parameters: num_turns_ <= num_cards_"
            " (num_turns_ = 5, num_cards_ = 3)",
        ),
        (
            "openspiel:crossword",
            [],
            "openspiel:crossword cannot be played here: it takes its moves as action structs only",
        ),
        ("textarena:ConnectFour-v0", ["num_rows=0"], "option num_rows must be at least 4"),
        ("textarena:Battleship-v0", ["grid_size=2"], "option grid_size must be at least 5"),
    ],
)
def test_play_refuses_in_one_line_before_an_episode_exists(
    game: str, options: list[str], said: str, capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "arena.db"
    flags = [part for option in options for part in ("--option", option)]
    seats = RANDOM_SEATS[:2] if game == "openspiel:crossword" else RANDOM_SEATS
    code = main(["--db", str(db), "play", game, *flags, *seats])
    out, err = capfd.readouterr()
    assert code == 2
    assert err.startswith(f"arena: error: {said}") and err.count("\n") == 1, err
    assert "Traceback" not in out + err and "OpenSpiel exception" not in err
    assert _rows(db, "episodes") == 0


def test_a_tournament_with_options_the_library_refuses_is_not_created(
    capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "arena.db"
    argv = ["--db", str(db), "tournament", "run", "openspiel:breakthrough", "--option", "rows=1"]
    code = main([*argv, "--player", "baseline:mcts", "--player", "baseline:random", "--seeds", "1"])
    err = capfd.readouterr().err
    assert code == 2
    said = "OpenSpiel cannot play breakthrough with these parameters: rows_ > 1 (rows_ = 1, 1 = 1)"
    assert err == f"arena: error: {said}\n"
    assert _rows(db, "tournaments") == 0 and _rows(db, "episodes") == 0


def test_hanabi_with_the_librarys_defaults_names_its_seats_and_plays(
    capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "arena.db"
    assert main(["--db", str(db), "play", "openspiel:hanabi"]) == 2
    assert capfd.readouterr().err == (
        "arena: error: give every seat a player, e.g. --seat p0=baseline:random --seat p1=baseline:random\n"
    )
    assert main(["--db", str(db), "play", "openspiel:hanabi", "--quiet", *RANDOM_SEATS]) == 0
    assert "episode 1 finished" in capfd.readouterr().out


def test_a_textarena_value_without_a_range_is_caught_by_building_the_environment_once() -> None:
    unranged = make_definition(dataclasses.replace(LISTED["ConnectFour-v0"], ranges=()))
    with pytest.raises(OptionError) as caught:
        unranged.parse_options({"num_rows": 0})
    assert str(caught.value) == (
        "textarena:ConnectFour-v0 cannot be played with these options: TextArena fails"
        " (IndexError: list index out of range)"
    )
    assert unranged.parse_options({"num_rows": 5}).model_dump()["num_rows"] == 5
