"""Human action forms derived from action schemas."""

from __future__ import annotations

import pytest

from arena.engine.forms import form_fields, parse_field
from games.bargain.rules import BargainAction
from games.lemonade.rules import LemonadeDecision


def test_lemonade_form_shows_ranges_choices_and_defaults() -> None:
    fields = {f.name: f for f in form_fields(LemonadeDecision)}
    assert fields["price"].kind == "number" and fields["price"].hint() == "0.5 to 6"
    assert fields["produce"].kind == "integer" and fields["produce"].required
    assert fields["promotion"].choices == ("none", "discount", "bundle")
    assert fields["promotion"].default == "none"
    assert not fields["reason"].required


def test_entries_are_parsed_or_explained() -> None:
    fields = {f.name: f for f in form_fields(LemonadeDecision)}
    assert parse_field(fields["price"], " 3.5 ") == 3.5
    assert parse_field(fields["promotion"], "disc") == "discount"
    assert parse_field(fields["promotion"], "") == "none"
    assert parse_field(fields["reason"], "") == ""
    with pytest.raises(ValueError, match="at most 6"):
        parse_field(fields["price"], "9")
    with pytest.raises(ValueError, match="whole number"):
        parse_field(fields["produce"], "2.5")
    with pytest.raises(ValueError, match="required"):
        parse_field(fields["produce"], "")
    with pytest.raises(ValueError, match="one of none / discount / bundle"):
        parse_field(fields["promotion"], "free")


def test_an_optional_number_left_blank_is_none() -> None:
    fields = {f.name: f for f in form_fields(BargainAction)}
    assert not fields["price"].required
    assert parse_field(fields["price"], "") is None
    values = {
        name: parse_field(field, "accept" if name == "action" else "") for name, field in fields.items()
    }
    assert BargainAction.model_validate(values).action == "accept"


def test_a_bargain_accept_may_carry_a_message_as_the_rules_say() -> None:
    fields = {f.name: f for f in form_fields(BargainAction)}
    accept = {"action": "accept"}
    assert fields["message"].applies(accept) and not fields["price"].applies(accept)
