"""How fast Arena starts: ``arena --help``, ``arena games``, ``arena episodes`` and the app.

Each measurement starts a fresh interpreter (a subprocess) and times it from start to
exit, or for the app from start to the home screen's first frame (keys answered) and to
the first game's set-up painted (the headless driver, exactly as ``bench/app_latency.py``
measures its launch). Prints the median and the best
of ``--runs`` runs of each; asserts nothing. The app is timed twice: on a new database
each run (``bench/app_latency.py``'s launch, which creates and migrates the file) and on
the database of the listing (what every later start opens).

``arena episodes`` reads a temporary database holding a few short lemonade episodes.
The commands run through the ``arena`` console script beside this interpreter (the one
``pip install`` made), so what is timed is what a user types; without that script they
run as ``python -c "from arena.cli.main import run; run()"``.

The commands run as a user's do, with Python's bytecode cache (``__pycache__``, written by
one untimed run of each first): ``PYTHONDONTWRITEBYTECODE`` is dropped from their
environment. Where it is set for good, a checkout never gets a cache and every start
compiles Arena's own sources again.

Usage: ``.venv/bin/python bench/cli_startup.py [--runs 15] [--app-runs 7]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from app_latency import LAUNCH_CHILD

from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store


def arena_command() -> list[str]:
    """How to start the ``arena`` command with this interpreter."""
    script = Path(sys.executable).with_name("arena")
    if script.exists():
        return [sys.executable, str(script)]
    return [sys.executable, "-c", "from arena.cli.main import run; run()"]


def start(command: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    """``command`` started in the folder of the database.

    Nothing in the current folder then shadows the installed packages (``python -c`` puts
    the current folder first on the path).
    """
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=Path(env["ARENA_DB"]).parent,
    )


def launched(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds from starting the app's launch child to its first frame, and to its set-up painted."""
    started = time.time()  # wall clock: the child reports its moments on the same clock
    child = start(command, env)
    assert child.stdout is not None
    line = child.stdout.readline()
    child.communicate()
    if not line.startswith("READY "):
        raise SystemExit(f"the app did not get ready: {line!r}")
    marks = json.loads(line.removeprefix("READY "))
    return marks["frame"] - started, marks["set_up"] - started


def timed(command: list[str], env: dict[str, str]) -> float:
    """Seconds from starting ``command`` to its exit."""
    started = time.perf_counter()
    child = start(command, env)
    output, errors = child.communicate()
    took = time.perf_counter() - started
    if child.returncode != 0 or not output:
        raise SystemExit(f"{command[2:]} failed ({child.returncode}): {errors.strip()}")
    return took


def summary(values: list[float]) -> str:
    """``median 123 ms, best 101 ms (n=15)``."""
    median, best = statistics.median(values) * 1000, min(values) * 1000
    return f"median {median:4.0f} ms, best {best:4.0f} ms (n={len(values)})"


async def record_episodes(db: Path, count: int) -> None:
    """``count`` short baseline lemonade episodes in ``db``."""
    store = Store(db)
    try:
        for seed in range(count):
            config = MatchConfig("lemonade", {"a": "baseline:weather", "b": "baseline:cost-plus"}, seed=seed)
            config.options = {"days": 5}
            outcome = await play_match(config, store)
            assert outcome.status == "finished"
    finally:
        store.close()


def main() -> None:
    """Time each command ``--runs`` times and the app ``--app-runs`` times; print the figures."""
    parser = argparse.ArgumentParser(description="How fast Arena starts.")
    parser.add_argument("--runs", type=int, default=15, help="runs of each command")
    parser.add_argument("--app-runs", type=int, default=7, help="runs of the app's launch")
    parser.add_argument("--episodes", type=int, default=5, help="episodes in the listed database")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "listed.db"
        asyncio.run(record_episodes(db, args.episodes))
        env = {**os.environ, "ARENA_DB": str(db)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        print(f"load average {os.getloadavg()[0]:.1f}")
        arena = arena_command()
        commands = {"arena --help": ["--help"], "arena games": ["games"], "arena episodes": ["episodes"]}
        for label, extra in commands.items():
            timed(arena + extra, env)  # warm the file cache once, as a user's second run would be
            times = [timed(arena + extra, env) for _ in range(args.runs)]
            print(f"{label:<40} {summary(times)}")
        app = [sys.executable, "-c", LAUNCH_CHILD]
        launched([*app, str(Path(tmp) / "warm.db")], env)
        fresh = [launched([*app, str(Path(tmp) / f"app{run}.db")], env) for run in range(args.app_runs)]
        launched([*app, str(db)], env)
        kept = [launched([*app, str(db)], env) for _ in range(args.app_runs)]
        for label, runs in (("new database", fresh), ("the listed database", kept)):
            print(f"{'app first frame, ' + label:<40} {summary([frame for frame, _ in runs])}")
            print(f"{'app set-up painted, ' + label:<40} {summary([set_up for _, set_up in runs])}")
        print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
