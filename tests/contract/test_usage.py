"""The one usage type: adding, totals, the stored columns, and an unpriced model's cost shown as unknown."""

from __future__ import annotations

import dataclasses

import pytest

from arena.contract.usage import NO_USAGE, USAGE_COLUMNS, Usage, has_price, unpriced_seat
from arena.engine.recorder import TURN_COLUMNS

FIRST = Usage(1200, 40, cached_tokens=900, cache_write_tokens=250, reasoning_tokens=8)
SECOND = Usage(input_tokens=300, output_tokens=60, cached_tokens=0, cache_write_tokens=10, cost_usd=0.25)


def test_adding_adds_every_count_and_the_dollars() -> None:
    both = FIRST + SECOND
    assert both == Usage(1500, 100, 900, 260, 8, 0.25)
    assert both.total_tokens == 1600
    assert Usage.total([FIRST, SECOND, FIRST]) == both + FIRST
    assert Usage.total([]) is NO_USAGE and not NO_USAGE.spent


def test_nothing_spent_adds_nothing_and_builds_nothing() -> None:
    assert FIRST + NO_USAGE is FIRST and NO_USAGE + SECOND is SECOND
    assert Usage.total([NO_USAGE, NO_USAGE]) is NO_USAGE


def test_a_usage_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        FIRST.cost_usd = 1.0  # type: ignore[misc]


def test_a_sum_with_an_unpriced_part_is_unpriced() -> None:
    unknown = Usage(input_tokens=10, output_tokens=2, unpriced=True)
    assert (SECOND + unknown).unpriced and (unknown + SECOND).unpriced
    assert not (FIRST + SECOND).unpriced


def test_an_unpriced_cost_is_never_shown_as_zero_dollars() -> None:
    assert SECOND.cost_text() == "$0.2500"
    assert Usage(input_tokens=10, unpriced=True).cost_text() == "no price"
    mixed = SECOND + Usage(input_tokens=10, unpriced=True)
    assert mixed.cost_text() == "$0.2500 + no price for some"
    assert "$0" not in Usage(input_tokens=10, unpriced=True).cost_text()


def test_tokens_text_shows_the_cache_parts_only_when_there_are_some() -> None:
    assert FIRST.tokens_text() == "1200+40 tok (900 cached, 250 written to cache)"
    assert Usage(input_tokens=5, output_tokens=1).tokens_text() == "5+1 tok"


def test_the_stored_columns_round_trip_and_are_the_recorders() -> None:
    assert set(USAGE_COLUMNS) <= set(TURN_COLUMNS)
    row = dict(zip(USAGE_COLUMNS, SECOND.columns(), strict=True))
    assert Usage.from_columns(row) == SECOND
    assert Usage.from_columns(row, unpriced=True) == dataclasses.replace(SECOND, unpriced=True)
    assert Usage.from_columns({"input_tokens": 3}) == Usage(input_tokens=3), "a column an old row lacks is 0"
    assert [f.name for f in dataclasses.fields(Usage)][: len(USAGE_COLUMNS)] == list(USAGE_COLUMNS)


def test_a_model_without_a_price_is_unpriced_and_other_seats_are_not() -> None:
    assert has_price({"price_input_per_mtok": 0.0, "price_output_per_mtok": 8.0})
    assert not has_price({"price_input_per_mtok": 0.0, "price_output_per_mtok": 0.0})
    assert unpriced_seat({"kind": "model", "price_input_per_mtok": 0.0})
    assert not unpriced_seat({"kind": "model", "price_input_per_mtok": 1.0})
    assert not unpriced_seat({"kind": "baseline"}) and not unpriced_seat(None)
