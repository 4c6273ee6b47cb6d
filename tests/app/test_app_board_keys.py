"""While a person's form is open the board keeps its newest part in view and is reachable by keys."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from arena.app import create_app
from arena.app.screens.match import BoardScroll
from arena.app.widgets.human_form import HumanForm
from tests.support.app_driving import (
    choose_seat,
    mounted_form,
    next_form,
    pick_game,
    screen_text,
    started,
    wait_until,
)


async def _play_days(pilot: object, app: object, days: int) -> HumanForm:
    """Give seat a to a person and make the same small decision for ``days`` days."""
    form: HumanForm = await mounted_form(pilot, app)  # type: ignore[arg-type]
    for day in range(days):
        names = [spec.name for spec in form.form.fields]
        form.query_one(f"#field-{names.index('price')}", Input).value = "2"
        form.query_one(f"#field-{names.index('produce')}", Input).value = "10"
        form.action_submit()
        form = await next_form(pilot, app, day + 1)  # type: ignore[arg-type]
    return form


async def test_at_100x30_day_8_shows_yesterday_and_today_and_tab_reaches_the_board(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(100, 30)) as pilot:
        await pick_game(pilot, app, "lemonade")
        await choose_seat(pilot, app, 0, "human")
        await choose_seat(pilot, app, 1, "baseline:weather")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: bool(app.screen.query(HumanForm)), "the stand's form")
        form = await _play_days(pilot, app, 7)
        board = app.screen.query_one(BoardScroll)

        def shows(*parts: str) -> bool:
            text = screen_text(app)
            return all(part in text for part in parts)

        await wait_until(
            pilot, lambda: shows("Day 8/30", "a day 7: sold 10 of 10", "a cash"), "day 8 in view"
        )
        assert board.max_scroll_y > 0, "the board is taller than its box here: the end was scrolled to"
        # The new form puts the cursor on its first field once mounted; count the tabs from there.
        await wait_until(pilot, lambda: app.focused is form._stops()[0], "the first field has the cursor")
        stops = len(form._stops())
        await pilot.press(*["tab"] * (stops - 1))
        await wait_until(pilot, lambda: app.focused is board, "tab past the submit button reaches the board")
        await pilot.press("home")
        await wait_until(pilot, lambda: board.scroll_y == 0, "the board scrolls from the keyboard")
        assert shows("a sold/made", "a demand")
        await pilot.press("tab")
        await wait_until(pilot, lambda: app.focused is form._stops()[0], "tab goes back to the first field")


async def test_the_second_paperclip_puzzle_shows_its_operations(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(160, 48)) as pilot:
        await pick_game(pilot, app, "paperclip")
        await choose_seat(pilot, app, 0, "human")
        await choose_seat(pilot, app, 1, "baseline:oracle")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: bool(app.screen.query(HumanForm)), "the first form")
        app.screen.query_one(HumanForm).action_submit()  # a blank answer is refused: answer something
        form = app.screen.query_one(HumanForm)
        for index, spec in enumerate(form.form.fields):
            if spec.name.startswith("step_"):
                form.query_one(f"#field-{index}", Input).value = "A: empty"
            elif spec.name in ("total", "colour_count"):
                form.query_one(f"#field-{index}", Input).value = "0"
        form.action_submit()
        second = await next_form(pilot, app, 1)
        operations = second.turn.request.observation.model_dump()["operations"]
        await wait_until(
            pilot, lambda: operations[-1] in screen_text(app), "the puzzle's last operation in view"
        )
