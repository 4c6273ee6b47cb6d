"""What a person reads in the app is words: field names, messages, form headers, results, flags.

Each at 80x24 and 160x48: a paperclip form's labels and its error for an unreadable box, the
results of a finished paperclip match (a metric per tier is rows, not a Python dict), and a
bargain where the history shows both sides' offers and the end explains each honesty flag.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.widgets import DataTable, Input, Label, Static

from arena.app import create_app
from arena.app.home_data import option_title
from arena.app.match_data import HIDDEN_REASON
from arena.app.screens.modals import ConfirmScreen
from arena.app.widgets.human_form import HumanForm
from arena.app.widgets.panels import ResultsTable
from arena.engine.match import MatchConfig
from arena.plugins.games import get_game
from tests.support.app_driving import (
    bargain_form,
    burst,
    choose_seat,
    next_form,
    pick_game,
    render_plain,
    started,
    wait_until,
)

SIZES = ((80, 24), (160, 48))
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]


def board_text(app: Any) -> str:
    """The whole board (scrolled or not) as one line of words."""
    return " ".join(render_plain(app.screen.query_one("#board", Static).content).split())


def history_rows(app: Any) -> list[list[str]]:
    """The history table's cells, row by row."""
    table: DataTable[Text] = app.screen.query_one("#history", DataTable)
    return [[cell.plain for cell in table.get_row_at(i)] for i in range(table.row_count)]


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_a_paperclip_form_speaks_in_words(app_db: Path, size: tuple[int, int]) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=size) as pilot:
        await pick_game(pilot, app, "paperclip")
        await choose_seat(pilot, app, 0, "human")
        await choose_seat(pilot, app, 1, "baseline:oracle")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: bool(app.screen.query(HumanForm)), "the first form")
        form = app.screen.query_one(HumanForm)
        labels = [
            str(label.render()).removeprefix("▸").strip()
            for label in form.query(".form-label").results(Label)
        ]
        assert "step 1" in labels and "colour count" in labels and not any("_" in text for text in labels)
        facts = str(form.query_one(".form-facts", Static).render())
        assert "_" not in facts and "puzzle 1 · " in facts
        assert "seat a: no puzzle graded yet" in board_text(app) and "()" not in board_text(app)
        for index, spec in enumerate(form.form.fields):  # every field filled: only box text is wrong
            if spec.name != "reason":
                form.query_one(f"#field-{index}", Input).focus()
                await pilot.pause()
                burst(app, *("A: grn x" if spec.name.startswith("step_") else "1"))
        await pilot.pause()
        burst(app, "enter")
        note = form.query_one("#err-0", Static)
        await wait_until(pilot, lambda: "cannot read" in str(note.render()), "the step's problem")
        problem = str(note.render())
        assert problem.startswith("step 1: box A: cannot read 'grn x'"), problem
        assert "Value error" not in problem and "step_1" not in problem


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_a_finished_paperclip_match_shows_a_metric_per_tier_as_rows(
    app_db: Path, size: tuple[int, int]
) -> None:
    app = create_app(app_db, step_delay=0.0, load_models=False)
    async with started(app, size=size) as pilot:
        config = MatchConfig(
            game="paperclip",
            seats={"a": "baseline:sloppy", "b": "baseline:oracle"},
            seed=4,
            options={"puzzles": 3},
        )
        live = app.start_match(config)
        await wait_until(pilot, lambda: live.data.over, "the match to end")
        results = app.screen.query_one(ResultsTable)
        await wait_until(pilot, lambda: bool(results.display) and results.row_count > 3, "the results")
        rows = [[cell.plain for cell in results.get_row_at(i)] for i in range(results.row_count)]
    names = [row[0] for row in rows]
    assert any(name.startswith("accuracy by tier: ") for name in names), names
    assert "breaking point" in names and not any("_" in name for name in names)
    assert not any("{" in cell or "'" in cell for row in rows for cell in row), rows


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_the_bargain_history_shows_both_sides_and_the_end_explains_each_flag(
    app_db: Path, size: tuple[int, int]
) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=size) as pilot:
        await bargain_form(pilot, app, "baseline:bluffing")
        match = app.matches.matches[0]
        game: Any = match.data.game
        form = app.screen.query_one(HumanForm)
        facts = str(form.query_one(".form-facts", Static).render())
        assert "rounds left 8" in facts and "your cost" in facts and "_" not in facts
        await pilot.press("tab", "6", "1", "tab", *"take it or leave it, final offer", "enter")
        await next_form(pilot, app, 2)
        bid = game.moves[1].price
        buyer = [row for row in history_rows(app) if row[1] == "buyer"]
        assert [row[2].startswith(f"offer {bid}") for row in buyer] == [True], history_rows(app)
        assert buyer[0][3] == HIDDEN_REASON, "the buyer's reason stays hidden until the end"
        assert bid < game.deal.cost, "the bluffing buyer bids below the seller's cost"
        burst(app, "right", "enter")  # the cursor starts on the action
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "accept at a loss?")
        await pilot.press("y")
        await wait_until(pilot, lambda: match.data.over, "the deal")
        expected = (
            'round 3 seller: bluff, broke its final offer: called 61 final in round 1 ("take it or leave it,'
            f' final offer"), then accepted {bid}'
        )
        await wait_until(pilot, lambda: expected in board_text(app), "the flag explained on the board")
        assert f"buyer value {game.deal.value}" in board_text(app)


def test_the_set_up_titles_each_option_in_words() -> None:
    titles = [option_title(option) for option in get_game("cattle").options]
    assert "turn cap (10 to 2000)" in titles and not any("_" in title for title in titles)
