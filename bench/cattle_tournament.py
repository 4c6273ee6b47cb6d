"""A 4-seat Cattle Trade tournament of the scripted players, as the paper reports one.

    python bench/cattle_tournament.py [--seeds 25] [--auction canonical] [--local]

Plays tracker, set-racer, cautious and random on ``--seeds`` deals, each deal in the four
rotations of the seats, through ``arena tournament run`` on a temporary database, and prints
its tables: Plackett-Luce ratings with bootstrap intervals, openskill's TrueSkill-style
mu +- sigma (the paper's figure), wins, and the behaviour metrics. ``--local`` plays a second,
small tournament with ``local:gemma3-270m`` in one seat (one deal, turn cap 30: each of its
decisions takes seconds).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ARENA = str(Path(sys.executable).with_name("arena"))
BASELINES = ("tracker", "set-racer", "cautious", "random")


def tournament(db: Path, players: list[str], seeds: int, options: dict[str, str]) -> tuple[str, float]:
    """The CLI's tables for one tournament and its wall time."""
    command = [ARENA, "--db", str(db), "tournament", "run", "cattle", "--seeds", str(seeds)]
    for player in players:
        command += ["--player", player]
    for name, value in options.items():
        command += ["--option", f"{name}={value}"]
    start = time.perf_counter()
    done = subprocess.run(
        command, capture_output=True, text=True, env={**os.environ, "COLUMNS": "230"}, check=False
    )
    seconds = time.perf_counter() - start
    if done.returncode:
        sys.exit(f"arena exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=25)
    parser.add_argument("--auction", default="canonical", choices=("canonical", "sealed", "sequential"))
    parser.add_argument("--local", action="store_true", help="also a small tournament with the offline model")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "arena.db"
        players = [f"baseline:{name}" for name in BASELINES]
        tables, seconds = tournament(db, players, args.seeds, {"auction": args.auction})
        games = args.seeds * len(BASELINES)
        print(tables)
        print(f"{games} games in {seconds:.1f} s wall ({games / seconds:.2f} games/s, concurrency 4)")
        if args.local:
            players = ["local:gemma3-270m", *players[:3]]
            tables, seconds = tournament(db, players, 1, {"auction": args.auction, "turn_cap": "30"})
            print(tables)
            print(f"offline model: 4 games (turn cap 30) in {seconds:.1f} s wall")


if __name__ == "__main__":
    main()
