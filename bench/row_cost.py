"""What building turn rows costs the main thread, SQLite aside, in CPU milliseconds per episode.

Usage: python bench/row_cost.py [--episodes 300] [--rounds 3]

The same baseline lemonade episodes as ``bench/episode_cost.py`` (weather vs cost-plus, 30
days, two stands), measured with ``time.process_time``, interleaved, best round kept:

* ``runner``: ``play_match`` without a store (runner and records);
* ``rows``: ``play_match`` with the real recorder writing into a store that keeps nothing, so
  the figure is the runner plus every row the recorder builds (digests included) and no SQLite.

``rows`` minus ``runner`` is what building the rows adds, before SQLite stores them.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store

SEATS = {"a": "baseline:weather", "b": "baseline:cost-plus"}


class DiscardingStore:
    """Takes what the recorder writes and keeps none of it (the rows are built all the same)."""

    def __init__(self) -> None:
        self.episodes = 0
        self.rows = 0

    def create_episode(self, **_: Any) -> int:
        """A fresh episode id."""
        self.episodes += 1
        return self.episodes

    def add_turns(self, columns: tuple[str, ...], rows: list[list[Any]], *, group: bool = False) -> None:
        """Count the rows, drop them."""
        self.rows += len(rows)

    def finish_episode(self, *_: Any) -> None:
        """Nothing to finish."""


async def loop(episodes: int, store: DiscardingStore | None) -> None:
    """``episodes`` episodes, recorded into ``store`` when one is given."""
    for seed in range(1, episodes + 1):
        # The recorder only calls the three writes DiscardingStore has.
        await play_match(MatchConfig("lemonade", SEATS, seed=seed), cast("Store | None", store))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(loop(20, DiscardingStore()))  # warm imports and caches
    best = {"runner": float("inf"), "rows": float("inf")}
    for _ in range(args.rounds):
        for label in best:
            store = DiscardingStore() if label == "rows" else None
            cpu = time.process_time()
            asyncio.run(loop(args.episodes, store))
            best[label] = min(best[label], (time.process_time() - cpu) / args.episodes * 1000)
            if store is not None and store.rows != 60 * args.episodes:
                raise SystemExit(f"expected {60 * args.episodes} rows, the recorder built {store.rows}")
    print(f"{args.episodes} episodes per loop, best of {args.rounds} rounds")
    for label, value in best.items():
        print(f"{label:<8} {value:8.3f} CPU ms/episode")
    print(f"rows over runner: {best['rows'] - best['runner']:.3f} ms CPU per episode")


if __name__ == "__main__":
    main()
