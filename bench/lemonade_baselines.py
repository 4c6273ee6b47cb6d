"""CPU microseconds per decision of each lemonade baseline, on an identical and a shared street.

Usage: python bench/lemonade_baselines.py [--seeds 10] [--rounds 3]

Collects the mornings of seeded 30-day episodes (two stands in identical worlds, three on
a shared street; half the days played by the stands' own random baseline so cash, rivals
and promotions vary), then times each baseline's ``choose`` over all of them with
``time.process_time``, best of ``--rounds``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.plugins.games import get_game
from games.lemonade.baselines import BASELINES
from games.lemonade.observation import LemonadeObservation

STREETS = {"identical": 2, "shared": 3}


def mornings(market: str, seeds: int) -> list[LemonadeObservation]:
    """Every stand's observation on every morning of ``seeds`` episodes."""
    definition = get_game("lemonade")
    seen: list[LemonadeObservation] = []
    for seed in range(1, seeds + 1):
        game = definition.create(seed, {"market": market, "stands": STREETS[market]})
        rng = random.Random(seed)
        while not game.over():
            for seat in game.pending():
                observation = game.observation(seat)
                assert isinstance(observation, LemonadeObservation)
                seen.append(observation)
            game.apply({seat: game.sample_action(seat, rng) for seat in game.pending()})
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"{'baseline':<12} {'market':<10} {'mornings':>8} {'CPU us/decision':>16}")
    for market in STREETS:
        observations = mornings(market, args.seeds)
        for name, kind in BASELINES.items():
            stand = kind(random.Random(0))
            best = float("inf")
            for _ in range(args.rounds):
                started = time.process_time()
                for observation in observations:
                    stand.choose(observation)
                best = min(best, time.process_time() - started)
            print(f"{name:<12} {market:<10} {len(observations):>8} {best / len(observations) * 1e6:>16.1f}")


if __name__ == "__main__":
    main()
