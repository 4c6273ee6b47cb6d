"""OpenSpiel games in tournaments: ratings for two seats and for three, and a report that names
the library, its version and the game's parameters.
"""

from __future__ import annotations

from pathlib import Path

from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.report import build_report
from arena.tournament.run import run_tournament


async def test_a_connect_four_tournament_rates_mcts_above_random_and_discloses_the_library(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "arena.db")
    try:
        config = build_config(
            game="openspiel:connect_four",
            players=("baseline:mcts", "baseline:random"),
            seeds=3,
            seed=2,
            options={"rows": 5},
        )
        progress = await run_tournament(store, config)
        assert progress.status == "finished"
        report = build_report(store, progress.tournament_id)
    finally:
        store.close()
    identity = report["identity"]
    assert identity["game"] == "openspiel:connect_four" and identity["game_version"] == "2.0.2/1"
    assert identity["options"]["rows"] == 5 and identity["options"]["move_cap"] == 0
    assert "open-spiel==2.0.2" in report["appendix"]["packages"]
    rules = report["appendix"]["rules"][0]["text"]
    assert "OpenSpiel's game connect_four(rows=5) (the open-spiel library, version 2.0.2)" in rules
    ratings = {row["player"]: row for row in report["players"]}
    assert ratings["baseline:mcts"]["wins"] > ratings["baseline:random"]["wins"]


async def test_a_three_seat_game_is_rated_from_the_whole_order(tmp_path: Path) -> None:
    store = Store(tmp_path / "arena.db")
    try:
        config = build_config(
            game="openspiel:pig",
            players=("baseline:mcts", "baseline:random"),
            seeds=2,
            seed=1,
            options={"players": 3, "winscore": 10},
        )
        progress = await run_tournament(store, config)
        assert progress.status == "finished"
        report = build_report(store, progress.tournament_id)
    finally:
        store.close()
    assert report["identity"]["seats"] == ["p0", "p1", "p2"]
    assert report["identity"]["episodes_finished"] == report["identity"]["episodes_planned"] > 0
    assert {row["player"] for row in report["players"]} == {"baseline:mcts", "baseline:random"}
