"""Numbers a person types: seeds SQLite can store, budgets that make sense."""

from __future__ import annotations

import pytest

from arena.engine.match import MatchConfig, play_match
from arena.engine.user_input import INT64_MAX, INT64_MIN, budget_problem, parse_seed
from arena.plugins.players import SpecError
from arena.store.database import Store


def test_seeds_are_signed_64_bit_integers() -> None:
    assert parse_seed(f" {INT64_MAX} ") == INT64_MAX and parse_seed(str(INT64_MIN)) == INT64_MIN
    for text in (str(INT64_MAX + 1), str(INT64_MIN - 1), "9" * 30):
        with pytest.raises(ValueError, match="signed 64-bit"):
            parse_seed(text)
    with pytest.raises(ValueError, match="seed must be an integer, got 'x'"):
        parse_seed("x")


def test_budgets_are_zero_or_more() -> None:
    assert budget_problem(None, None) is None and budget_problem(0.0, 0) is None
    assert budget_problem(2.5, 1000) is None
    assert "--budget-usd" in (budget_problem(-0.01, None) or "")
    assert "--budget-usd" in (budget_problem(float("inf"), None) or "")
    assert "--budget-tokens" in (budget_problem(None, -5) or "")


async def test_every_front_end_is_refused_a_seed_the_store_cannot_hold(store: Store) -> None:
    config = MatchConfig(
        game="bargain", seats={"seller": "baseline:honest", "buyer": "baseline:honest"}, seed=INT64_MAX + 1
    )
    with pytest.raises(SpecError, match="signed 64-bit"):
        await play_match(config, store)
    assert store.list_episodes() == []
    config.seed = INT64_MAX
    assert (await play_match(config, store)).status == "finished"
    assert store.list_episodes()[0]["seed"] == INT64_MAX
