"""The lemonade rules' fast arithmetic gives what the seed's plain formulas give, bit for bit."""

from __future__ import annotations

import itertools
import random
from typing import Any

from games.lemonade.game import Stand, _metrics
from games.lemonade.rules import (
    BASE_PRICE,
    MAX_PRICE,
    MAX_PRODUCE,
    MIN_PRICE,
    PRICE_SENSITIVITY,
    PROMOTIONS,
    LemonadeDecision,
    affordable,
    check_decision,
    production_cost,
    settle,
)
from games.lemonade.world import UNIT_COSTS, WEATHER_FACTOR, WEATHERS, WorldDay
from tests.support.gamekit import new_lemonade


def settled_by_the_seed(
    world: WorldDay, decision: LemonadeDecision, cash: float, share: float
) -> tuple[int, int, int, float, float, float, float]:
    """A day's settlement as the seed writes it: max()/min() and round(x, 2) throughout."""
    effect = PROMOTIONS[decision.promotion]
    factor = max(0.1, 1.0 - (decision.price * effect.seen_price_share - BASE_PRICE) * PRICE_SENSITIVITY)
    base = world.traffic * share * WEATHER_FACTOR[world.weather] * factor
    wanted = max(0, int(base * effect.demand_boost) + world.noise)
    sold = min(wanted, decision.produce)
    revenue = round(sold * decision.price * effect.revenue_share, 2)
    cost = round(decision.produce * world.unit_cost, 2)
    new_cash = round(cash + revenue - cost - effect.fixed_cost, 2)
    return wanted, sold, decision.produce - sold, revenue, cost, effect.fixed_cost, new_cash


def test_production_cost_is_round_to_cents_for_every_unit_cost_and_cup_count() -> None:
    for unit_cost, produce in itertools.product(UNIT_COSTS, range(MAX_PRODUCE + 1)):
        assert repr(production_cost(produce, unit_cost)) == repr(round(produce * unit_cost, 2))


def test_settle_gives_the_seed_s_values_over_many_days() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(400):
        cash = 50.0
        for day in range(1, 60):
            world = WorldDay(
                day,
                rng.choice(WEATHERS),
                25,
                rng.randint(30, 180),
                rng.choice(UNIT_COSTS),
                rng.randint(-5, 5),
            )
            promotion = rng.choice(list(PROMOTIONS))
            # Prices in cents, in tenths and anything at all; cups often a little past what cash pays for.
            price = rng.choice(
                [round(rng.uniform(MIN_PRICE, MAX_PRICE), 2), rng.randint(5, 60) / 10, rng.uniform(0.5, 6.0)]
            )
            produce = max(0, min(1000, affordable(cash, world.unit_cost, promotion) + rng.randint(-20, 3)))
            decision = LemonadeDecision(price=price, produce=produce, promotion=promotion)
            share = rng.choice([1.0, 0.5, rng.random()])
            expected = settled_by_the_seed(world, decision, cash, share)
            assert repr(tuple(settle(world, decision, cash, share))) == repr(expected)  # -0.0, int/float too
            cash = expected[-1]
            checked += 1
            if cash < world.unit_cost:
                break
    assert checked > 5000


def test_a_zero_cash_keeps_the_sign_round_gives_it() -> None:
    # 12.20 - 7.20 - 5.00 is a hair below zero in floats: round(x, 2) makes it -0.0.
    world = WorldDay(1, "rainy", 25, 30, 1.2, -5)
    decision = LemonadeDecision(price=6.0, produce=6, promotion="discount")
    expected = settled_by_the_seed(world, decision, 12.2, 1.0)
    assert repr(expected[-1]) == "-0.0"
    assert repr(tuple(settle(world, decision, 12.2, 1.0))) == repr(expected)


def test_large_whole_cent_cash_settles_as_round_does() -> None:
    rng = random.Random(9)
    world = WorldDay(1, "sunny", 30, 150, 1.8, 5)
    for _ in range(20000):
        cash = rng.randint(0, 10**9) / 100  # up to ten million, past what 1000 days can earn
        promotion = rng.choice(list(PROMOTIONS))
        decision = LemonadeDecision(
            price=rng.randint(5, 60) / 10, produce=rng.randrange(1001), promotion=promotion
        )
        expected = settled_by_the_seed(world, decision, cash, 1.0)
        assert repr(tuple(settle(world, decision, cash, 1.0))) == repr(expected)


def test_observed_cups_are_what_affordable_says() -> None:
    for seed in range(8):
        game = new_lemonade(seed, stands=3, days=40)
        rng = random.Random(seed)
        while not game.over():
            for seat in game.pending():
                cash = game.stands[seat].cash
                assert game.observation(seat).max_affordable_cups == affordable(cash, game.today.unit_cost)
            game.apply({seat: game.sample_action(seat, rng) for seat in game.pending()})


def check_by_affordable(decision: LemonadeDecision, cash: float, unit_cost: float) -> str | None:
    """The rule check through affordable(), as check_decision reads it."""
    fixed = PROMOTIONS[decision.promotion].fixed_cost
    if fixed > cash:
        return f"promotion {decision.promotion} costs {fixed:.2f} but cash is {cash:.2f}"
    limit = affordable(cash, unit_cost, decision.promotion)
    if decision.produce > limit:
        extra = f" plus {fixed:.2f} for the {decision.promotion} signs" if fixed else ""
        return (
            f"produce {decision.produce} costs {production_cost(decision.produce, unit_cost):.2f}{extra} "
            f"but cash is {cash:.2f}; you can make at most {limit} cups"
        )
    return None


def test_the_rule_check_limits_cups_as_affordable_does() -> None:
    rng = random.Random(4)
    for _ in range(20000):
        cash = rng.choice([rng.randint(0, 5000) / 100, rng.randint(0, 10**6) / 100, rng.uniform(0, 30)])
        unit_cost = rng.choice(UNIT_COSTS)
        promotion = rng.choice(list(PROMOTIONS))
        edge = affordable(cash, unit_cost, promotion)
        produce = max(0, min(1000, edge + rng.randint(-2, 2)))
        decision = LemonadeDecision(price=3.0, produce=produce, promotion=promotion)
        assert check_decision(decision, cash, unit_cost) == check_by_affordable(decision, cash, unit_cost)


def metrics_by_the_rules(stand: Stand) -> dict[str, Any]:
    """The metrics table with plain generators, as the seed's section 4.3 reads."""
    records = stand.records
    revenue = round(sum(r["revenue"] for r in records), 2)
    cost = round(sum(r["cost"] for r in records), 2)
    return {
        "final_cash": stand.cash,
        "revenue": revenue,
        "ingredient_cost": cost,
        "promotion_cost": round(sum(r["promotion_cost"] for r in records), 2),
        "wasted_cups": sum(r["waste"] for r in records),
        "gross_margin": round(1 - cost / revenue, 4) if revenue > 0 else None,
        "decision_changes": sum(
            1
            for a, b in itertools.pairwise(records)
            if a["price"] != b["price"] or a["produce"] != b["produce"]
        ),
        "bankrupt": stand.bankrupt_day is not None,
        "days_played": len(records),
    }


def test_metrics_equal_the_plain_generators() -> None:
    for seed in range(30):
        game = new_lemonade(seed, stands=2, days=(1, 2, 30, 45)[seed % 4])
        rng = random.Random(seed)
        while not game.over():
            game.apply({seat: game.sample_action(seat, rng) for seat in game.pending()})
        for stand in game.stands.values():
            assert repr(_metrics(stand)) == repr(metrics_by_the_rules(stand))
    assert repr(_metrics(Stand())) == repr(metrics_by_the_rules(Stand()))
