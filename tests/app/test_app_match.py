"""Playing matches through the app with Pilot: baselines, a person at the form, hostile text."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.widgets import DataTable, Input, RichLog, Select, Static

from arena.app import create_app
from arena.app.app import ArenaApp
from arena.app.match_data import ReasonLine
from arena.app.screens.home import HomeScreen
from arena.app.screens.match import MatchScreen
from arena.app.screens.modals import ConfirmScreen
from arena.app.widgets.human_form import HumanForm
from arena.app.widgets.panels import ResultsTable, SeatPane, reason_entry
from arena.contract.player import Decision, DecisionRequest, Player
from arena.contract.usage import NO_USAGE
from arena.store.database import Store
from tests.support.app_driving import next_form, render_plain, started, wait_until
from tests.support.episodes import stored_turns

HOSTILE_REASON = "[@click=app.quit]x[/] \x1b[2J"


class HostileStand(Player):
    """A scripted lemonade stand whose reason and reply try markup and escape sequences."""

    kind = "model"

    def __init__(self) -> None:
        self.spec = "test:hostile"

    async def decide(self, request: DecisionRequest) -> Decision:
        cups = min(5, int(request.observation.model_dump()["max_affordable_cups"]))
        action = {"price": 3.0, "produce": cups, "promotion": "none"}
        return Decision(action=action, reason=HOSTILE_REASON, raw=f"{HOSTILE_REASON} \x1b]8;;http://x\x1b\\")


async def set_days(pilot: Any, app: ArenaApp, days: int) -> None:
    """Type ``days`` into the days option of the home screen."""
    days_input = app.screen.query_one("#opt-0", Input)
    days_input.focus()
    await pilot.pause()
    await pilot.press("end", *["backspace"] * len(days_input.value), *str(days))
    assert days_input.value == str(days)


async def choose_player(pilot: Any, app: ArenaApp, seat_index: int, typed: str, spec: str) -> None:
    """Pick ``spec`` for a seat with the keyboard (type to search in the list)."""
    select = app.screen.query_one(f"#seat-select-{seat_index}", Select)
    select.focus()
    await pilot.press("enter")
    await pilot.press(*typed)
    await pilot.press("enter")
    await wait_until(pilot, lambda: select.value == spec, f"seat {seat_index} set to {spec}")


def log_text(log: RichLog) -> str:
    """Everything a RichLog shows, as one string."""
    return "".join(strip.text for strip in log.lines)


async def test_baseline_match_runs_to_the_end_and_is_saved(app_db: Path) -> None:
    app = create_app(app_db, step_delay=0.0, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
        await set_days(pilot, app, 8)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, MatchScreen), "the match screen")
        match = app.matches.matches[0]
        await wait_until(pilot, lambda: match.data.over, "the match to end")
        results = app.screen.query_one(ResultsTable)
        await wait_until(pilot, lambda: bool(results.display) and results.row_count > 3, "the results table")
        history = app.screen.query_one("#history", DataTable)
        await wait_until(pilot, lambda: history.row_count == 16, "the whole history")
        assert results.get_row_at(0)[0].plain == "score"
    store = Store(app_db)
    episode = store.list_episodes()[0]
    assert episode["status"] == "finished" and episode["turns"] == 16
    assert all(seat["score"] is not None for seat in store.seats(episode["id"]))
    store.close()


async def test_leaving_the_screen_keeps_the_match_running(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await set_days(pilot, app, 2)
        await choose_player(pilot, app, 1, "human", "human")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: bool(app.screen.query(HumanForm)), "the form")
        await pilot.press("4", "escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "back home")
        match = app.matches.matches[0]
        assert match.running and match.desk.active() is not None
        await pilot.press("ctrl+t")
        await wait_until(pilot, lambda: bool(app.screen.query(HumanForm)), "the form again")
        form = app.screen.query_one(HumanForm)
        assert form.query_one("#field-0", Input).value == "4"
        await pilot.press("tab", "5", "enter")
        await wait_until(pilot, lambda: match.data.steps_done == 1, "day 1")
        await next_form(pilot, app, 1)
        await pilot.press("enter")
        await wait_until(pilot, lambda: match.data.over, "the match to end")
        await wait_until(pilot, lambda: not app.screen.query(HumanForm), "the form closes with the match")
    store = Store(app_db)
    episode = store.list_episodes()[0]
    assert episode["status"] == "finished" and episode["turns"] == 4
    store.close()


async def test_a_person_plays_through_the_form(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await set_days(pilot, app, 5)
        await choose_player(pilot, app, 0, "human", "human")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: bool(app.screen.query(HumanForm)), "the form")
        form = app.screen.query_one(HumanForm)
        assert app.focused is form.query_one("#field-0")
        await pilot.press("3", "tab", "9", "0", "0", "enter")
        note = form.query_one("#err-1", Static)
        # the morning's limit (what the cash pays for on the deal's first morning) is in the moment's
        # action model, so the form names it at the field, before the game's own check
        assert re.fullmatch(r"produce must be at most \d+, not 900\n?", render_plain(note.content))
        whole_form = render_plain(form.query_one("#form-error", Static).content).strip()
        assert whole_form == "please correct the marked fields"
        assert app.focused is form.query_one("#field-1")
        assert form.query_one("#field-0", Input).value == "3"
        await pilot.press("1", "0", "enter")
        match = app.matches.matches[0]

        def played(days: int) -> Callable[[], bool]:
            return lambda: match.data.steps_done == days

        await wait_until(pilot, played(1), "day 1 to be played")
        for day in (2, 3):
            await next_form(pilot, app, day - 1)
            assert app.screen.query_one(HumanForm).query_one("#field-1", Input).value == "10"
            await pilot.press("enter")
            await wait_until(pilot, played(day), f"day {day}")
        screen = app.screen
        history = screen.query_one("#history", DataTable)
        await wait_until(pilot, lambda: history.row_count == 3, "three rows of my own")
        assert {history.get_row_at(i)[1].plain for i in range(3)} == {"a"}
        board = render_plain(screen.query_one("#board", Static).content)
        assert "what seat a sees" in board and "b:price" not in board
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the quit question")
        await pilot.press("y")
    store = Store(app_db)
    episode = store.list_episodes()[0]
    assert episode["status"] == "aborted"
    turns = stored_turns(store, episode["id"])
    mine = [t for t in turns if t["seat"] == "a"]
    assert [t["action"]["produce"] for t in mine] == [10, 10, 10]
    assert '"produce": "10"' in mine[0]["raw"]
    store.close()


async def test_hostile_reason_is_shown_literally(app_db: Path) -> None:
    app = create_app(
        app_db, step_delay=0.0, load_models=False, extra_players={"test:hostile": lambda seat: HostileStand()}
    )
    async with started(app, size=(120, 40)) as pilot:
        await set_days(pilot, app, 3)
        await choose_player(pilot, app, 0, "test", "test:hostile")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, MatchScreen), "the match screen")
        match = app.matches.matches[0]
        await wait_until(pilot, lambda: match.data.over, "the match to end")
        pane = app.screen.query_one(SeatPane)
        log = pane.query_one(RichLog)
        await wait_until(pilot, lambda: "[@click=app.quit]x[/]" in log_text(log), "the literal reason")
        assert "^[[2J" in log_text(log)
        history = app.screen.query_one("#history", DataTable)
        reason_cell = history.get_row_at(0)[3]
        assert isinstance(reason_cell, Text) and reason_cell.plain.startswith("[@click=app.quit]x[/] ^[[2J")
        await pilot.click(log)
        await pilot.click(history, offset=(50, 2))
        await pilot.pause()
        assert app.is_running and app.return_code is None
    store = Store(app_db)
    turn = stored_turns(store, store.list_episodes()[0]["id"])[0]
    assert turn["reason"] == HOSTILE_REASON
    store.close()


async def test_two_people_share_the_keyboard(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await set_days(pilot, app, 1)
        await choose_player(pilot, app, 0, "human", "human")
        await choose_player(pilot, app, 1, "human", "human")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: bool(app.screen.query(HumanForm)), "seat a's form")
        board = app.screen.query_one("#board", Static)
        assert app.screen.query_one(HumanForm).turn.seat == "a"
        assert "what seat a sees" in render_plain(board.content)
        await pilot.press("3", "tab", "5", "enter")

        def form_for(seat: str) -> bool:
            forms = app.screen.query(HumanForm)
            return bool(forms) and forms.first().turn.seat == seat

        await wait_until(pilot, lambda: form_for("b"), "seat b's form")
        await wait_until(pilot, lambda: "what seat b sees" in render_plain(board.content), "b's view")
        assert "a price" not in render_plain(board.content)
        await pilot.press("2", "tab", "4", "enter")
        match = app.matches.matches[0]
        await wait_until(pilot, lambda: match.data.over, "the one-day match to end")
        await wait_until(
            pilot, lambda: "full view" in render_plain(board.content), "the full view at the end"
        )


def test_a_seats_pane_entry_shows_its_thinking_under_its_reason() -> None:
    line = ReasonLine(
        2, "wait and see", "price $3.00, 0 cups", "", NO_USAGE, 0.0, thinking="Too cold: no cups."
    )
    shown = reason_entry(line).plain
    assert shown.index("wait and see") < shown.index("thinking: Too cold: no cups.")
    assert "thinking" not in reason_entry(ReasonLine(2, "wait", "x", "", NO_USAGE, 0.0)).plain
