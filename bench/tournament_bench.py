"""Tournament overhead: scheduling against plain recorded episodes, and model tournaments' wall time.

Usage: python bench/tournament_bench.py [--episodes 2000] [--delay 0.2] [--model-seeds 2]

1. Throughput, in one run: ``--episodes`` baseline lemonade episodes (weather vs cost-plus)
   played one after another by ``play_match`` (what ``bench/lemonade_throughput.py`` does),
   then the same number as a tournament (the two players, both seatings, episodes/2 deal
   seeds) at concurrency 1 and 4. Prints episodes/s, the ratio to the plain loop, and RSS
   at checkpoints (flat means no leak).
2. A 4-model tournament against the wire-level test server (a separate process answering
   every request after ``--delay`` s): 4 players -> 6 pairs x 2 seatings x ``--model-seeds``
   deals of a 5-day lemonade, global concurrency 8, each model's max_concurrency 8. Prints
   the wall time against the critical path (waves of 8 episodes x 5 steps x delay).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from model_overhead import served  # the bench's model server, one copy
from sqlite_reference import SEATS
from sqlite_reference import arena as recorded_loop  # the plain recorded loop, one copy

from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import TournamentProgress, run_tournament
from players.models import load_models_config


def rss_mib() -> float:
    """Current resident set size in MiB."""
    with open("/proc/self/statm") as handle:
        pages = int(handle.read().split()[1])
    return pages * resource.getpagesize() / 2**20


async def tournament(db: Path, episodes: int, concurrency: int) -> tuple[float, list[float]]:
    store = Store(db)
    rss: list[float] = []
    checkpoint = max(1, episodes // 5)

    def watch(progress: TournamentProgress) -> None:
        if progress.done and progress.done % checkpoint == 0 and len(rss) < progress.done // checkpoint:
            rss.append(rss_mib())

    config = build_config(
        game="lemonade", players=tuple(SEATS.values()), seeds=episodes // 2, concurrency=concurrency
    )
    started = time.perf_counter()
    result = await run_tournament(store, config, progress=watch)
    elapsed = time.perf_counter() - started
    assert result.status == "finished" and result.done == 2 * (episodes // 2), result
    store.close()
    return result.done / elapsed, rss


def throughput(episodes: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        base = asyncio.run(recorded_loop(Path(folder) / "plain.db", episodes))[0]
        print(f"plain play_match loop: {episodes} recorded episodes: {base:.0f} episodes/s")
        for concurrency in (1, 4):
            rate, rss = asyncio.run(tournament(Path(folder) / f"t{concurrency}.db", episodes, concurrency))
            memory = " ".join(f"{value:.1f}" for value in rss)
            print(
                f"tournament, concurrency {concurrency}: {rate:.0f} episodes/s ="
                f" {rate / base:.2f}x the plain loop; RSS MiB at each fifth: {memory}"
            )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak:.1f} MiB")


def models_file(folder: Path, url: str) -> Path:
    path = folder / "models.toml"
    lines = []
    for number in range(1, 5):
        lines.append(
            f'[models.m{number}]\nprovider = "openai-compat"\nmodel = "m{number}"\nbase_url = "{url}"\n'
            "max_concurrency = 8\ntimeout = 30\ncheck_model_listed = false\n"
        )
    path.write_text("\n".join(lines))
    return path


def model_tournament(delay: float, seeds: int) -> None:
    with served(delay) as url, tempfile.TemporaryDirectory() as folder:
        models = load_models_config(models_file(Path(folder), url))
        store = Store(Path(folder) / "models.db")
        config = build_config(
            game="lemonade",
            players=("m1", "m2", "m3", "m4"),
            seeds=seeds,
            options={"days": 5},
            concurrency=8,
        )
        started = time.perf_counter()
        result = asyncio.run(run_tournament(store, config, models_config=models))
        wall = time.perf_counter() - started
        decisions, reasked = store.conn.execute(
            "SELECT count(*), coalesce(sum(attempts != '[]'), 0) FROM turns"
        ).fetchone()
        store.close()
    assert result.status == "finished", result
    episodes = result.done
    critical = math.ceil(episodes / 8) * 5 * delay
    assert result.prepared_at is not None
    set_up = result.prepared_at - started
    play = wall - set_up
    print(
        f"4-model tournament: {episodes} episodes of 5 days, concurrency 8, server delay {delay:.3f}s:"
        f" wall {wall:.2f}s, critical path {critical:.2f}s, ratio {wall / critical:.3f}x"
    )
    print(
        f"  of which set-up (SDK import, one probe per model) {set_up:.2f}s; play {play:.2f}s ="
        f" {play / critical:.3f}x the critical path; {decisions} decisions, {reasked} re-asked"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--delay", type=float, default=0.2)
    parser.add_argument("--model-seeds", type=int, default=2)
    args = parser.parse_args()
    throughput(args.episodes)
    model_tournament(args.delay, args.model_seeds)


if __name__ == "__main__":
    main()
