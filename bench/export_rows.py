"""How fast ``arena export`` writes many episodes as rows. Prints figures; asserts nothing.

1. Builds (or reuses, ``--db``) a database of ``--episodes`` baseline bargain episodes played and
   recorded through the engine: a tournament of honest against bluffing, both seatings.
2. Exports all of them with the real command, each run in its own process, to JSON Lines, CSV
   and Parquet, one row per turn and one per seat: seconds, rows per second, file size and the
   process's peak memory (streaming: it should not grow with the number of episodes).
3. Cattle Trade, whose observation holds the whole history: ``--cattle`` random-baseline 3-seat
   episodes exported without observations, with ``--observations changes`` and ``full``.

Usage: ``.venv/bin/python bench/export_rows.py [--episodes 10000] [--cattle 10] [--db PATH] [--only turns]
[--tree OTHER_CHECKOUT]`` (``--tree`` runs another checkout's exports on the same database: before and
after in one sitting; CPU seconds are the fairer figure on a shared machine).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import run_tournament

ARENA = [sys.executable, "-m", "arena.cli.main"]


def build(db: Path, episodes: int, cattle: int) -> tuple[int, float]:
    """Play the episodes into ``db``; returns the bargain tournament's id and the seconds it took."""
    store = Store(db)
    started = time.perf_counter()
    try:
        config = build_config(
            game="bargain", players=("baseline:honest", "baseline:bluffing"), seeds=max(1, episodes // 2)
        )
        progress = asyncio.run(run_tournament(store, config))
        for seed in range(cattle):
            seats = {f"p{i}": "baseline:random" for i in (1, 2, 3)}
            asyncio.run(
                play_match(MatchConfig(game="cattle", seats=seats, seed=seed, options={"players": 3}), store)
            )
    finally:
        store.close()
    return progress.tournament_id, time.perf_counter() - started


TREE: Path | None = None
"""Another checkout whose ``arena`` the exports run (``--tree``: before/after in one sitting)."""


def export(db: Path, out: Path, *argv: str) -> tuple[float, float, int, int, str]:
    """One ``arena export`` in its own process: seconds, CPU seconds, peak RSS (KiB), file bytes, its
    summary line."""
    started = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(TREE)} if TREE else None
    child = subprocess.Popen(
        [*ARENA, "--db", str(db), "export", *argv, "--output", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert child.stderr is not None
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - started
    if child.returncode != 0:
        raise SystemExit(f"export failed: {err}")
    cpu = usage.ru_utime + usage.ru_stime
    return seconds, cpu, usage.ru_maxrss, out.stat().st_size, err.strip().splitlines()[-1]


def rows_written(summary: str) -> int:
    return int(summary.split("wrote ", 1)[1].split(" ", 1)[0].replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--cattle", type=int, default=10)
    parser.add_argument("--db", type=Path, help="reuse (or create) this database")
    parser.add_argument("--tree", type=Path, help="run the exports of another checkout (PYTHONPATH)")
    parser.add_argument("--only", default="", help="e.g. turns: only these kinds of row")
    args = parser.parse_args()
    global TREE
    TREE = args.tree
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1 and 5 min), {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        db = args.db or work / "arena.db"
        if args.db is None or not db.exists():
            tournament, seconds = build(db, args.episodes, args.cattle)
            print(f"built {args.episodes:,} bargain + {args.cattle} cattle episodes in {seconds:.1f} s")
        else:
            store = Store(db)
            tournament = int(store.conn.execute("SELECT max(id) FROM tournaments").fetchone()[0])
            store.close()
        print(f"database: {db.stat().st_size / 1e6:.1f} MB")
        print(
            f"\n{'rows':<6} {'format':<8} {'rows':>8} {'seconds':>8} {'rows/s':>9} {'CPU s':>7}"
            f" {'rows/CPU s':>10} {'MB':>7} {'peak RSS MB':>12}"
        )
        for rows in ("turns", "seats"):
            if args.only and rows not in args.only.split(","):
                continue
            for fmt in ("jsonl", "csv", "parquet"):
                out = work / f"{rows}.{fmt}"
                seconds, cpu, rss, size, summary = export(
                    db, out, "--tournament", str(tournament), "--rows", rows
                )
                count = rows_written(summary)
                print(
                    f"{rows:<6} {fmt:<8} {count:>8,} {seconds:>8.2f} {count / seconds:>9,.0f} {cpu:>7.2f}"
                    f" {count / cpu:>10,.0f} {size / 1e6:>7.2f} {rss / 1024:>12.0f}"
                )
                out.unlink()
        if args.cattle and not args.only:
            print(f"\ncattle ({args.cattle} random 3-seat episodes), turn rows as JSON Lines:")
            for observations in ("none", "changes", "full"):
                out = work / f"cattle-{observations}.jsonl"
                seconds, cpu, rss, size, summary = export(
                    db, out, "--game", "cattle", "--observations", observations
                )
                print(
                    f"  --observations {observations:<8} {rows_written(summary):>6,} rows {seconds:>6.2f} s"
                    f" ({cpu:.2f} CPU s) {size / 1e6:>8.2f} MB  peak RSS {rss / 1024:.0f} MB"
                )
                out.unlink()


if __name__ == "__main__":
    main()
