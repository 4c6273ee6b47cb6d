"""The playing process's CPU cost of recording an episode, with the game and runner taken out.

Usage: python bench/store_handover.py [--episodes 1000] [--rounds 5]

Replays the store calls of a recorded weather-vs-cost-plus lemonade episode (create the
episode, 30 steps of two compact turn rows, finish it) ``--episodes`` times inside an event
loop, yielding to the loop every :data:`YIELD_EVERY_STEPS` steps as the runner does about
every 2 ms. Prints the CPU milliseconds per episode of this process (``time.process_time``,
best of ``--rounds``, each on a fresh file) and the wall time including a final flush.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.contract.usage import NO_USAGE
from arena.engine.match import MatchConfig, play_match
from arena.engine.recorder import TURN_COLUMNS
from arena.store.database import Store

SEATS = {"a": "baseline:weather", "b": "baseline:cost-plus"}
YIELD_EVERY_STEPS = 15
"""Steps between yields: a scripted lemonade step takes about 0.1 ms of CPU, the runner yields every 2 ms."""


def sample(folder: Path) -> tuple[dict[str, Any], list[list[list[Any]]], dict[str, dict[str, Any]]]:
    """The create keywords, the steps' turn rows and the finish of one recorded episode."""
    store = Store(folder / "sample.db")
    outcome = asyncio.run(play_match(MatchConfig("lemonade", SEATS, seed=1), store))
    assert outcome.episode_id is not None
    episode = store.episode(outcome.episode_id)
    assert episode is not None
    seats = store.seats(outcome.episode_id)
    fields = ("game", "game_version", "prompt_version", "arena_version", "seed", "options")
    create = {key: episode[key] for key in fields}
    create["seats"] = [(s["seat"], s["player"], s["kind"]) for s in seats]
    create["configs"] = {s["seat"]: s["config"] for s in seats if s["config"]}
    columns = ", ".join(TURN_COLUMNS)
    rows = [list(row) for row in store.conn.execute(f"SELECT {columns} FROM turns ORDER BY idx")]
    steps = [rows[i : i + 2] for i in range(0, len(rows), 2)]
    finish = {
        s["seat"]: {
            "score": s["score"],
            "metrics": s["metrics"],
            "usage": NO_USAGE,
        }
        for s in seats
    }
    store.close()
    return create, steps, finish


async def record(
    db: Path, episodes: int, create: dict[str, Any], steps: list[list[list[Any]]], finish: dict[str, Any]
) -> tuple[float, float]:
    """CPU and wall milliseconds per episode of recording ``episodes`` episodes."""
    store = Store(db)
    started, cpu = time.perf_counter(), time.process_time()
    step_count = 0
    for _ in range(episodes):
        episode_id = store.create_episode(**create)
        for rows in steps:
            for row in rows:
                row[0] = episode_id
            store.add_turns(TURN_COLUMNS, rows, group=True)  # as the recorder does for baselines
            step_count += 1
            if step_count % YIELD_EVERY_STEPS == 0:
                await asyncio.sleep(0)
        store.finish_episode(episode_id, "finished", "", finish)
    cpu_spent = time.process_time() - cpu
    store.flush()
    wall = time.perf_counter() - started
    store.close()
    return cpu_spent / episodes * 1000, wall / episodes * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    best_cpu, best_wall = float("inf"), float("inf")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        create, steps, finish = sample(folder)
        for number in range(args.rounds):
            cpu, wall = asyncio.run(record(folder / f"r{number}.db", args.episodes, create, steps, finish))
            best_cpu, best_wall = min(best_cpu, cpu), min(best_wall, wall)
    print(f"{args.episodes} episodes of store calls, best of {args.rounds} rounds")
    print(f"playing process CPU per episode: {best_cpu:.3f} ms; wall with final flush: {best_wall:.3f} ms")


if __name__ == "__main__":
    main()
