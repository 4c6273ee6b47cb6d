"""Cattle Trade at random: games per second and decisions per game at 3, 4 and 5 seats, every
auction mode, with money and animals checked after every step.

    python bench/cattle_random.py [GAMES_PER_CONFIGURATION]   (default 1112: 10,008 games in all)
"""

from __future__ import annotations

import sys
import time

from games.cattle.sweep import MODES, sweep


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
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
