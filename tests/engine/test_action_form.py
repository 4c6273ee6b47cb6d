"""The form engine on its own: what a field holds, checks as typed, the whole move, messages."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from arena.contract.player import DecisionRequest
from arena.engine.action_form import CORRECT_MARKED, ActionForm


class Order(BaseModel):
    """A made-up action: a size, a count the budget caps, an optional note only for a gift."""

    FORM_WHEN: ClassVar[dict[str, dict[str, str]]] = {"note": {"kind": "gift"}}
    kind: Literal["plain", "gift"]
    count: int = Field(ge=0, le=100)
    wrapped: bool = False
    note: str = ""


class Nothing(BaseModel):
    """No observation."""


def order_request(budget: int = 30) -> DecisionRequest:
    """A request for an :class:`Order`; the rule check allows at most ``budget`` items, 20 if wrapped."""

    def check(action: BaseModel) -> str | None:
        assert isinstance(action, Order)
        cap = budget - 10 if action.wrapped else budget
        return f"count {action.count} is over the budget of {cap}" if action.count > cap else None

    def caution(action: BaseModel) -> str | None:
        assert isinstance(action, Order)
        return "a gift without a note" if action.kind == "gift" and not action.note else None

    return DecisionRequest(
        "shop", "a", 0, Nothing(), "", Order, lambda: "", "1", check=check, caution=caution
    )


def test_what_fields_hold_before_anything_is_typed() -> None:
    shown = ActionForm(order_request())
    assert shown.entries == {"kind": "plain", "count": "", "wrapped": "no", "note": ""}
    asked = ActionForm(order_request(), preselect=False)
    assert asked.entries["kind"] == "", "a line-by-line form leaves a required choice blank"
    assert ActionForm(order_request(), {"kind": "gift", "note": "hi"}).entries["kind"] == "gift"
    assert ActionForm(order_request(), {"note": "hi"}).entries["note"] == "", "text is not carried over"


def test_a_yes_no_entry_reads_the_same_for_the_checkbox_as_for_the_submit() -> None:
    form = ActionForm(order_request())
    wrapped = form.fields[2]
    form.set_entry("wrapped", "y")
    assert form.checked(wrapped)
    form.set_entry("count", "5")
    outcome = form.submit()
    assert outcome.action is not None and outcome.action.model_dump()["wrapped"] is True


def test_the_count_is_checked_against_what_the_rules_allow_now() -> None:
    form = ActionForm(order_request())
    count = form.fields[1]
    assert form.limit_now(count) == 30 and form.hint(count) == "0 to 30 now"
    assert form.hint(count, now=False) == "0 to 100"
    assert form.set_entry("count", "31") == "count can be at most 30 now, not 31"
    form.set_entry("wrapped", "yes")
    assert form.limit_now(count) == 20, "the other entries count as they are"
    assert form.limit_now(count, ahead=["wrapped", "note"]) == 30, "fields ahead count as stand-ins"


def test_asked_in_order_the_rules_object_once_only_free_text_is_ahead() -> None:
    form = ActionForm(order_request(), preselect=False)
    form.entries.update(kind="plain", count="25")
    assert form.entry_problem("count", "25", ahead=["wrapped", "note"]) is None, "wrapped is still to come"
    problem = form.entry_problem("wrapped", "yes", ahead=["note"])
    assert problem == "not allowed: count 25 is over the budget of 20"
    assert form.entry_problem("wrapped", "yes") is None, "with every field on screen, the submit judges"


def test_which_fields_apply_follows_the_parsed_choice() -> None:
    form = ActionForm(order_request(), preselect=False)
    note = form.fields[3]
    form.entries["kind"] = "gi"  # a console answer: the unique choice it starts
    assert form.applies(note)
    form.entries["kind"] = "plain"
    form.entries["note"] = "kept for later"
    form.entries["count"] = "3"
    outcome = form.submit()
    assert outcome.values == {"kind": "plain", "count": 3, "wrapped": False}, "the note does not apply"
    assert form.entries_for_storage() == {"kind": "plain", "count": "3", "wrapped": "no"}


def test_the_submit_explains_in_one_line_and_asks_before_a_questionable_move() -> None:
    form = ActionForm(order_request())
    form.set_entry("count", "abc")
    outcome = form.submit()
    assert outcome.error == CORRECT_MARKED and outcome.message == "count must be a whole number, not 'abc'"
    form.set_entry("count", "25")
    form.set_entry("wrapped", "yes")
    outcome = form.submit()
    assert outcome.field_errors == {"count": "count 25 is over the budget of 20"}
    assert outcome.message == "not allowed: count 25 is over the budget of 20"
    form.set_entry("wrapped", "no")
    form.set_entry("kind", "gift")
    outcome = form.submit()
    assert outcome.ok and outcome.question == "a gift without a note; go ahead?"
    form.set_entry("note", "enjoy")
    outcome = form.submit()
    assert outcome.ok and outcome.question is None


def note_request(notes: dict[tuple[str, str], str]) -> DecisionRequest:
    """An :class:`Order` request whose game wants a note on a gift and comments on entries (``notes``)."""

    def check(action: BaseModel) -> str | None:
        assert isinstance(action, Order)
        return "note: a gift needs a few words" if action.kind == "gift" and not action.note else None

    return DecisionRequest(
        "shop",
        "a",
        0,
        Nothing(),
        "",
        Order,
        lambda: "",
        "1",
        check=check,
        entry_note=lambda name, text: notes.get((name, text.strip())),
    )


def test_an_objection_to_a_field_still_ahead_waits_for_it() -> None:
    form = ActionForm(note_request({}), preselect=False)
    form.entries.update(kind="gift", count="3")
    assert form.entry_problem("wrapped", "no", ahead=["note"]) is None, "the note is still to come"
    assert form.entry_problem("note", "", ahead=[]) == "not allowed: note: a gift needs a few words"


def test_the_games_line_on_an_entry_shows_in_the_hint_and_as_it_is_typed() -> None:
    notes = {("note", ""): "you have 12 words left", ("note", "hi"): "1 word", ("count", ""): "3 in stock"}
    form = ActionForm(note_request(notes))
    note, count, kind = form.fields[3], form.fields[1], form.fields[0]
    assert form.hint(note) == "you have 12 words left", "free text: the game's line stands for 'text'"
    assert form.hint(count) == "0 to 100; 3 in stock", "a number keeps its range"
    assert form.hint(kind) == "plain / gift", "no line: the hint as before"
    assert form.note("note") == "you have 12 words left", "a blank entry"
    form.set_entry("note", "hi")
    assert form.note("note") == "1 word" and form.note("note", "") == "you have 12 words left"
    assert ActionForm(order_request()).note("note") is None, "a game without lines"


def test_a_blank_count_is_refused_with_the_range_allowed_now() -> None:
    form = ActionForm(order_request())
    form.set_entry("count", "")
    outcome = form.submit()
    assert outcome.field_errors["count"] == "count is required (0 to 30 now)", "not the declared 0 to 100"
    assert form.entry_problem("count", "") == "count is required (0 to 30 now)"
