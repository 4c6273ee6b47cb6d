"""Recorded baseline-vs-baseline lemonade episodes per second, and memory over time.

Usage: python bench/lemonade_throughput.py [--episodes 10000] [--db PATH]

Every episode is played by the real runner and written turn by turn to a real SQLite
file, exactly as ``arena play`` does. Prints throughput and the resident set size at
checkpoints so a leak shows as a rising column.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import tempfile
import time
from pathlib import Path

from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store


def rss_mib() -> float:
    """Current resident set size in MiB (Linux /proc)."""
    with open("/proc/self/statm") as handle:
        pages = int(handle.read().split()[1])
    return pages * resource.getpagesize() / 2**20


async def bench(episodes: int, db: Path, seats: dict[str, str]) -> None:
    store = Store(db)
    checkpoint = max(1, episodes // 10)
    started = time.perf_counter()
    window_start = started
    print(f"{'episodes':>9} {'eps/s (window)':>15} {'rss MiB':>8}")
    for index in range(1, episodes + 1):
        outcome = await play_match(MatchConfig("lemonade", seats, seed=index), store)
        assert outcome.status == "finished"
        if index % checkpoint == 0:
            now = time.perf_counter()
            print(f"{index:>9} {checkpoint / (now - window_start):>15.1f} {rss_mib():>8.1f}")
            window_start = now
    elapsed = time.perf_counter() - started
    turns = store.conn.execute("SELECT count(*) FROM turns").fetchone()[0]
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\n{episodes} recorded episodes in {elapsed:.1f}s: {episodes / elapsed:.0f} episodes/s")
    size = db.stat().st_size
    print(f"{turns} turn rows, {turns / elapsed:.0f} turns/s; peak RSS {peak:.1f} MiB")
    print(
        f"database after a WAL checkpoint (no VACUUM): {size / 2**20:.1f} MiB,"
        f" {size / episodes / 1024:.1f} KB per episode"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--a", default="baseline:weather")
    parser.add_argument("--b", default="baseline:cost-plus")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or Path(folder) / "bench.db"
        asyncio.run(bench(args.episodes, db, {"a": args.a, "b": args.b}))


if __name__ == "__main__":
    main()
