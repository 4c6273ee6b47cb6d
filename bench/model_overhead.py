"""Arena's own overhead around model calls, against a local server answering in 200 ms.

Usage: python bench/model_overhead.py [--delay 0.2] [--episodes 16]

The real OpenAI SDK talks to the wire-level test server (Chat Completions), which
answers every request with a legal lemonade decision after a fixed delay. Prints:

* the overhead per turn: episode wall time per step minus the server's delay, for one
  30-day episode with one model seat (sequential turns);
* the wall time of N concurrent 30-day episodes with two model seats each, against
  the critical path of 30 sequential turns (30 x delay).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.contract.records import Event, Observer, StepStarted, TurnsRecorded
from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from games.lemonade import DEFINITION as LEMONADE
from players.models import load_models_config
from tests.support.wire_server import Behaviour, WireServer, reply

DECISION = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady"}


class FixedDelayServer(WireServer):
    """Answers every request with the same legal decision after ``delay`` seconds."""

    def __init__(self, delay: float) -> None:
        super().__init__()
        self.delay = delay
        self.models = ["bench"]  # the pre-match probe checks the server lists the model id

    def next_behaviour(self) -> Behaviour:
        behaviour = reply(DECISION)
        behaviour.delay = self.delay
        return behaviour


def models_file(folder: Path, url: str, concurrency: int) -> Path:
    path = folder / "models.toml"
    path.write_text(
        f'[models.bench]\nprovider = "openai-compat"\nmodel = "bench"\nbase_url = "{url}"\n'
        f"max_concurrency = {concurrency}\ntimeout = 30\n"
    )
    return path


class StepClock(Observer):
    """Observer timing each step from StepStarted to TurnsRecorded."""

    def __init__(self) -> None:
        self.started = 0.0
        self.first_step_at = 0.0
        self.steps: list[float] = []

    def __call__(self, event: Event) -> None:
        if isinstance(event, StepStarted):
            self.started = time.perf_counter()
            self.first_step_at = self.first_step_at or self.started
        elif isinstance(event, TurnsRecorded):
            self.steps.append(time.perf_counter() - self.started)


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"median {statistics.median(ordered) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms"


async def sequential(store: Store, config: Any, delay: float) -> None:
    clock = StepClock()
    started = time.perf_counter()
    outcome = await play_match(
        MatchConfig("lemonade", {"a": "bench", "b": "baseline:weather"}, seed=1),
        store,
        [clock],
        models_config=config,
    )
    wall = time.perf_counter() - started
    turns = [t for t in store.turns(outcome.episode_id or 0, LEMONADE) if t["seat"] == "a"]
    assert all(not t["fallback"] for t in turns), "the bench server's replies should all be legal"
    latencies = [t["latency"] for t in turns]
    print(
        f"one episode, {len(turns)} sequential model turns: wall {wall:.2f}s (SDK import and set-up included)"
    )
    step_overheads = ms([s - delay for s in clock.steps])
    call_overheads = ms([x - delay for x in latencies])
    print(f"  step wall - server delay (all overhead: arena, SDK, HTTP, server): {step_overheads}")
    print(f"  decision latency - server delay (SDK, HTTP, server, parsing):    {call_overheads}")
    print(
        "  arena's own overhead (step wall - decision latency):             "
        f"{ms([s - x for s, x in zip(clock.steps, latencies, strict=True)])}"
    )


async def concurrent(store: Store, config: Any, episodes: int, delay: float, model_seats: int) -> None:
    seats = {"a": "bench", "b": "bench" if model_seats == 2 else "baseline:weather"}
    clocks = [StepClock() for _ in range(episodes)]
    started = time.perf_counter()
    outcomes = await asyncio.gather(
        *(
            play_match(MatchConfig("lemonade", seats, seed=i), store, [clocks[i]], models_config=config)
            for i in range(episodes)
        )
    )
    wall = time.perf_counter() - started
    assert all(o.status == "finished" for o in outcomes)
    critical = 30 * delay
    set_up = max(clock.first_step_at for clock in clocks) - started
    steps = ms([step for clock in clocks for step in clock.steps])
    print(f"{episodes} concurrent episodes x {model_seats} model seat(s): wall {wall:.2f}s")
    print(f"  critical path 30 x {delay:.3f}s = {critical:.2f}s; ratio {wall / critical:.3f}x")
    print(f"  set-up until every episode's first step {set_up:.2f}s; step wall {steps}")


def serve(delay: float) -> None:
    """Child process: serve until stdin closes (keeps server CPU off the measured process)."""
    with FixedDelayServer(delay) as server:
        print(server.openai_url, flush=True)
        sys.stdin.read()


@contextlib.contextmanager
def served(delay: float) -> Iterator[str]:
    """Run :func:`serve` in a child process (this file with ``--serve``); yields its OpenAI URL."""
    child = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--delay", str(delay)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdin is not None
    try:
        yield child.stdout.readline().strip()
    finally:
        child.stdin.close()
        child.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--delay", type=float, default=0.2)
    parser.add_argument("--episodes", type=int, default=16)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.delay)
        return
    with served(args.delay) as url, tempfile.TemporaryDirectory() as folder:
        config = load_models_config(models_file(Path(folder), url, 2 * args.episodes))
        store = Store(Path(folder) / "bench.db")
        asyncio.run(sequential(store, config, args.delay))
        for model_seats in (2, 1, 2):
            asyncio.run(concurrent(store, config, args.episodes, args.delay, model_seats))
        store.close()


if __name__ == "__main__":
    main()
