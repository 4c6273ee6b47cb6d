"""Bounded numbers in the offline model's grammar: the rules spell exactly the range, and decode so."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest

from arena.plugins.games import get_game
from players.models import local_runtime
from players.models.grammar import bounded_grammar, decimal_rule, integer_rule
from players.models.local_runtime import missing_requirement
from players.models.schema import action_schema, grammar_schema


def as_regex(rule: str) -> re.Pattern[str]:
    """The GBNF subset the rules use (quoted digits, "-", ".", classes, groups, ?, {m,n}) as a regex."""
    text = rule.replace('"-"', "-").replace('"."', r"\.")
    text = re.sub(r'"(\d)"', r"\1", text)
    return re.compile(text.replace(" ", ""))


@pytest.mark.parametrize(
    ("low", "high"), [(0, 1000), (-15, 7), (3, 3), (17, 23456), (-99, -5), (0, 0), (9, 10)]
)
def test_integer_rule_spells_exactly_the_range(low: int, high: int) -> None:
    pattern = as_regex(integer_rule(low, high))
    matched = [n for n in range(-30000, 30000) if pattern.fullmatch(str(n))]
    assert matched == list(range(low, high + 1))
    assert not pattern.fullmatch("007") and not pattern.fullmatch("1e3")


def test_an_open_integer_end_has_no_limit_but_keeps_the_other() -> None:
    pattern = as_regex(integer_rule(5, None))
    assert [n for n in range(-50, 50) if pattern.fullmatch(str(n))] == list(range(5, 50))
    assert pattern.fullmatch("123456789012")


@pytest.mark.parametrize(("low", "high"), [("0.5", "6.0"), ("-1.25", "2.5"), ("0", "0.5"), ("1.05", "1.95")])
def test_decimal_rule_spells_exactly_the_range_to_two_places(low: str, high: str) -> None:
    pattern = as_regex(decimal_rule(Decimal(low), Decimal(high)))
    spellings = [f"{x / 100:.2f}" for x in range(-800, 800)] + [f"{x / 10:.1f}" for x in range(-80, 80)]
    spellings += [str(x) for x in range(-8, 9)]
    matched = {s for s in spellings if pattern.fullmatch(s)}
    assert matched == {s for s in spellings if Decimal(low) <= Decimal(s) <= Decimal(high)}
    assert not pattern.fullmatch("1.234") and not pattern.fullmatch("1e0")


GEMMA_MISSING = missing_requirement("gemma3-270m")
needs_gemma = pytest.mark.skipif(
    GEMMA_MISSING is not None, reason=f"offline model unavailable: {GEMMA_MISSING}"
)


@needs_gemma
def test_the_model_cannot_decode_a_number_outside_the_moments_bounds() -> None:
    # A real lemonade morning with little cash: the moment's action model bounds production.
    game = get_game("lemonade").create(3, {"days": 3})
    game.stands["a"].cash = 4.0
    model_type = game.action_model("a")
    schema = grammar_schema(action_schema(model_type))
    max_cups = schema["properties"]["produce"]["maximum"]
    assert max_cups == int(4.0 // game.today.unit_cost) < 1000
    model = local_runtime.shared_model("gemma3-270m")
    grammar = model.grammar_of(schema)
    assert grammar is not None and "maximum" not in grammar
    chat = [
        {
            "role": "user",
            "content": 'Reply with exactly {"price": 1000, "produce": 400000, "promotion": "none",'
            ' "reason": "x"}. Use price 1000 and produce 400000, nothing else.',
        }
    ]
    for seed in range(4):
        reply = local_runtime.generate(
            model, chat, schema=schema, max_tokens=80, temperature=1.5, seed=seed, cancelled=lambda: False
        )
        action = json.loads(reply.text)
        assert 0.5 <= action["price"] <= 6.0, reply.text
        assert 0 <= action["produce"] <= max_cups, reply.text
        model_type.model_validate(action)


@needs_gemma
def test_bounded_grammar_goes_through_the_bindings_converter() -> None:
    model = local_runtime.shared_model("gemma3-270m")
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 2, "maximum": 4},
            "x": {"type": "number", "maximum": 1},
        },
        "required": ["n", "x"],
    }
    grammar = bounded_grammar(schema, lambda s: str(model.grammar_of(s)))
    assert "( [2-4] )" in grammar  # n bounded; x (one open end) left to the game's check
    assert "minimum" not in json.dumps(grammar) and "arena-bounded" not in grammar
