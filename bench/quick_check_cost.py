"""What SQLite's ``quick_check`` costs the reading commands that run it first. Prints figures.

``arena tournament table``/``report``, ``leaderboard``, ``export``, ``episodes``, ``tournaments``
and ``compare`` check the database with ``PRAGMA quick_check`` before they build anything from it
(:func:`arena.store.integrity.check_integrity`), so a damaged file is refused in one line rather
than read into a wrong table. This builds (or reuses, ``--db``) a database of ``--episodes``
baseline bargain episodes (a tournament of honest against bluffing), then times the check on a
fresh connection ``--repeat`` times, and one ``arena tournament table`` in its own process for
scale.

Usage: ``.venv/bin/python bench/quick_check_cost.py [--episodes 10000] [--repeat 5] [--db PATH]``
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.store.database import Store
from arena.store.integrity import check_integrity
from arena.tournament.config import build_config
from arena.tournament.run import run_tournament


def build(db: Path, episodes: int) -> float:
    """Play ``episodes`` bargain episodes into ``db``; returns the seconds it took."""
    store = Store(db)
    started = time.perf_counter()
    try:
        config = build_config(
            game="bargain", players=("baseline:honest", "baseline:bluffing"), seeds=max(1, episodes // 2)
        )
        asyncio.run(run_tournament(store, config))
    finally:
        store.close()
    return time.perf_counter() - started


def timed_check(db: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one check on a new connection (the file in the page cache)."""
    conn = sqlite3.connect(db)
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        check_integrity(conn, db)
        return time.perf_counter() - wall, time.process_time() - cpu
    finally:
        conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--db", type=Path, default=None, help="reuse (or build once) this database")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="quick-check-"))
    db = args.db or folder / "bench.db"
    if not db.exists():
        print(f"building {args.episodes:,} episodes in {db} ... ", end="", flush=True)
        print(f"{build(db, args.episodes):.1f} s")
    conn = sqlite3.connect(db)
    episodes = conn.execute("SELECT count(*) FROM episodes").fetchone()[0]
    turns = conn.execute("SELECT count(*) FROM turns").fetchone()[0]
    conn.close()
    size = sum(p.stat().st_size for p in db.parent.glob(f"{db.name}*"))
    print(f"database: {episodes:,} episodes, {turns:,} turns, {size / 1e6:.1f} MB")
    runs = [timed_check(db) for _ in range(args.repeat)]
    walls, cpus = [w for w, _ in runs], [c for _, c in runs]
    print(
        f"quick_check: median {statistics.median(walls) * 1000:.0f} ms wall"
        f" (min {min(walls) * 1000:.0f}, max {max(walls) * 1000:.0f}),"
        f" median {statistics.median(cpus) * 1000:.0f} ms CPU, {args.repeat} runs"
    )
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "--db", str(db), "tournament", "table", "1"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    print(f"arena tournament table 1 (check included): {time.perf_counter() - started:.2f} s wall")


if __name__ == "__main__":
    main()
