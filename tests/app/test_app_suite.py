"""Suites from the home screen with Pilot: results table, storage, no human seats, stopping."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Input, ProgressBar, Static

from arena.app import create_app
from arena.app.app import ArenaApp
from arena.app.screens.home import HomeScreen
from arena.app.screens.modals import ConfirmScreen
from arena.app.screens.suite import SuiteScreen
from arena.store import Store
from tests.app.helpers import choose_seat, pick_game, render_plain, wait_until


async def set_deals(pilot: Any, app: ArenaApp, deals: int) -> None:
    """Type the number of deals next to the suite button."""
    box = app.screen.query_one("#suite-n", Input)
    box.focus()
    await pilot.pause()
    await pilot.press("end", *["backspace"] * len(box.value), *str(deals))
    assert box.value == str(deals)


async def start_suite(pilot: Any, app: ArenaApp, seller: str, buyer: str, deals: int) -> SuiteScreen:
    """Set up a bargain suite on the home screen and run it with ctrl+r."""
    await pick_game(pilot, app, "bargain")
    await choose_seat(pilot, app, 0, seller)
    await choose_seat(pilot, app, 1, buyer)
    await set_deals(pilot, app, deals)
    await pilot.press("ctrl+r")
    await wait_until(pilot, lambda: isinstance(app.screen, SuiteScreen), "the suite screen")
    screen = app.screen
    assert isinstance(screen, SuiteScreen)
    return screen


def tournament_status(db: Path, tournament_id: int) -> str:
    """The stored status of a tournament row."""
    store = Store(db)
    try:
        row = store.conn.execute("SELECT status FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    finally:
        store.close()
    return str(row[0])


async def test_a_bargain_suite_runs_from_the_home_screen(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_suite(pilot, app, "baseline:honest", "baseline:pushover", 5)
        job = screen.job
        await wait_until(pilot, lambda: not job.running, "the suite to end")
        results = screen.query_one("#suite-results", Static)
        await wait_until(pilot, lambda: "leaks" in render_plain(results.content), "the results table")
        text = render_plain(results.content)
        assert "closed" in text and "leaks" in text and "bluffs" in text
        assert "baseline:honest" in text and "baseline:pushover" in text
        assert "seller" in text and "buyer" in text, "a row per player and per seat"
        assert job.status == "finished" and job.tournament_id is not None
        assert f"as tournament {job.tournament_id}" in text
        bar = screen.query_one(ProgressBar)
        assert (bar.progress, bar.total) == (10, 10)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "home")
    store = Store(app_db)
    episodes = store.list_episodes(limit=100)
    held = [(seat["seat"], seat["player"]) for episode in episodes for seat in store.seats(episode["id"])]
    store.close()
    assert len(episodes) == 10
    assert {episode["tournament_id"] for episode in episodes} == {job.tournament_id}
    assert {episode["status"] for episode in episodes} == {"finished"}
    assert held.count(("seller", "baseline:honest")) == 5 and held.count(("buyer", "baseline:honest")) == 5
    assert tournament_status(app_db, job.tournament_id) == "finished"


async def test_a_suite_cannot_have_a_human_seat(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pick_game(pilot, app, "bargain")
        await choose_seat(pilot, app, 0, "human")
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen) and not app.suites.jobs
        note = render_plain(app.screen.query_one("#seat-error-0", Static).content)
        assert "seat seller cannot be human" in note
        await set_deals(pilot, app, 0)
        await choose_seat(pilot, app, 0, "baseline:honest")
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert "deals must be from 1" in render_plain(app.screen.query_one("#start-error", Static).content)
        assert not app.suites.jobs
    store = Store(app_db)
    assert store.list_episodes() == []
    store.close()


async def test_stopping_a_suite_keeps_what_was_played(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_suite(pilot, app, "baseline:honest", "baseline:bluffing", 5000)
        job = screen.job
        await wait_until(pilot, lambda: job.done >= 4, "a few episodes")
        await pilot.press("s")
        await wait_until(pilot, lambda: not job.running, "the suite to stop")
        assert job.status == "aborted" and 4 <= job.done < job.total
        status = screen.query_one("#suite-status", Static)
        await wait_until(pilot, lambda: "aborted" in render_plain(status.content), "the status line")
        assert f"tournament {job.tournament_id}" in render_plain(status.content)
        assert job.tournament_id is not None
    assert tournament_status(app_db, job.tournament_id) == "aborted"


async def test_quitting_asks_while_a_suite_runs(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_suite(pilot, app, "baseline:honest", "baseline:bluffing", 5000)
        job = screen.job
        await wait_until(pilot, lambda: job.done >= 2, "a couple of episodes")
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the quit question")
        await pilot.press("y")
        # The app exits as soon as the suite has stopped: wait on the job, not on the screen.
        await job.wait()
    assert not job.running
    assert job.tournament_id is not None
    assert tournament_status(app_db, job.tournament_id) == "aborted"
