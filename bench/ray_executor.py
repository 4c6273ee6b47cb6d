"""The Ray executor on this machine: start-up, decisions per second by worker count, head overhead.

Usage: python bench/ray_executor.py [--delay 0.5] [--actors 1,2,4,8] [--decisions 48]

Players are ``sleepy`` test models (:mod:`tests.support.sleepy`): offline models that sleep
``--delay`` seconds per decision (no CPU), then answer as a bargain baseline. For each
worker count N a tournament of ``sleepy:honest/DELAY/N`` against ``baseline:bluffing``
plays on a local Ray instance with 2N episodes at once; the rate is the sleepy decisions
logged over the time from the first one's start to the last one's end (workers already
loaded), against the ideal N / DELAY. Then the same zero-delay tournament plays with the
local executor and the Ray executor in the same run: the head's CPU seconds and wall time
per recorded turn once the players are ready (every seat's turn; only the sleepy seat's
are decided on a worker), alternating local and Ray twice.
Run from the repository root (Ray's workers import the test model from there).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ray

from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.ray_executor import LOCAL_OBJECT_STORE_BYTES, RayExecutor
from arena.tournament.run import (
    Executor,
    LocalExecutor,
    TournamentProgress,
    TournamentRun,
    create_tournament,
)
from tests.support.sleepy import LOG_ENV, decisions, install_sleepy


async def play(
    db: Path, players: tuple[str, ...], seeds: int, executor: Executor
) -> tuple[int, float, float]:
    """Play a bargain tournament; its turns, and the head's CPU and wall seconds once players are ready."""
    store = Store(db)
    try:
        config = build_config(game="bargain", players=players, seeds=seeds, seed=1, concurrency=64)
        tournament_id = create_tournament(store, config)
        run = TournamentRun(store, tournament_id, executor=executor)
        cpu = 0.0

        def mark(progress: TournamentProgress) -> None:  # the first call once workers are loaded
            nonlocal cpu
            if progress.prepared_at is not None and not cpu:
                cpu = time.process_time()

        run.on_progress = mark
        progress = await run.run()
        wall = time.perf_counter() - (progress.prepared_at or 0.0)
        cpu = time.process_time() - cpu
        assert progress.status == "finished", progress.message
        (turns,) = store.conn.execute("SELECT count(*) FROM turns").fetchone()
        return int(turns), cpu, wall
    finally:
        store.close()


def rate(log: Path) -> tuple[int, float]:
    """Decisions logged, and their rate over the span from the first start to the last end."""
    rows = decisions(log)
    span = max(end for _, _, end in rows) - min(start for _, start, _ in rows)
    return len(rows), len(rows) / span


async def main(delay: float, actors: list[int], wanted: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="arena-ray-bench-"))
    sys.path.insert(0, str(install_sleepy(folder / "plugin")))
    log = folder / "decisions.log"
    os.environ[LOG_ENV] = str(log)
    print(f"load before: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} CPUs")
    started = time.perf_counter()
    ray.init(include_dashboard=False, object_store_memory=LOCAL_OBJECT_STORE_BYTES, log_to_driver=False)
    print(f"ray.init (a local instance): {time.perf_counter() - started:.1f} s")
    try:
        print(f"\n{'workers':>7} {'decisions':>9} {'per s':>7} {'ideal':>6} {'share':>6}")
        base = None
        for count in actors:
            log.unlink(missing_ok=True)
            # About 3 sleepy decisions per episode of bargain; 2 seatings per deal seed.
            seeds = max(1, round(wanted * count / 6))
            executor = RayExecutor(None, concurrency=2 * count)
            await play(
                folder / f"n{count}.db",
                (f"sleepy:honest/{delay}/{count}", "baseline:bluffing"),
                seeds,
                executor,
            )
            made, per_second = rate(log)
            base = base or per_second
            ideal = count / delay
            print(
                f"{count:>7} {made:>9} {per_second:>7.2f} {ideal:>6.1f} {per_second / (base * count):>6.2f}"
            )
        print("\nhead overhead per recorded turn (zero-delay sleepy vs baseline, 60 deal seeds):")
        players = ("sleepy:honest/0/1", "baseline:bluffing")
        for name, make in (("local", lambda: LocalExecutor(4)), ("ray", lambda: RayExecutor(None, 4))) * 2:
            log.unlink(missing_ok=True)
            turns, cpu, wall = await play(folder / f"{name}-{time.time_ns()}.db", players, 60, make())
            remote = len(decisions(log))
            print(
                f"  {name:>5}: {turns} turns ({remote} decided by the model seat) in {wall:.2f} s;"
                f" head CPU {cpu / turns * 1e3:.3f} ms and wall {wall / turns * 1e3:.3f} ms per turn"
            )
    finally:
        ray.shutdown()
    print(f"load after: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--delay", type=float, default=0.5, help="seconds per sleepy decision (default 0.5)")
    parser.add_argument("--actors", default="1,2,4,8", help="worker counts (default 1,2,4,8)")
    parser.add_argument("--decisions", type=int, default=48, help="about this many decisions per worker")
    args = parser.parse_args()
    asyncio.run(main(args.delay, [int(n) for n in args.actors.split(",")], args.decisions))
