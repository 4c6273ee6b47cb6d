"""How long ``arena tournament report`` takes for a 2,000-episode tournament with all its charts.

Builds (or reuses, ``--db``) a database holding a baseline tournament of ``--episodes`` episodes
per game (both seatings of ``--episodes / 2`` deal seeds), then, per game, times in this process:

- the report without charts (report.json and report.md, as before charts existed);
- the chart data and specifications (the game's ``score_series`` replays every counted episode);
- rendering them to SVG and PNG with vl-convert (the first render of a process warms its engine);
- the whole ``write_report`` with charts, files and report.html included.

Prints figures; asserts nothing. Usage: ``.venv/bin/python bench/report_charts.py [--episodes 2000]
[--games bargain,lemonade] [--db PATH]``.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.plugins.games import get_game
from arena.store.database import Store
from arena.tournament.charts import render, report_charts
from arena.tournament.config import build_config
from arena.tournament.report import build_report, write_report
from arena.tournament.run import run_tournament

PLAYERS = {
    "bargain": ("baseline:honest", "baseline:bluffing"),
    "lemonade": ("baseline:weather", "baseline:cost-plus"),
    "paperclip": ("baseline:oracle", "baseline:sloppy"),
    "cattle": ("baseline:tracker", "baseline:set-racer"),
}


def timed(work: Callable[[], Any]) -> tuple[float, float, Any]:
    """(wall seconds, CPU seconds, result) of ``work()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def tournament(store: Store, game: str, episodes: int) -> int:
    """The id of a finished ``game`` tournament of ``episodes`` episodes in ``store`` (played if missing)."""
    name = f"bench-charts-{game}-{episodes}"
    for row in store.list_tournaments(limit=1000):
        if row.get("name") == name and row.get("status") == "finished":
            return int(row["id"])
    config = build_config(game=game, players=PLAYERS[game], seeds=max(1, episodes // 2), name=name)
    seconds, _, progress = timed(lambda: asyncio.run(run_tournament(store, config)))
    print(f"{game}: played {episodes} episodes in {seconds:.1f} s")
    return int(progress.tournament_id)


def measure(store: Store, game: str, tournament_id: int, folder: Path, episodes: int) -> None:
    """Time the report of one tournament without and with its charts, and print the figures."""
    plain = timed(lambda: write_report(store, tournament_id, folder / f"{game}-plain", charts=False))
    report = build_report(store, tournament_id)
    specs = timed(lambda: report_charts(report, store, tournament_id, get_game(game)))
    drawn = timed(lambda: render(specs[2]))
    whole = timed(lambda: write_report(store, tournament_id, folder / game))
    size = sum(p.stat().st_size for p in whole[2])
    print(
        f"{game} ({episodes} episodes, {len(specs[2])} charts):"
        f" report without charts {plain[0]:.2f} s ({plain[1]:.2f} s CPU);"
        f" chart data and specs {specs[0]:.2f} s; rendering SVG+PNG {drawn[0]:.2f} s;"
        f" whole report with charts {whole[0]:.2f} s ({whole[1]:.2f} s CPU), {size / 1e6:.1f} MB written"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--games", default="bargain,lemonade")
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="arena-report-charts-"))
    store = Store(args.db or folder / "bench.db")
    try:
        for game in args.games.split(","):
            measure(store, game, tournament(store, game, args.episodes), folder, args.episodes)
    finally:
        store.close()


if __name__ == "__main__":
    main()
