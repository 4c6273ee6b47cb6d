"""The lemonade stand against the seed's formulas, rules and metrics."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from games.lemonade.rules import LemonadeDecision, demand, price_factor, settle
from games.lemonade.world import WorldDay, generate_world
from tests.support.gamekit import new_lemonade, observed, prompt_of


def test_world_follows_the_seed_draw_order() -> None:
    # The seed's loop: choices(weights 0.4/0.4/0.2), randint(22, 35),
    # max(30, int(gauss(100, 20))), choice(costs).
    rng = random.Random(42)
    world = generate_world(42, 30)
    for day in world:
        assert day.weather == rng.choices(["sunny", "cloudy", "rainy"], weights=[0.4, 0.4, 0.2])[0]
        assert day.temperature == rng.randint(22, 35)
        assert day.traffic == max(30, int(rng.gauss(100, 20)))
        assert day.unit_cost == rng.choice([1.2, 1.5, 1.8])
        assert -5 <= day.noise <= 5


def test_world_draws_are_the_random_module_calls_they_stand_for() -> None:
    for seed in [*range(300), 2**40 + 3]:
        # 40 days, and a short season too: an odd number of days leaves gauss() a spare deviate
        for days in (40, seed % 3 + 1):
            rng, noise_rng = random.Random(seed), random.Random(f"lemonade-noise:{seed}")
            expected = [
                WorldDay(
                    day,
                    rng.choices(["sunny", "cloudy", "rainy"], weights=[0.4, 0.4, 0.2])[0],
                    rng.randint(22, 35),
                    max(30, int(rng.gauss(100, 20))),
                    rng.choice([1.2, 1.5, 1.8]),
                    noise_rng.randint(-5, 5),
                )
                for day in range(1, days + 1)
            ]
            world = generate_world(seed, days)
            assert repr(world) == repr(expected)  # to the type: 30 is not 30.0
            assert all(type(day) is WorldDay for day in world)


def test_world_ignores_the_global_random() -> None:
    random.seed(1)
    first = generate_world(7, 30)
    random.seed(2)
    assert generate_world(7, 30) == first
    assert generate_world(8, 30) != first


def test_price_factor_matches_the_seed() -> None:
    assert price_factor(3.0) == 1.0
    assert price_factor(4.0) == pytest.approx(0.6)
    assert price_factor(2.0) == pytest.approx(1.4)
    assert price_factor(6.0) == pytest.approx(0.1)  # floor


def test_demand_formula_and_floor() -> None:
    day = WorldDay(1, "sunny", 30, 100, 1.5, noise=3)
    assert demand(day, 3.0, "none") == int(100 * 1.3 * 1.0) + 3
    rainy = WorldDay(1, "rainy", 30, 30, 1.5, noise=-5)
    assert demand(rainy, 6.0, "none") == 0  # int(30*0.5*0.1) - 5 < 0 -> 0


def test_promotions_change_seen_price_demand_and_revenue() -> None:
    day = WorldDay(1, "cloudy", 25, 100, 1.2, noise=0)
    assert demand(day, 3.0, "discount") == int(100 * 1.0 * price_factor(2.4) * 1.15)
    assert demand(day, 3.0, "bundle") == int(100 * 1.0 * 1.0 * 1.3)
    outcome = settle(day, LemonadeDecision(price=3.0, produce=10, promotion="bundle"), cash=50)
    assert outcome.sold == 10
    assert outcome.revenue == pytest.approx(10 * 3.0 * 0.75)
    assert outcome.cash == pytest.approx(50 + 22.5 - 12.0 - 5.0)


def test_settle_counts_waste_and_cash() -> None:
    day = WorldDay(1, "rainy", 25, 100, 1.5, noise=0)
    outcome = settle(day, LemonadeDecision(price=3.0, produce=80), cash=200)
    assert outcome.demand == 50
    assert (outcome.sold, outcome.waste) == (50, 30)
    assert outcome.cash == pytest.approx(200 + 150 - 120)


def test_schema_rejects_out_of_range_price_and_negative_produce() -> None:
    with pytest.raises(ValidationError):
        LemonadeDecision(price=7.0, produce=10)
    with pytest.raises(ValidationError):
        LemonadeDecision(price=0.4, produce=10)
    with pytest.raises(ValidationError):
        LemonadeDecision(price=3.0, produce=-1)
    with pytest.raises(ValidationError):
        LemonadeDecision.model_validate({"price": 3.0, "produce": 10, "promotion": "free"})


def test_rules_reject_what_cash_cannot_pay() -> None:
    game = new_lemonade(1)
    cost = game.today.unit_cost
    most = int(50 // cost)
    assert game.validate("a", LemonadeDecision(price=3, produce=most)) is None
    problem = game.validate("a", LemonadeDecision(price=3, produce=most + 1))
    assert problem is not None and "at most" in problem
    assert game.validate("a", LemonadeDecision(price=3, produce=most, promotion="discount")) is not None


def test_fallback_is_base_price_average_of_last_three_days() -> None:
    game = new_lemonade(3)
    first = game.fallback("a")
    assert isinstance(first, LemonadeDecision)
    assert (first.price, first.produce, first.promotion) == (3.0, 20, "none")
    for produce in (10, 20, 40, 30):
        game.apply({seat: LemonadeDecision(price=3.0, produce=produce) for seat in game.pending()})
    fallback = game.fallback("a")
    assert isinstance(fallback, LemonadeDecision)
    assert fallback.produce == min(30, int(game.stands["a"].cash // game.today.unit_cost))


def test_identical_world_same_decisions_same_results() -> None:
    game = new_lemonade(11)
    while not game.over():
        decision = LemonadeDecision(
            price=3.2, produce=min(60, int(game.stands["a"].cash // game.today.unit_cost))
        )
        game.apply(dict.fromkeys(game.pending(), decision))
    results = game.result()
    assert results["a"].score == results["b"].score
    assert game.stands["a"].records == game.stands["b"].records


def test_bankruptcy_stops_a_stand_early() -> None:
    game = new_lemonade(5)
    # Stand a spends everything on cups sold below cost; b makes nothing.
    while not game.over() and "a" in game.pending():
        affordable = int(game.stands["a"].cash // game.today.unit_cost)
        game.apply(
            {
                "a": LemonadeDecision(price=0.5, produce=affordable),
                "b": LemonadeDecision(price=3.0, produce=0),
            }
        )
    assert game.stands["a"].bankrupt_day is not None
    assert game.pending() == ["b"] or game.over()
    assert game.result()["a"].metrics["bankrupt"] is True
    assert game.result()["a"].metrics["days_played"] < 30


def test_metrics_follow_the_seed_table() -> None:
    game = new_lemonade(9, days=3)
    plan = [(3.0, 40), (3.5, 40), (3.5, 30)]
    for price, produce in plan:
        game.apply({seat: LemonadeDecision(price=price, produce=produce) for seat in game.pending()})
    records = game.stands["a"].records
    metrics = game.result()["a"].metrics
    assert metrics["final_cash"] == records[-1]["cash"]
    assert metrics["revenue"] == pytest.approx(sum(r["price"] * r["sold"] for r in records))
    assert metrics["ingredient_cost"] == pytest.approx(sum(r["produce"] * r["unit_cost"] for r in records))
    assert metrics["wasted_cups"] == sum(r["waste"] for r in records)
    assert metrics["gross_margin"] == pytest.approx(
        1 - metrics["ingredient_cost"] / metrics["revenue"], abs=1e-4
    )
    assert metrics["decision_changes"] == 2  # day 2 changed price, day 3 changed production


def test_shared_market_splits_customers_on_price() -> None:
    game = new_lemonade(4, market="shared")
    game.apply(
        {
            "a": LemonadeDecision(price=2.0, produce=30),
            "b": LemonadeDecision(price=5.0, produce=30),
        }
    )
    a, b = game.stands["a"].records[-1], game.stands["b"].records[-1]
    assert a["demand"] > b["demand"]
    assert observed(game, "a")["rivals_yesterday"] == {"b": {"price": 5.0, "promotion": "none"}}


def test_observation_is_own_stand_only() -> None:
    game = new_lemonade(2)
    game.apply({"a": LemonadeDecision(price=3.0, produce=10), "b": LemonadeDecision(price=4.0, produce=20)})
    observation = observed(game, "a")
    assert all(record["price"] == 3.0 for record in observation["recent_days"])
    assert "noise" not in observation["today"]


def test_prompt_carries_the_last_seven_days_and_cash() -> None:
    game = new_lemonade(6)
    for _ in range(9):
        game.apply({seat: LemonadeDecision(price=3.0, produce=10) for seat in game.pending()})
    prompt = prompt_of(game, "a")
    assert "day 3:" in prompt and "day 9:" in prompt and "day 2:" not in prompt
    assert f"Cash: {game.stands['a'].cash:.2f}" in prompt
    assert "rain" in prompt  # the rules explain weather; no strategy hint about it
    assert "should" not in prompt.lower()
