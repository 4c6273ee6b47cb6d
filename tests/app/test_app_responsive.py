"""A responsive app: tables off the event loop, episodes giving way to keys, a replay that redraws little.

The tables are computed in a worker thread; these tests give the app table functions that
wait for the test's word (a threading.Event) to keep a computation in flight for as long
as they need, so what they assert is an order of events (keys answered, episodes played
while the tables wait), never a time.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import textual.screen
from rich.text import Text
from textual import events
from textual.widgets import Static

from arena.app import create_app
from arena.app.app import ArenaApp
from arena.app.replay_data import ReplayData
from arena.app.safe import prerender
from arena.app.screens.home import HomeScreen
from arena.app.screens.leaderboard import LeaderboardScreen
from arena.app.screens.modals import TextScreen
from arena.app.screens.replay import ReplayScreen, turn_summary
from arena.app.screens.tournament import TournamentScreen
from arena.app.table_worker import RenderedBoard, TableWorker, rendered_board, rendered_leaderboard
from arena.app.tournament_board import FULL_RESAMPLES
from arena.app.widgets.steady_footer import SteadyFooter
from arena.display.tables import render_table
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import run_tournament
from arena.tournament.standings import tournament_table
from tests.support.app_driving import record_episode, render_plain, wait_until
from tests.support.held import Held

PLAYERS = ("baseline:honest", "baseline:bluffing", "baseline:pushover")


async def toggle_help(pilot: Any, app: ArenaApp) -> None:
    """Open the help box and close it again, each time waiting until the screen changed."""
    await pilot.press("f1")
    await wait_until(pilot, lambda: isinstance(app.screen, TextScreen), "the help box")
    await pilot.press("escape")
    await wait_until(pilot, lambda: not isinstance(app.screen, TextScreen), "the help box closed")


async def test_keys_are_answered_and_episodes_play_while_the_tables_are_in_flight(app_db: Path) -> None:
    config = build_config(game="bargain", players=PLAYERS, seeds=60, seed=1, concurrency=2)
    board = Held(rendered_board)
    app = create_app(app_db, load_models=False, tables=TableWorker(board=board))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
        job = app.start_tournament(config)
        screen = app.screen
        assert isinstance(screen, TournamentScreen)
        with board.holding():
            # the first request has begun and cannot be answered until the test lets it go
            await wait_until(pilot, lambda: board.started == 1, "a table computation begun")
            done_before = job.progress.done
            await toggle_help(pilot, app)
            await toggle_help(pilot, app)
            assert app.input_priority.held > 0, "the episodes waited while the keys were answered"
            await wait_until(pilot, lambda: job.progress.done > done_before + 5, "episodes played meanwhile")
            assert screen.policy.in_flight and screen.board is None, "the table still waits"
            assert board.started == 1 and board.finished == 0, "never two computations at once"
        await wait_until(pilot, lambda: not screen.policy.in_flight, "the held request answered")
        # Its seconds were this test's hold, not a computation: the policy would wait four
        # times that before the next request (on a busy machine longer than a test waits).
        screen.policy.last_seconds = 0.0
        await wait_until(pilot, lambda: not job.running, "the tournament to end")
        await wait_until(
            pilot,
            lambda: screen.board is not None and screen.board.resamples == FULL_RESAMPLES,
            "the final tables",
        )
        shown = screen.board
        assert shown is not None and shown.counted == job.progress.total == 6 * 60
        tables = screen.query_one("#t-tables", Static).content
        width = max(60, app.size.width - 6)
    store = Store(app_db)
    try:
        headless = tournament_table(store, job.tournament_id, resamples=FULL_RESAMPLES)
    finally:
        store.close()
    assert shown.table == headless, "the table shown at the end is the one the CLI computes"
    shown_as = prerender(render_table(headless), app.console, width, fit=True)
    assert tables == shown_as, "rendered as the app would"


async def test_a_leaderboard_in_flight_leaves_its_screen_answering(app_db: Path) -> None:
    store = Store(app_db)
    try:
        progress = await run_tournament(store, build_config(game="bargain", players=PLAYERS[:2], seeds=2))
    finally:
        store.close()
    leaderboard = Held(rendered_leaderboard)
    app = create_app(app_db, load_models=False, tables=TableWorker(leaderboard=leaderboard))
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_tournament(progress.tournament_id)
        await wait_until(pilot, lambda: isinstance(app.screen, TournamentScreen), "the tournament")
        first = app.screen
        assert isinstance(first, TournamentScreen)
        await wait_until(pilot, lambda: first.board is not None, "its tables")
        with leaderboard.holding():
            app.push_screen(LeaderboardScreen([progress.tournament_id]))
            await wait_until(pilot, lambda: isinstance(app.screen, LeaderboardScreen), "the leaderboard")
            board = app.screen
            assert isinstance(board, LeaderboardScreen)
            await wait_until(pilot, lambda: leaderboard.started == 1, "the leaderboard's computation begun")
            await toggle_help(pilot, app)
            assert board.board is None and "computing" in render_plain(
                board.query_one("#lb-head", Static).content
            )
        await wait_until(pilot, lambda: board.board is not None, "the leaderboard once it is let go")
        assert board.error == ""


async def test_a_footer_is_rebuilt_only_when_its_keys_change(app_db: Path) -> None:
    config = build_config(game="bargain", players=PLAYERS[:2], seeds=3, seed=2)
    app = create_app(app_db, load_models=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
        home = app.screen
        assert isinstance(home, HomeScreen)
        home_footer = home.query_one(SteadyFooter)
        await wait_until(
            pilot,
            lambda: home.definition is not None and home_footer.composed_keys == home_footer.shown_keys(),
            "the home screen's game and keys",
        )
        await pilot.pause()  # a rebuild asked for while it was being built runs after the next refresh
        built = home_footer.recomposed
        await toggle_help(pilot, app)
        assert home_footer.recomposed == built, "the help box over the home screen left its footer alone"
        job = app.start_tournament(config)
        screen = app.screen
        await wait_until(pilot, lambda: bool(screen.query(SteadyFooter)), "the tournament screen")
        footer = screen.query_one(SteadyFooter)

        def descriptions() -> list[str]:
            return [str(key[2]) for key in footer.shown_keys()[:-1]]

        assert isinstance(screen, TournamentScreen)
        await wait_until(pilot, lambda: not job.running, "the tournament to end")
        await wait_until(
            pilot,
            lambda: screen.board is not None and screen.board.resamples == FULL_RESAMPLES,
            "the final tables (the stored status read by then)",
        )
        await wait_until(pilot, lambda: "Stop" not in descriptions(), "no stop key once it has ended")
        await wait_until(
            pilot, lambda: footer.composed_keys == footer.shown_keys(), "the footer showing that"
        )
        await pilot.pause()
        after = footer.recomposed
        await toggle_help(pilot, app)
        await toggle_help(pilot, app)
        assert footer.recomposed == after, "opening and closing help rebuilt nothing"
        assert footer.composed_keys == footer.shown_keys()


async def test_the_replay_shows_the_right_step_after_many_steps(app_db: Path) -> None:
    episode = await record_episode(app_db, days=130, seed=5)
    app = create_app(app_db, load_models=False)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_replay(episode)
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        keys = ["right"] * 70 + ["left"] * 23 + ["pagedown"] * 3 + ["left"] * 9 + ["pageup"]
        for key in keys:
            await pilot.press(key)
        await wait_until(pilot, lambda: screen.data.position == 58, "step 58 (70 - 23 + 30 - 9 - 10)")
        await pilot.pause()
        store = Store(app_db)
        try:
            fresh = ReplayData.load(store, episode)
        finally:
            store.close()
        fresh.go(58)
        box = screen.query_one("#replay-board-box")
        expected_board = prerender(fresh.render(), app.console, box.scrollable_content_region.width)
        assert screen.query_one("#replay-board", Static).content == expected_board
        head = render_plain(screen.query_one("#replay-head", Static).content)
        assert head.startswith(f"after step 58/{fresh.total}")
        expected_turns = Text("\n").join(turn_summary(turn) for turn in fresh.current_turns())
        assert screen.query_one("#replay-turns", Static).content == expected_turns
        assert screen.texts.skipped >= len(keys), "texts a step leaves alone were not redrawn"


async def test_a_step_is_painted_at_once_not_at_the_next_frame(
    app_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Textual's frame timer made an hour long: only a paint that does not wait for it is seen.
    monkeypatch.setattr(textual.screen, "UPDATE_PERIOD", 3600.0)
    episode = await record_episode(app_db, days=20, seed=3)
    app = create_app(app_db, load_models=False)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_replay(episode)
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await wait_until(pilot, lambda: screen.boards != {}, "the first step drawn")
        painted: list[int] = []
        display = app._display

        def recorded(shown: Any, update: Any) -> None:
            if update is not None:
                painted.append(screen.data.position)
            display(shown, update)

        monkeypatch.setattr(app, "_display", recorded)
        for step in (1, 2, 3):
            app.post_message(events.Key("right", None))
            for _ in range(5000):  # turns of the loop, not a time
                if step in painted:
                    break
                await asyncio.sleep(0)
            assert step in painted, f"step {step} painted without the frame timer"


async def test_the_next_board_is_drawn_ahead_and_a_board_shown_before_is_kept(app_db: Path) -> None:
    episode = await record_episode(app_db, days=20, seed=4)
    app = create_app(app_db, load_models=False)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_replay(episode)
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await wait_until(pilot, lambda: screen.boards != {}, "the first step drawn")
        board = screen.query_one("#replay-board", Static)
        width = screen.query_one("#replay-board-box").scrollable_content_region.width
        await wait_until(pilot, lambda: (1, None, width) in screen.boards, "step 1's board drawn ahead")
        ahead = screen.boards[(1, None, width)]
        first = board.content
        await pilot.press("right")
        await wait_until(pilot, lambda: screen.data.position == 1, "step 1")
        assert board.content is ahead, "the board drawn ahead is the one shown"
        await wait_until(pilot, lambda: (2, None, width) in screen.boards, "step 2's board drawn ahead")
        await pilot.press("left")
        await wait_until(pilot, lambda: screen.data.position == 0, "back at the start")
        assert board.content is first, "the board shown before is not rendered again"
        store = Store(app_db)
        try:
            fresh = ReplayData.load(store, episode)
        finally:
            store.close()
        for step in (1, 2):
            fresh.go(step)
            assert screen.boards[(step, None, width)] == prerender(fresh.render(), app.console, width)


async def test_a_screen_back_on_top_is_painted_at_once_not_at_the_next_frame(
    app_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Textual's frame timer made an hour long: only a paint that does not wait for it is seen.
    monkeypatch.setattr(textual.screen, "UPDATE_PERIOD", 3600.0)
    app = create_app(app_db, load_models=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
        home = app.screen
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, TextScreen), "the help box")
        painted: list[object] = []
        display = app._display

        def recorded(shown: Any, update: Any) -> None:
            if update is not None:
                painted.append(shown)
            display(shown, update)

        monkeypatch.setattr(app, "_display", recorded)
        app.post_message(events.Key("escape", None))
        for _ in range(5000):  # turns of the loop, not a time
            if home in painted:
                break
            await asyncio.sleep(0)
        assert app.screen is home and home in painted, "the home screen painted once the box closed"


async def test_a_tab_filled_while_hidden_is_laid_out_when_shown_not_before(app_db: Path) -> None:
    store = Store(app_db)
    try:
        progress = await run_tournament(store, build_config(game="bargain", players=PLAYERS, seeds=2))
    finally:
        store.close()
    app = create_app(app_db, load_models=False)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_tournament(progress.tournament_id)
        await wait_until(pilot, lambda: isinstance(app.screen, TournamentScreen), "the tournament")
        screen = app.screen
        assert isinstance(screen, TournamentScreen)
        await wait_until(pilot, lambda: screen.board is not None, "its tables")
        await pilot.pause()
        tables = screen.query_one("#t-tables", Static)
        assert screen.board is not None
        taller = Text("\n".join(f"line {n}" for n in range(60)))
        screen.show_board(RenderedBoard(screen.board, taller))
        assert tables.content is taller
        assert not tables._layout_required, "a hidden tab's new text asks for no layout of the screen shown"
        for _ in range(3):
            await pilot.press("t")
        tabs = screen.query_one("#t-tabs")
        await wait_until(pilot, lambda: getattr(tabs, "active", "") == "tab-tables", "the all-tables tab")
        await wait_until(pilot, lambda: tables.size.height == 60, "laid out as tall as its text once shown")


async def test_the_first_games_set_up_is_painted_once_built_not_at_the_next_frame(
    app_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Textual's frame timer made an hour long: only a paint that does not wait for it is seen.
    monkeypatch.setattr(textual.screen, "UPDATE_PERIOD", 3600.0)
    app = create_app(app_db, load_models=False)
    painted: list[bool] = []
    display = app._display

    def recorded(shown: Any, update: Any) -> None:
        if update is not None:
            painted.append(isinstance(shown, HomeScreen) and bool(shown.query("#seats Select")))
        display(shown, update)

    monkeypatch.setattr(app, "_display", recorded)
    async with app.run_test(size=(120, 40)):
        home = app.screen
        for _ in range(100000):  # turns of the loop, not a time
            if isinstance(home, HomeScreen) and home.query("#seats Select"):
                break
            await asyncio.sleep(0)
        assert home.query("#seats Select"), "the set-up built"
        for _ in range(5000):
            if any(painted):
                break
            await asyncio.sleep(0)
        assert any(painted), "the seats painted once the set-up was built"
