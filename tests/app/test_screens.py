"""Golden screens: the home, match, human-form, replay (and its chart) and tournament screens as SVGs.

Each screen is captured with Textual's own ``export_screenshot`` at 80x24, 100x30 and 160x48 and
compared with ``tests/golden/screens/NAME.svg``. Regenerate them all with
``UPDATE_SCREENS=1 .venv/bin/pytest tests/app/test_screens.py``; on a mismatch the new
capture is written beside the golden one as ``NAME.new.svg`` for review. Seeds are
fixed and the few wall-clock figures (decision latencies, dates) are normalised.
"""

from __future__ import annotations

import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Input, RichLog, TabbedContent

from arena.app import create_app
from arena.app.app import ArenaApp
from arena.app.screens.match import MatchScreen
from arena.app.screens.replay import ReplayScreen
from arena.app.screens.tournament import TournamentScreen
from arena.app.screens.tournament_setup import TournamentSetupScreen
from arena.engine.match import MatchConfig
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import run_tournament
from tests.support.app_driving import WAIT_STEPS, bargain_form, record_episode, started, wait_until

SCREENS = Path(__file__).parents[1] / "golden" / "screens"
SIZES = ((80, 24), (100, 30), (160, 48))
UPDATE = os.environ.get("UPDATE_SCREENS") == "1"
MATCH_STEPS = 4
"""The match screen is captured paused after this many steps."""

Scene = Callable[[Any, ArenaApp, Path], Awaitable[None]]


def normalise(svg: str) -> str:
    """The capture without what the clock decides: latencies like ``0.01s`` and dates.

    Rich names the capture's styles ``terminal-N`` after a checksum of everything drawn,
    latencies included, so a decision that took 0.01 s instead of 0.00 s renamed every style
    of an otherwise identical capture (a failure seen under load): the name is fixed here,
    and what it was computed from is compared as drawn.
    """
    svg = re.sub(r"\d+\.\d\ds", "#.##s", svg)
    svg = re.sub(r"\bterminal-\d+", "terminal", svg)
    return re.sub(r"\d{4}-\d\d-\d\d[ T&#;0-9]{1,7}\d\d:\d\d(:\d\d)?", "YYYY-MM-DD hh:mm", svg)


def compare(name: str, svg: str) -> None:
    """Check ``svg`` against the golden file ``name``; write it (update) or its new version beside."""
    golden = SCREENS / f"{name}.svg"
    fresh = SCREENS / f"{name}.new.svg"
    if UPDATE:
        SCREENS.mkdir(parents=True, exist_ok=True)
        golden.write_text(svg, encoding="utf-8")
        fresh.unlink(missing_ok=True)
        return
    if golden.exists() and golden.read_text(encoding="utf-8") == svg:
        fresh.unlink(missing_ok=True)
        return
    fresh.write_text(svg, encoding="utf-8")
    what = "differs from" if golden.exists() else "has no"
    pytest.fail(
        f"screen {name} {what} its golden file; compare {fresh} with {golden}, and if the change is "
        "intended run: UPDATE_SCREENS=1 .venv/bin/pytest tests/app/test_screens.py",
        pytrace=False,
    )


async def home(pilot: Any, app: ArenaApp, db: Path) -> None:
    """The home screen as it opens: lemonade chosen, its rules, seats and options."""
    await wait_until(pilot, lambda: bool(app.screen.query("#seats Select")), "the seats")


async def match(pilot: Any, app: ArenaApp, db: Path) -> None:
    """Two baselines, paused after ``MATCH_STEPS`` days."""
    config = MatchConfig(
        game="lemonade",
        seats={"a": "baseline:weather", "b": "baseline:cost-plus"},
        seed=3,
        options={"days": 8},
    )
    live = app.start_match(config)
    live.control.pause()
    for _ in range(MATCH_STEPS):
        live.control.step()
    screen = app.screen
    assert isinstance(screen, MatchScreen)
    await wait_until(
        pilot, lambda: live.data.steps_done == MATCH_STEPS and live.control.paused, "the paused match"
    )
    await wait_until(pilot, lambda: screen._revision == live.data.revision, "the screen caught up")
    # auto-scrolling logs reach their newest line a refresh or two after the text lands
    await wait_until(
        pilot,
        lambda: all(log.scroll_y >= log.max_scroll_y for log in screen.query(RichLog)),
        "every log showing its newest line",
    )
    history = screen.query_one("#history", DataTable)
    await wait_until(pilot, lambda: history_at_its_end(history), "the history laid out and at its last row")


def history_at_its_end(table: DataTable[Any]) -> bool:
    """Every row of ``table`` laid out (it sizes new rows when idle), the cursor and the view at the last.

    The scroll bar must show that position too: it is moved separately from the view.
    """
    laid_out = table.virtual_size.height == table.header_height + table.row_count
    at_end = table.scroll_y == table.max_scroll_y
    bar = not table.show_vertical_scrollbar or table.vertical_scrollbar.position == table.scroll_y
    return laid_out and at_end and bar and table.cursor_row == table.row_count - 1


async def human_form(pilot: Any, app: ArenaApp, db: Path) -> None:
    """A person's bargain form, the seller's first move."""
    await bargain_form(pilot, app, "baseline:honest")


async def replay(pilot: Any, app: ArenaApp, db: Path) -> None:
    """A recorded lemonade episode, three steps in."""
    episode = await record_episode(db, days=6, seed=3)
    app.open_replay(episode)
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
    await pilot.press("right", "right", "right")


async def replay_chart(pilot: Any, app: ArenaApp, db: Path) -> None:
    """The same replay at its end, its chart tab open: both stands' cash over the six days."""
    await replay(pilot, app, db)
    await pilot.press("end", "t", "t", "t", "t")  # prompt -> raw, attempts, changes, chart
    chart = app.screen.query_one("#replay-chart")
    tabs = app.screen.query_one("#replay-detail", TabbedContent)
    await wait_until(
        pilot,
        lambda: tabs.active == "tab-chart" and len(getattr(chart, "series", {}).get("a", [])) == 7,
        "the whole chart shown",
    )


async def tournament_setup(pilot: Any, app: ArenaApp, db: Path) -> None:
    """The new-tournament screen from the home screen's line-up."""
    await home(pilot, app, db)
    await pilot.press("ctrl+r")
    await wait_until(pilot, lambda: isinstance(app.screen, TournamentSetupScreen), "the tournament set-up")


async def tournament(pilot: Any, app: ArenaApp, db: Path) -> None:
    """A finished two-baseline bargain tournament's tables."""
    store = Store(db)
    try:
        players = ("baseline:honest", "baseline:bluffing")
        progress = await run_tournament(store, build_config(game="bargain", players=players, seeds=2))
    finally:
        store.close()
    app.open_tournament(progress.tournament_id)
    await wait_until(pilot, lambda: isinstance(app.screen, TournamentScreen), "the tournament's tables")
    screen = app.screen
    await wait_until(pilot, lambda: board_rows(screen) == 2, "the leaderboard")


def board_rows(screen: Any) -> int:
    """Rows in the tournament screen's leaderboard (0 until it is built)."""
    boards = screen.query("#t-board")
    return boards.first(DataTable).row_count if boards else 0


SCENES: dict[str, Scene] = {
    "home": home,
    "match": match,
    "human_form": human_form,
    "replay": replay,
    "replay_chart": replay_chart,
    "tournament_setup": tournament_setup,
    "tournament": tournament,
}


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("scene", list(SCENES))
async def test_screen_matches_its_golden_file(scene: str, size: tuple[int, int], tmp_path: Path) -> None:
    db = tmp_path / "screens.db"
    app = create_app(db, load_models=False)
    async with started(app, size=size) as pilot:
        await SCENES[scene](pilot, app, db)
        svg = await settled_screenshot(pilot, app, f"{scene} {size[0]}x{size[1]}")
    compare(f"{scene}_{size[0]}x{size[1]}", svg)


async def settled_screenshot(pilot: Any, app: ArenaApp, title: str) -> str:
    """The screen once two captures in a row agree: a loaded machine may still be repainting.

    A scene waits for the state it shows; what follows that state (a scroll bar resized, a
    focus ring drawn) can take a few more refreshes under load, so waiting for a fixed pause
    was a race. So was a text cursor's blink (the human form at 100x30 differed in one cell
    with both cores busy): the cursor is held on.
    """
    previous = ""
    for field in app.screen.query(Input):
        field.cursor_blink = False  # a blinking cursor is on or off by the clock: keep it on
    for _ in range(WAIT_STEPS):
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        svg = normalise(app.export_screenshot(title=title))
        if svg == previous:
            return svg
        previous = svg
        await pilot.pause(0.05)
    return previous
