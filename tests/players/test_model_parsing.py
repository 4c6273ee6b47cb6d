"""Defensive parsing of model replies and the schema helpers."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import pytest
from pydantic import BaseModel, Field

from arena.contract.player import ErrorClass
from players.models.parsing import ReplyParseError, extract_json_object, parse_reply
from players.models.schema import action_schema, closed_schema, grammar_schema, schema_name
from tests.support.modelkit import LemonadeAction

SCHEMA = action_schema(LemonadeAction)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}',
        '```json\n{"a": 1}\n```',
        '```\n{"a": 1}\n```',
        'Sure! Here you go: {"a": 1}. Anything else?',
        'Thinking {not json} then {"a": 1}',
        "{'a': 1}",
        '{"a": 1,}',
        '[{"a": 1}]',
        '{"a": 1 // one\n}',
    ],
)
def test_extract_finds_the_object(text: str) -> None:
    assert extract_json_object(text) == {"a": 1}


def test_extract_handles_braces_inside_strings() -> None:
    assert extract_json_object('note: {"reason": "use {curly} braces", "x": 2} end') == {
        "reason": "use {curly} braces",
        "x": 2,
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "empty"), ("no json at all", "no JSON"), ('{"price": 2.5, "produce": ', "not closed")],
)
def test_extract_failures_are_typed(text: str, message: str) -> None:
    with pytest.raises(ReplyParseError, match=message) as caught:
        extract_json_object(text)
    assert caught.value.error_class is ErrorClass.UNPARSABLE


def test_fields_are_matched_generically() -> None:
    text = '{"PRICE": "3", "Produce_": 10.0, "Promotion": "SIGN", "Explanation": "why not"}'
    parsed = parse_reply(text, SCHEMA)
    assert parsed.action == {"price": 3, "produce": 10, "promotion": "sign", "reason": "why not"}
    assert parsed.reason == "why not"


@pytest.mark.parametrize(
    ("value", "expected"),
    [("$3.50", 3.5), ("3.5 dollars", 3.5), ("1,250", 1250), ("-2", -2), (" 4 ", 4), ("cheap", "cheap")],
)
def test_number_strings_are_coerced_for_number_fields(value: str, expected: Any) -> None:
    assert parse_reply(f'{{"price": "{value}"}}', SCHEMA).action["price"] == expected


@pytest.mark.parametrize(("value", "expected"), [("80 cups", 80), ("80.0", 80), (80.0, 80), (7.5, 7.5)])
def test_integer_fields_accept_integral_values_only(value: Any, expected: Any) -> None:
    text = f'{{"produce": {value!r}}}'.replace("'", '"')
    assert parse_reply(text, SCHEMA).action["produce"] == expected


def test_reason_is_split_off_when_the_schema_has_none() -> None:
    class Move(BaseModel):
        amount: int

    parsed = parse_reply('{"amount": "5", "reasoning": "enough"}', action_schema(Move))
    assert parsed.action == {"amount": 5}
    assert parsed.reason == "enough"


def test_envelopes_are_unwrapped() -> None:
    assert parse_reply('{"action": {"price": 2, "produce": 3}}', SCHEMA).action == {"price": 2, "produce": 3}
    assert parse_reply('{"LemonadeAction": {"price": 2}}', SCHEMA).action == {"price": 2}


def test_unknown_fields_are_kept_for_the_runner_to_judge() -> None:
    assert parse_reply('{"price": 2, "colour": "red"}', SCHEMA).action == {"price": 2, "colour": "red"}


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


class Inner(BaseModel):
    colour: Colour
    count: int = Field(ge=0)


class Outer(BaseModel):
    inner: Inner
    note: str | None = None
    flag: bool = False


def test_refs_are_inlined_and_nested_values_coerced() -> None:
    schema = action_schema(Outer)
    assert "$defs" not in schema and "$ref" not in str(schema)
    parsed = parse_reply('{"inner": {"Colour": "RED", "count": "2"}, "flag": "yes"}', schema)
    assert parsed.action == {"inner": {"colour": "red", "count": 2}, "flag": True}


def test_grammar_schema_is_what_llama_cpp_accepts() -> None:
    grammar = grammar_schema(action_schema(Outer))
    assert grammar["required"] == ["inner", "note", "flag"]
    assert grammar["additionalProperties"] is False
    inner = grammar["properties"]["inner"]
    assert inner["properties"]["count"]["minimum"] == 0  # kept: Arena writes the bounded rule itself
    assert inner["properties"]["colour"]["enum"] == ["red", "blue"]
    assert grammar["properties"]["note"]["anyOf"][0]["maxLength"] == 240
    assert "title" not in grammar and "default" not in str(grammar)


def test_closed_schema_and_names() -> None:
    closed = closed_schema(action_schema(Outer))
    assert closed["additionalProperties"] is False
    assert closed["properties"]["inner"]["additionalProperties"] is False
    assert schema_name(LemonadeAction) == "LemonadeAction"
