"""The human's form with Pilot: focus, tab order under fast typing, preselected choices, errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Input, Static

from arena.app import create_app
from arena.app.screens.modals import ConfirmScreen
from arena.app.widgets.human_form import HumanForm
from arena.store.database import Store
from tests.support.app_driving import (
    bargain_form,
    burst,
    choose_seat,
    next_form,
    pick_game,
    render_plain,
    screen_text,
    started,
    wait_until,
)
from tests.support.episodes import stored_turns


def field(form: HumanForm, index: int) -> Any:
    """The control of field ``index``."""
    return form.query_one(f"#field-{index}")


async def test_tab_moves_on_even_when_keys_arrive_at_once(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        form = await bargain_form(pilot, app)
        assert [f.name for f in form.form.fields] == ["action", "price", "message", "reason"]
        field(form, 1).focus()
        await pilot.pause()
        burst(app, "6", "1", "tab", "h", "e", "l", "l", "o", "tab", "w", "h", "y")
        await wait_until(pilot, lambda: field(form, 3).value == "why", "the reason typed")
        assert field(form, 1).value == "61"
        assert field(form, 2).value == "hello"
        burst(app, "shift+tab", "shift+tab", "shift+tab", "shift+tab")
        await pilot.pause()
        assert app.focused is app.screen.query_one("#board-scroll"), "shift+tab from the first: the board"
        burst(app, "tab", "tab", "x")
        await wait_until(pilot, lambda: field(form, 1).value == "x", "price replaced (numbers are selected)")
        assert field(form, 2).value == "hello" and field(form, 3).value == "why"
        assert all(form in node.ancestors_with_self for node in [app.focused] if node is not None)


async def test_a_rejected_submit_then_tab_keeps_moving_forward(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        form = await bargain_form(pilot, app)
        note = form.query_one("#err-1", Static)
        burst(app, "tab", "a", "b", "c", "enter")
        await wait_until(pilot, lambda: note.has_class("-error"), "the price marked")
        assert "price must be a whole number" in render_plain(note.content)
        assert app.focused is field(form, 1), "a rejected submit goes to the first field to correct"
        burst(app, "tab", "o", "k", "tab", "n", "o")
        await wait_until(pilot, lambda: field(form, 3).value == "no", "tab moved on twice")
        assert field(form, 1).value == "abc" and field(form, 2).value == "ok"
        burst(app, "shift+tab", "shift+tab", "4", "2")
        await wait_until(pilot, lambda: field(form, 1).value == "42", "price corrected")
        assert not note.has_class("-error"), "a valid entry clears the field's stale error"
        assert render_plain(form.query_one("#form-error", Static).content).strip() == ""


async def test_the_first_choice_is_preselected_and_shown_as_chosen(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        form = await bargain_form(pilot, app)
        assert form.form.entries["action"] == "offer"
        assert app.focused is field(form, 0), "the cursor starts on the first field, the action"
        await wait_until(pilot, lambda: "●▌ offer" in screen_text(app), "the form painted")
        text = screen_text(app)
        assert "●▌ offer" in text and "▸ action" in text, "the choice shown, its field marked"
        await pilot.press("tab", "5", "0", "enter")
        match = app.matches.matches[0]
        form = await next_form(pilot, app, 2)
        assert form.form.entries["action"] == "offer", "the last move's choice again"
        await wait_until(pilot, lambda: "○▌ accept" in screen_text(app), "accept offered now")
        text = screen_text(app)
        assert "●▌ offer" in text and "○▌ accept" in text, "chosen and not chosen look different"
        burst(app, "right", "enter")
        # the bid is below this seller's cost: accepting it is confirmed first
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the loss question")
        await pilot.press("y")
        await wait_until(pilot, lambda: match.data.over, "the accepted deal ends the match")
        await wait_until(pilot, lambda: not app.screen.query(HumanForm), "the form closes with the match")
    store = Store(app_db)
    turns = stored_turns(store, store.list_episodes()[0]["id"])
    store.close()
    assert turns[0]["action"]["action"] == "offer" and turns[0]["action"]["price"] == 50
    assert turns[2]["action"]["action"] == "accept", "the arrow key chose accept before enter submitted"


async def test_a_rule_problem_sits_next_to_its_field_and_clears_when_fixed(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        form = await bargain_form(pilot, app)
        await pilot.press("enter")
        note = form.query_one("#err-1", Static)
        assert "an offer needs a whole-number price" in render_plain(note.content)
        assert "not allowed" in render_plain(form.query_one("#form-error", Static).content)
        assert app.focused is field(form, 1)
        await pilot.press("7")
        assert not note.has_class("-error")
        assert render_plain(form.query_one("#form-error", Static).content).strip() == ""
        assert isinstance(field(form, 1), Input) and field(form, 1).value == "7"


async def test_choosing_accept_hides_the_price_keeps_the_message_and_offer_brings_it_back(
    app_db: Path,
) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await bargain_form(pilot, app)
        await pilot.press("tab", "5", "0", "enter")  # the first turn can only offer
        form = await next_form(pilot, app, 2)
        burst(app, "tab", "4", "2", "tab", "h", "i")
        await wait_until(pilot, lambda: field(form, 2).value == "hi", "price and message typed")
        price, message = (form.query(f".row-{index}") for index in (1, 2))
        assert all(widget.display for widget in [*price, *message])
        burst(app, "shift+tab", "shift+tab", "right")
        await wait_until(pilot, lambda: form.form.entries["action"] == "accept", "accept chosen")
        assert not any(widget.display for widget in price), "the price hidden"
        # the rules: either action may carry a message, so accept keeps the field
        assert all(widget.display for widget in message), "the message kept"

        def labels() -> list[str]:
            # a row's first word after the border and the cursor's mark
            rows = [line.split() for line in screen_text(app).splitlines() if line.startswith("│ ")]
            return [next((w for w in row[1:] if w != "▸"), "") for row in rows]

        # the screen is repainted after the fields are hidden: wait for the repaint, not for time
        await wait_until(pilot, lambda: "price" not in labels(), "the screen repainted without the price")
        assert "action" in labels() and "reason" in labels() and "message" in labels()
        burst(app, "tab")
        await wait_until(pilot, lambda: app.focused is field(form, 2), "tab skips the hidden price")
        burst(app, "shift+tab", "left")
        await wait_until(pilot, lambda: form.form.entries["action"] == "offer", "offer chosen again")
        assert all(widget.display for widget in [*price, *message])
        assert field(form, 1).value == "42" and field(form, 2).value == "hi", "what was typed is kept"


async def test_the_cups_field_states_today_s_limit_not_the_declared_one(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(160, 48)) as pilot:
        await pick_game(pilot, app, "lemonade")
        await choose_seat(pilot, app, 0, "human")
        await choose_seat(pilot, app, 1, "baseline:weather")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: bool(app.screen.query(HumanForm)), "the stand's form")
        form = app.screen.query_one(HumanForm)
        cups = form.turn.request.observation.model_dump()["max_affordable_cups"]
        produce = [spec.name for spec in form.form.fields].index("produce")
        assert field(form, produce).placeholder.startswith(f"0 to {cups}")  # not "0 to 1000"
