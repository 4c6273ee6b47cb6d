"""The move sent is the move shown: in each game a person's move is played by keys at 80x24 (Pilot)
and the action stored in SQLite is the one the form showed when Enter was pressed.

The cursor starts on the form's first field; in a choice field ←/→ change the choice shown and
the keys line says so (in a text field it does not, where the arrows move the text cursor).
Cattle Trade's sale form is the case the issue met: → then Enter recorded ``sell`` because the
cursor sat in the reason field, where → moved the text cursor.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from arena.app import create_app
from arena.app.widgets.human_form import HumanForm
from arena.engine.match import MatchConfig
from arena.store.database import Store
from tests.support.app_driving import render_plain, started, wait_until
from tests.support.episodes import stored_turns

SMALL = (80, 24)


@dataclass(frozen=True)
class Case:
    """A person's first move in one game: the keys pressed and what the stored action must hold."""

    game: str
    seats: dict[str, str]
    keys: tuple[str, ...]
    expected: dict[str, Any]
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 3


CASES = {
    # the sale form right away (seed 3): → chooses buy, as the ●/○ marks show
    "cattle": Case(
        "cattle",
        {"p1": "human", "p2": "baseline:cautious", "p3": "baseline:random"},
        ("right", "enter"),
        {"action": "buy"},
        options={"players": 3},
    ),
    "bargain": Case(
        "bargain",
        {"seller": "human", "buyer": "baseline:bluffing"},
        ("right", "left", "tab", "5", "0", "enter"),
        {"action": "offer", "price": 50},
    ),
    "lemonade": Case(
        "lemonade",
        {"a": "human", "b": "baseline:weather"},
        ("2", "tab", "1", "0", "tab", "right", "enter"),
        {"price": 2.0, "produce": 10, "promotion": "discount"},
    ),
    "paperclip": Case(
        "paperclip",
        {"a": "human", "b": "baseline:random"},
        (*"A: red 1", "enter"),
        {"boxes": {"A": {"red": 1}}},
        options={"mode": "stepwise"},
    ),
    # nine moves: a drop-down list, which → changes without opening
    "openspiel:tic_tac_toe": Case(
        "openspiel:tic_tac_toe",
        {"p0": "human", "p1": "baseline:random"},
        ("right", "right", "enter"),
        {"move": "x(0,2)"},
    ),
    "openspiel:kuhn_poker": Case(
        "openspiel:kuhn_poker",
        {"p0": "human", "p1": "baseline:random"},
        ("right", "enter"),
        {"move": "Bet"},
    ),
    "textarena:Nim-v0": Case(
        "textarena:Nim-v0",
        {"p0": "human", "p1": "baseline:random"},
        ("right", "enter"),  # the listed legal moves: [0 1], [0 2], ...
        {"move": "[0 2]"},
    ),
}


def keys_line(form: HumanForm) -> str:
    """The form's line of keys, as shown."""
    return render_plain(form.query_one(".form-keys", Static).content)


@pytest.mark.parametrize("name", list(CASES))
async def test_the_move_stored_is_the_one_the_keys_chose(app_db: Path, name: str) -> None:
    case = CASES[name]
    app = create_app(app_db, load_models=False, step_delay=0.0)
    async with started(app, size=SMALL) as pilot:
        match = app.start_match(
            MatchConfig(game=case.game, seats=case.seats, seed=case.seed, options=case.options)
        )
        await wait_until(pilot, lambda: bool(app.screen.query(HumanForm)), "the person's form")
        form = app.screen.query_one(HumanForm)
        seat = form.turn.seat
        first = form.query_one("#field-0")
        await wait_until(
            pilot, lambda: app.focused is not None and form in app.focused.ancestors, "the cursor in the form"
        )
        assert app.focused is first, "the cursor starts on the first field"
        # one step number for people: the status line's is the form's (1-based)
        step = form.turn.request.step + 1
        assert f"(step {step})" in str(form.border_title)
        assert f" step {step} " in f"{match.data.status_line()} ", match.data.status_line()
        spec = form.form.fields[0]
        arrows = "←/→" in keys_line(form)
        assert arrows == (spec.kind == "choice"), (
            f"the keys line offers the arrows only in a choice: {keys_line(form)}"
        )
        for key in case.keys:
            await pilot.press(key)
        await wait_until(
            pilot,
            lambda: form.turn.done or bool(form.form.error or form.form.field_errors),
            "the move handled",
        )
        assert form.turn.done, f"the move was refused: {form.form.error} {form.form.field_errors}"
        await wait_until(
            pilot, lambda: any(row.seat == seat for row in match.data.history), "the move recorded"
        )
        episode = match.data.episode_id
    assert episode is not None
    store = Store(app_db)
    try:
        turns = [turn for turn in stored_turns(store, episode) if turn["seat"] == seat]
    finally:
        store.close()
    action = turns[0]["action"]
    assert {key: action.get(key) for key in case.expected} == case.expected
