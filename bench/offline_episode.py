"""A full 30-day lemonade episode of the offline model against a baseline, recorded to SQLite.

Usage: python bench/offline_episode.py [--days 30] [--seed 42]

The run the test suite used to make (it now plays a 3-day episode): the real runner,
``local:gemma3-270m`` in seat a and ``baseline:weather`` in seat b, every turn written
to a temporary database. Prints the wall time, the model's seconds per decision
(median and slowest), the share of prompt tokens taken from the cached prefix,
fallbacks, and the final cash of both stands.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from games.lemonade import DEFINITION as LEMONADE
from players.models import ModelsConfig, local_runtime
from players.models.local_runtime import missing_requirement


async def bench(days: int, seed: int, db: Path) -> None:
    store = Store(db)
    seats = {"a": "local:gemma3-270m", "b": "baseline:weather"}
    started = time.perf_counter()
    outcome = await play_match(
        MatchConfig("lemonade", seats, seed=seed, options={"days": days}), store, models_config=ModelsConfig()
    )
    elapsed = time.perf_counter() - started
    turns = [t for t in store.turns(outcome.episode_id or 0, LEMONADE) if t["seat"] == "a"]
    store.close()
    latencies = [float(t["latency"]) for t in turns]
    prompt = sum(int(t["input_tokens"]) for t in turns)
    cached = sum(int(t.get("cached_tokens") or 0) for t in turns)
    print(f"{outcome.status}: {days}-day lemonade, {seats['a']} vs {seats['b']}, seed {seed}")
    choice = local_runtime.library_choice()
    print(f"llama.cpp libraries: {choice.note if choice else 'unknown'}")
    print(f"wall {elapsed:.1f}s for {len(turns)} model decisions (includes loading the model)")
    print(f"seconds per decision: median {statistics.median(latencies):.2f}, max {max(latencies):.2f}")
    print(f"prompt tokens {prompt}, from the cached prefix {cached} ({cached / max(prompt, 1):.0%})")
    metrics = {seat: result.metrics for seat, result in outcome.results.items()}
    print(f"fallbacks {metrics['a']['fallbacks']}; final cash a {metrics['a'].get('final_cash')}", end="")
    print(f", b {metrics['b'].get('final_cash')}")
    if outcome.status != "finished":
        sys.exit(f"episode did not finish: {outcome.message}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    problem = missing_requirement("gemma3-270m")
    if problem:
        sys.exit(f"offline model unavailable: {problem}")
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(bench(args.days, args.seed, Path(folder) / "offline.db"))


if __name__ == "__main__":
    main()
