"""How long replay takes to draw a step whose reply is huge, stored whole against stored cut.

A model once replied 2.76 MB; stored whole, its replay step took 9.6 s to draw. Replies above
``MAX_REPLY_CHARS`` are now stored cut (:func:`arena.contract.player.cut_reply`). This stores one
3-day lemonade episode three times, its first reply set to the same 2.76 MB text whole, cut,
and to a usual 200-character reply for scale; opens each in the app (headless), shows the
raw-reply tab and times the key that steps onto that turn until the app is idle again.
Prints figures; asserts nothing.

Usage: ``.venv/bin/python bench/big_reply_replay.py [--runs 3]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from arena.app import create_app
from arena.app.screens.replay import ReplayScreen
from arena.contract.player import cut_reply
from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store

HUGE = "I will think out loud. " * 120_000 + json.dumps({"price": 3.0, "produce": 20, "promotion": "none"})


async def stored(db: Path, raw: str) -> None:
    store = Store(db)
    try:
        seats = {"a": "baseline:weather", "b": "baseline:cost-plus"}
        await play_match(MatchConfig(game="lemonade", seats=seats, seed=1, options={"days": 3}), store)
        store.conn.execute("UPDATE turns SET raw = ? WHERE episode_id = 1 AND idx = 0", (raw,))
    finally:
        store.close()


async def step_seconds(db: Path) -> float:
    """Seconds from the key that steps onto the huge reply (raw tab shown) to the app idle."""
    app = create_app(db, replay=1, load_models=False)
    async with app.run_test(size=(120, 40)) as pilot:
        while not isinstance(app.screen, ReplayScreen):
            await pilot.pause(0.05)
        await pilot.press("t")  # prompt -> raw reply tab
        await pilot.pause()
        started = time.perf_counter()
        await pilot.press("right")
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        return time.perf_counter() - started


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="big-reply-"))
    for name, raw in (("whole", HUGE), ("cut", cut_reply(HUGE)), ("usual", HUGE[-200:])):
        db = folder / f"{name}.db"
        await stored(db, raw)
        size = sum(p.stat().st_size for p in folder.glob(f"{name}.db*"))
        runs = [await step_seconds(db) for _ in range(args.runs)]
        each = ", ".join(f"{r:.2f}" for r in runs)
        print(
            f"{name}: reply {len(raw):,} characters, database {size / 1e6:.2f} MB,"
            f" step drawn in median {statistics.median(runs):.2f} s (runs: {each})"
        )


if __name__ == "__main__":
    asyncio.run(main())
