"""The console and the app give the same action, or the same message, for the same entries.

Each case is typed into both front ends through their real code: the console's
:class:`~players.console_human.ConsoleHuman` line by line, and the app's
:class:`~arena.app.widgets.human_form.HumanForm` key by key under Pilot. The first problem
either shows (next to a field, under the form, or on its own line in the console) must be
the same words, and an accepted move the same action and reason.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import pytest
from pydantic import BaseModel, RootModel
from textual.app import App, ComposeResult
from textual.widgets import Input, Static

from arena.app.human import HumanTurn
from arena.app.screens.modals import ConfirmScreen
from arena.app.widgets.choice_set import ChoiceSet
from arena.app.widgets.human_form import HumanForm
from arena.contract.player import Decision, DecisionRequest, UserLeft
from arena.engine.action_form import CORRECT_MARKED, JSON_FIELD, ActionForm
from arena.engine.runner import decision_request
from games.bargain.rules import BargainAction
from games.lemonade.rules import LemonadeDecision
from players.console_human import ConsoleHuman
from tests.support.app_driving import render_plain, wait_until
from tests.support.gamekit import new_bargain, new_lemonade

CONSOLE_TAIL = "; change what you need (blank keeps your earlier entry)"


class _Offer(BaseModel):
    kind: Literal["offer"]
    price: int


class _Accept(BaseModel):
    kind: Literal["accept"]


class _Move(RootModel[_Offer | _Accept]):
    """A union action: its schema has no properties, so both front ends take it as JSON."""


def lemonade() -> DecisionRequest:
    """Seat a's first day (cash 50)."""
    return decision_request(new_lemonade(1), "a", 0)


def lemonade_limit() -> int:
    """The most cups seat a may make on day 1 with no promotion, from the game's own check."""
    game, produce = new_lemonade(1), 0
    while game.validate("a", LemonadeDecision(price=2, produce=produce + 1)) is None:
        produce += 1
    return produce


def seller() -> DecisionRequest:
    """The seller's opening move."""
    return decision_request(new_bargain(1), "seller", 0)


def buyer(over_value: int) -> DecisionRequest:
    """The buyer's move after an offer ``over_value`` above the buyer's value."""
    game = new_bargain(1)
    game.apply({"seller": BargainAction(action="offer", price=game.deal.value + over_value)})
    return decision_request(game, "buyer", 1)


def union() -> DecisionRequest:
    """A request whose action model is a union (no form fields), with no rule check."""
    request = lemonade()
    request.action_model = _Move
    request.check = None
    return request


@dataclass(frozen=True)
class Case:
    """Entries for the fields that apply, in the form's order, and what both must come to."""

    name: str
    request: Callable[[], DecisionRequest]
    entries: list[tuple[str, str]]
    message: str | None = None
    """The first problem both show; None when the move is accepted."""
    question: str | None = None
    """The question asked before sending (answered yes)."""


LIMIT = lemonade_limit()
CASES = [
    Case(
        "lemonade accepted",
        lemonade,
        [("price", "2"), ("produce", "10"), ("promotion", "discount"), ("reason", "steady")],
    ),
    Case("lemonade price out of range", lemonade, [("price", "9")], "price must be at most 6, not 9"),
    Case("lemonade price not a number", lemonade, [("price", "abc")], "price must be a number, not 'abc'"),
    Case(
        "lemonade cups over today's cash",
        lemonade,
        [("price", "2"), ("produce", "500")],
        f"produce must be at most {LIMIT}, not 500",  # the action model carries the morning's limit
    ),
    Case(
        "lemonade promotion the cash cannot cover",
        lemonade,
        [("price", "2"), ("produce", str(LIMIT)), ("promotion", "bundle"), ("reason", "")],
        "not allowed: ",
    ),
    Case("bargain offer", seller, [("action", "offer"), ("price", "40"), ("message", "hi"), ("reason", "")]),
    Case(
        "bargain offer without a price",
        seller,
        [("action", "offer"), ("price", ""), ("message", ""), ("reason", "")],
        "not allowed: an offer needs a whole-number price",
    ),
    Case("bargain price not whole", seller, [("action", "offer"), ("price", "4.5")], "price must be a whole"),
    Case(
        "bargain accept", lambda: buyer(-1), [("action", "accept"), ("message", "deal"), ("reason", "fine")]
    ),
    Case(
        "bargain accept at a loss, confirmed",
        lambda: buyer(7),
        [("action", "accept"), ("message", ""), ("reason", "")],
        question="loses you 7; go ahead?",
    ),
    Case("json accepted", union, [(JSON_FIELD, '{"kind": "offer", "price": 7}')]),
    Case("json missing a key", union, [(JSON_FIELD, '{"kind": "offer"}')], "Offer.price: Field required"),
    Case("json broken", union, [(JSON_FIELD, "{not json")], "not valid JSON: "),
]


@dataclass
class Seen:
    """What one front end came to: its first problem, its question, or its decision."""

    message: str | None = None
    question: str | None = None
    decision: Decision | None = None


async def through_console(case: Case) -> Seen:
    """Type the entries line by line (then yes to a question); the input ends after them."""
    lines = iter([text for _, text in case.entries] + (["y"] if case.question else []))
    seen = Seen()
    prompts: list[str] = []

    def reader(prompt: str) -> str:
        prompts.append(prompt)
        if "go ahead?" in prompt:
            seen.question = prompt.strip().removesuffix(" y/N:")
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    rules: list[bool] = []  # inside the seat's rules, printed before its first form (issue 45)

    def writer(text: str) -> None:
        if text.startswith("-- the rules for seat "):
            rules.append(True)
        elif text.startswith("-- end of the rules --"):
            rules.clear()
        elif text.startswith("  ") and seen.message is None and not rules:
            seen.message = text.strip().removesuffix(CONSOLE_TAIL)

    try:
        seen.decision = await ConsoleHuman(reader, writer).decide(case.request())
    except UserLeft:
        assert seen.message is not None, f"the input ended without a problem shown: {prompts}"
    return seen


class FormHost(App[None]):
    """The app's form for one turn, as the match screen mounts it."""

    def __init__(self, turn: HumanTurn) -> None:
        super().__init__()
        self.turn = turn

    def compose(self) -> ComposeResult:
        """Build the widgets."""
        yield HumanForm(self.turn, ActionForm(self.turn.request, None), {})


def shown(widget: Static) -> str:
    """The text a Static shows now."""
    return render_plain(widget.content, width=1000).strip()


def first_error_note(form: HumanForm) -> str | None:
    """The first message marked next to a field, if any."""
    for index in range(len(form.form.fields)):
        note = form.query_one(f"#err-{index}", Static)
        if note.has_class("-error") and note.display:
            return shown(note)
    return None


async def type_entry(pilot: Any, form: HumanForm, index: int, text: str) -> None:
    """Put the cursor in field ``index`` and type ``text`` (a choice by its first letter)."""
    control = form.query_one(f"#field-{index}")
    form.screen.set_focus(control)
    await pilot.pause()
    if isinstance(control, ChoiceSet):
        await pilot.press(text[0])
    else:
        assert isinstance(control, Input) and control.value == ""
        await pilot.press(*text)
    name = form.form.fields[index].name
    # the form has taken the entry once its change handler ran (and redrew the notes)
    await wait_until(pilot, lambda: form.form.entries[name] == text, f"{name} entered")


async def through_app(case: Case) -> Seen:
    """Type the entries key by key, then Enter (and yes to a question)."""
    seen = Seen()
    future: asyncio.Future[Decision] = asyncio.get_running_loop().create_future()
    request = case.request()
    app = FormHost(HumanTurn(seat=request.seat, request=request, future=future))
    async with app.run_test(size=(160, 48)) as pilot:
        form = app.query_one(HumanForm)
        names = [spec.name for spec in form.form.fields]
        for name, text in case.entries:
            await type_entry(pilot, form, names.index(name), text)
            seen.message = first_error_note(form)
            if seen.message is not None:
                return seen
        await pilot.press("enter")
        error = app.query_one("#form-error", Static)

        def answered() -> bool:
            problem = bool(shown(error)) or first_error_note(form) is not None
            return future.done() or isinstance(app.screen, ConfirmScreen) or problem

        await wait_until(pilot, answered, "the submit answered")
        if isinstance(app.screen, ConfirmScreen):
            seen.question = app.screen.question
            await pilot.press("y")
            await wait_until(pilot, future.done, "the move handed over")
        if future.done():
            seen.decision = future.result()
        else:
            text = shown(error)
            seen.message = text if text and text != CORRECT_MARKED else first_error_note(form)
    return seen


def summary(decision: Decision) -> Any:
    """A decision's action as plain data."""
    assert isinstance(decision.action, BaseModel)
    return decision.action.model_dump(mode="json")


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_the_same_entries_come_to_the_same_thing_in_the_console_and_the_app(case: Case) -> None:
    console, app = await through_console(case), await through_app(case)
    assert console.message == app.message, "the same words for the same problem"
    if case.message is None:
        assert console.message is None
    else:
        assert console.message is not None and console.message.startswith(case.message)
    assert console.question == app.question
    if case.question is not None:
        assert console.question is not None and console.question.endswith(case.question)
    if case.message is None:
        assert console.decision is not None and app.decision is not None
        assert summary(console.decision) == summary(app.decision)
        assert console.decision.reason == app.decision.reason
    else:
        assert console.decision is None and app.decision is None
