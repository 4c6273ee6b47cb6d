"""The OpenSpiel reference opponents: uniform random everywhere, the library's MCTS where it is fair.

MCTS is offered only for sequential perfect-information games (it would search the true state
of a poker hand), plays the same moves for the same seed, and beats random play.
"""

from __future__ import annotations

from pathlib import Path

from arena.engine.match import MatchConfig, play_match
from arena.plugins.games import get_game
from arena.store.database import Store
from tests.support.episodes import stored_turns


def test_mcts_is_offered_only_where_the_observation_holds_the_whole_state() -> None:
    offered = {
        name: set(get_game(f"openspiel:{name}").baselines) for name in ("connect_four", "chess", "hex")
    }
    assert all(names == {"random", "mcts"} for names in offered.values())
    for name in (
        "kuhn_poker",
        "leduc_poker",
        "liars_dice",
        "goofspiel",
        "bargaining",
        "first_sealed_auction",
    ):
        assert set(get_game(f"openspiel:{name}").baselines) == {"random"}, name
    assert "200 simulations" in get_game("openspiel:connect_four").baselines["mcts"].description


async def test_mcts_is_deterministic_by_seed_and_beats_random(tmp_path: Path) -> None:
    store = Store(tmp_path / "arena.db")
    try:
        moves: dict[int, list[str]] = {}
        total = 0.0
        for seed in range(4):
            seats = {"p0", "p1"}
            mcts = "p0" if seed % 2 == 0 else "p1"
            lineup = {seat: "baseline:mcts" if seat == mcts else "baseline:random" for seat in seats}
            for _ in range(2 if seed == 0 else 1):
                config = MatchConfig(game="openspiel:connect_four", seats=lineup, seed=seed)
                outcome = await play_match(config, store)
                assert outcome.episode_id is not None
                played = [turn["action"]["move"] for turn in stored_turns(store, outcome.episode_id)]
                assert moves.setdefault(seed, played) == played, "the same seed plays the same moves"
            total += outcome.results[mcts].score
        assert total == 4.0, "MCTS with 200 simulations wins every game against random play"
    finally:
        store.close()
