"""A person races the oracle at paperclip in the app: the form takes compact box text."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from arena.app import create_app
from arena.app.widgets.human_form import HumanForm
from games.paperclip.answers import format_report
from games.paperclip.world import apply, parse_text
from tests.support.app_driving import (
    burst,
    choose_seat,
    next_form,
    pick_game,
    render_plain,
    screen_text,
    started,
    wait_until,
)


async def test_a_person_answers_a_puzzle_in_the_form_and_sees_it_graded(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(200, 60)) as pilot:
        await pick_game(pilot, app, "paperclip")
        await choose_seat(pilot, app, 0, "human")
        await choose_seat(pilot, app, 1, "baseline:oracle")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: bool(app.screen.query(HumanForm)), "the first form")
        form = app.screen.query_one(HumanForm)
        observation = form.turn.request.observation.model_dump()
        await wait_until(pilot, lambda: "Answering every step" in screen_text(app), "the puzzle painted")
        state = observation["initial"]
        names = [spec.name for spec in form.form.fields]
        for k, text in enumerate(observation["operations"], start=1):
            state = apply(state, parse_text(text))
            control = form.query_one(f"#field-{names.index(f'step_{k}')}", Input)
            control.focus()
            await pilot.pause()
            burst(app, *format_report(state))
        box = observation["question"].split("box ", 1)[1].split(" ", 1)[0]
        colour = observation["question"].rsplit(" are ", 1)[1].rstrip("?")
        answers = {"total": sum(state[box].values()), "colour_count": state[box].get(colour, 0)}
        for name, value in answers.items():
            form.query_one(f"#field-{names.index(name)}", Input).focus()
            await pilot.pause()
            burst(app, *str(value))
        await pilot.pause()
        burst(app, "enter")
        second = await next_form(pilot, app, 1)

        def on_the_board() -> str:
            # The whole board, not just its box: it follows its end (the new puzzle), so the graded
            # one may sit above the fold, a scroll away (issue 24, item 1).
            return render_plain(app.screen.query_one("#board", Static).content)

        await wait_until(pilot, lambda: "Puzzle 1 graded" in on_the_board(), "the graded puzzle")
        board = on_the_board()
        assert "seat a 1.00 (1 full)" in board and "seat b" not in board  # a person sees only their own seat
        await wait_until(
            pilot, lambda: "previous_puzzle: grade full" in screen_text(app), "the form's header"
        )
        shown = screen_text(app)
        # the next puzzle starts blank (puzzle 1's numbers are no answer to it), and its header
        # names puzzle 1's grade as the previous puzzle's, not as this one's
        second_names = [spec.name for spec in second.form.fields]
        for name in ("total", "colour_count"):
            assert second.query_one(f"#field-{second_names.index(name)}", Input).value == ""
            assert second.form.entries[name] == ""
        assert "puzzle 2 · " in shown and "previous_puzzle: grade full" in shown
