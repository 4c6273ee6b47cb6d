"""Seats follow the options everywhere: a tournament of three lemonade stands runs (it used to
fail with "lemonade seats are a, b")."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli.main import main
from arena.plugins.games import get_game
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import run_tournament
from arena.tournament.standings import read_tournament


async def test_a_tournament_of_three_stands_runs(store: Store) -> None:
    players = ("baseline:weather", "baseline:cost-plus", "baseline:random")
    config = build_config(game="lemonade", players=players, seeds=2, seed=1, options={"stands": 3, "days": 3})
    progress = await run_tournament(store, config)
    assert progress.status == "finished" and progress.done == 6
    records = read_tournament(store, progress.tournament_id).records
    assert len(records) == 6
    assert all(set(record.scores) == {"a", "b", "c"} for record in records)


def test_a_tournament_counts_the_seats_the_options_give(
    capsys: pytest.CaptureFixture[str], db_path: Path
) -> None:
    argv = ["--db", str(db_path), "tournament", "run", "lemonade", "--player", "baseline:weather"]
    assert main([*argv, "--option", "stands=3"]) != 0
    assert "lemonade has 3 seats: give at least two players" in capsys.readouterr().err


def test_seats_are_a_function_of_the_options() -> None:
    lemonade = get_game("lemonade")
    assert lemonade.seats_for({"stands": 1}) == ("a",)
    assert lemonade.seats_for({"stands": 5}) == ("a", "b", "c", "d", "e")
    assert lemonade.default_seats == ("a", "b")
    assert get_game("paperclip").seats_for({"seats": 4}) == ("a", "b", "c", "d")
