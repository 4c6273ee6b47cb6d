"""Cattle Trade at random: games per second and decisions per game at 3, 4 and 5 seats, every
auction mode, with money and animals checked after every step; then the same through the engine
(``baseline:random`` in every seat, the runner, every turn recorded in a temporary SQLite file).

    python bench/cattle_random.py [GAMES_PER_CONFIGURATION] [RECORDED_PER_CONFIGURATION]
    (defaults 1112, i.e. 10,008 games in all, and 20)
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from games.cattle.sweep import MODES, sweep


def recorded(players: int, auction: str, games: int) -> tuple[float, float]:
    """Games/s and decisions/game of ``games`` recorded episodes of ``baseline:random`` seats."""
    seats = {f"p{k}": "baseline:random" for k in range(1, players + 1)}
    decisions = 0
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "bench.db")
        try:
            start = time.perf_counter()
            for seed in range(games):
                config = MatchConfig(
                    game="cattle", seats=seats, seed=seed, options={"players": players, "auction": auction}
                )
                outcome = asyncio.run(play_match(config, store))
                decisions += sum(int(r.metrics["decisions"]) for r in outcome.results.values())
            seconds = time.perf_counter() - start
        finally:
            store.close()
    return games / seconds, decisions / games


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1112
    print(
        f"{'seats':>5} {'auction':<11} {'games':>6} {'games/s':>8} {'decisions/game':>15}"
        f" {'steps/game':>11}  ends"
    )
    problems = 0
    for players in (3, 4, 5):
        for mode in MODES:
            start = time.perf_counter()
            result = sweep(players, mode, range(games))
            seconds = time.perf_counter() - start
            problems += len(result.problems)
            ends = ", ".join(f"{reason} {n}" for reason, n in sorted(result.end_reasons.items()))
            print(
                f"{players:>5} {mode:<11} {result.games:>6} {result.games / seconds:>8.1f}"
                f" {result.decisions / result.games:>15.1f} {result.steps / result.games:>11.1f}  {ends}"
            )
            for problem in result.problems[:3]:
                print("   ", problem)
    # The same games again without the checks: the rules' own speed.
    start = time.perf_counter()
    result = sweep(4, "canonical", range(games), checked=False)
    print(f"unchecked, 4 seats canonical: {result.games / (time.perf_counter() - start):.1f} games/s")
    print("problems:", problems)
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    print(f"\nthrough the engine, baseline:random in every seat, recorded to SQLite ({runs} games each):")
    print(f"{'seats':>5} {'auction':<11} {'games/s':>8} {'decisions/game':>15}")
    for players in (3, 4, 5):
        for mode in MODES:
            rate, per_game = recorded(players, mode, runs)
            print(f"{players:>5} {mode:<11} {rate:>8.2f} {per_game:>15.1f}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
