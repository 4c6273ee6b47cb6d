"""Pure rules of the lemonade stand: the decision, the demand model and a day's settlement.

Demand (seed section 2.2): ``traffic x weather factor x price factor + noise``, never
below zero, with ``price factor = max(0.1, 1 - (price - 3.0) x 0.4)``. Promotions change
the price customers react to, add a demand boost and change what a cup brings in:

* ``none``: customers see your price, each cup brings in your price.
* ``discount``: 20% off. Customers see and pay 80% of your price, and the sale sign
  draws 15% more customers.
* ``bundle``: two cups for 1.5x your price. Customers react to your listed price, buy
  30% more cups, and each cup brings in 75% of your price.

Either promotion costs a fixed 5.00 for signs that morning, so it only pays on a day
with enough customers.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from games.lemonade.world import WEATHER_FACTOR, WorldDay

BASE_PRICE = 3.0
MIN_PRICE = 0.5
MAX_PRICE = 6.0
MAX_PRODUCE = 1000
STARTING_CASH = 50.0
PRICE_SENSITIVITY = 0.4
PROMOTION_COST = 5.0

Promotion = Literal["none", "discount", "bundle"]


@dataclass(frozen=True, slots=True)
class PromotionEffect:
    """How a promotion changes the seen price, demand and revenue per cup."""

    seen_price_share: float
    demand_boost: float
    revenue_share: float
    fixed_cost: float
    summary: str


PROMOTIONS: dict[str, PromotionEffect] = {
    "none": PromotionEffect(1.0, 1.0, 1.0, 0.0, "no promotion: customers see and pay your price"),
    "discount": PromotionEffect(
        0.8,
        1.15,
        0.8,
        PROMOTION_COST,
        "20% off: customers see and pay 80% of your price, and 15% more of them buy; signs cost 5.00",
    ),
    "bundle": PromotionEffect(
        1.0,
        1.3,
        0.75,
        PROMOTION_COST,
        "two cups for 1.5x your price: 30% more cups sold at your listed price, each bringing in 75% "
        "of it; signs cost 5.00",
    ),
}


class LemonadeDecision(BaseModel):
    """One day's decision for one stand."""

    model_config = ConfigDict(extra="ignore")

    price: float = Field(ge=MIN_PRICE, le=MAX_PRICE, description="price per cup in yuan, 0.5 to 6.0")
    produce: int = Field(ge=0, le=MAX_PRODUCE, description="cups to make today (whole number, paid now)")
    promotion: Promotion = Field(default="none", description="none, discount or bundle")
    # Not "one sentence explaining the decision": the offline model wrote that back as its reason.
    reason: str = Field(default="", max_length=2000, description="your own words: why this price and amount")


@functools.cache
def decision_model(max_cups: int) -> type[LemonadeDecision]:
    """The decision as asked on a morning whose cash pays for at most ``max_cups`` cups.

    Its schema says so (``maximum``, and in words), so a model decoding under a grammar cannot
    ask for more; validation is the same as :class:`LemonadeDecision`'s (the game's rule
    check names an unaffordable amount, with or without a promotion's cost).
    """

    class MorningDecision(LemonadeDecision):
        produce: int = Field(
            ge=0,
            le=MAX_PRODUCE,
            json_schema_extra={"maximum": max_cups},
            description=f"cups to make today: a whole number from 0 to {max_cups} (what your cash pays for)",
        )

    MorningDecision.__name__ = MorningDecision.__qualname__ = LemonadeDecision.__name__
    return MorningDecision


class DayOutcome(NamedTuple):
    """What one stand's day came to."""

    demand: int
    sold: int
    waste: int
    revenue: float
    cost: float
    promotion_cost: float
    cash: float


# The rules below run for every stand every day, in the game and in the tests alike: they
# clamp with comparisons rather than min()/max(), which cost several times more per call
# (same values, ties included).


def price_factor(price: float) -> float:
    """The seed's price response: 1 at the base price, 40% less per extra yuan, floor 0.1."""
    factor = 1.0 - (price - BASE_PRICE) * PRICE_SENSITIVITY
    return factor if factor > 0.1 else 0.1


def demand(world: WorldDay, price: float, promotion: str, traffic_share: float = 1.0) -> int:
    """Cups customers want today at ``price`` with ``promotion`` (noise included)."""
    effect = PROMOTIONS[promotion]
    seen = price * effect.seen_price_share
    base = world.traffic * traffic_share * WEATHER_FACTOR[world.weather] * price_factor(seen)
    wanted = int(base * effect.demand_boost) + world.noise
    return wanted if wanted > 0 else 0


def production_cost(produce: int, unit_cost: float) -> float:
    """What making ``produce`` cups costs in the morning: ``round(produce * unit_cost, 2)``.

    Written as ``round(x * 100) / 100``, about 100 ns less, which is the same for a whole-cent
    ``unit_cost`` (every one the world draws) and up to :data:`MAX_PRODUCE` cups, as the note
    on cash below argues (a test checks every such pair).
    """
    return round(produce * unit_cost * 100) / 100


def settle(
    world: WorldDay, decision: LemonadeDecision, cash: float, traffic_share: float = 1.0
) -> DayOutcome:
    """Settle one stand's day: sold = min(demand, produce); unsold cups are waste.

    ``cash`` is a whole number of cents, as every cash the game holds is.
    """
    price, produce, promotion = decision.price, decision.produce, decision.promotion
    effect = PROMOTIONS[promotion]
    wanted = demand(world, price, promotion, traffic_share)
    sold = wanted if wanted < produce else produce
    revenue = round(sold * price * effect.revenue_share, 2)
    cost = production_cost(produce, world.unit_cost)
    promotion_cost = effect.fixed_cost
    cash = cash + revenue - cost - promotion_cost
    # round(cash, 2), for about 100 ns less (see the note below); a zero keeps round's sign.
    whole = round(cash * 100)
    cash = whole / 100 if whole else round(cash, 2)
    # DayOutcome(...) without its Python-level __new__.
    return _new_tuple(DayOutcome, (wanted, sold, produce - sold, revenue, cost, promotion_cost, cash))


_new_tuple = tuple.__new__

# Cost and cash: ``round(x * 100) / 100`` stands for ``round(x, 2)`` where x is within 1e-6
# of a whole number n of cents and under 1e9. Why that is exact: ``round(x, 2)`` is the double
# nearest to x rounded to two decimals, which is n cents as x is that close to it; ``x * 100``
# lies within 1e-3 of the integer n, so ``round(x * 100)`` is n and ``n / 100``, one correctly
# rounded division, is that same double. Only a zero differs: ``round(x, 2)`` keeps the sign of
# a tiny negative x (-0.0), so a cash of zero goes through round() (a cost is never negative).
# The game's amounts are that close: cup costs are whole cents (1.20, 1.50, 1.80) times at most
# 1000 cups, off by under 1e-12; starting cash, promotion costs, revenue (``round(..., 2)``) and
# so every later cash are whole-cent doubles under 1e7, and a day's cash is a sum of four of
# them, off by a few units in the last place (under 1e-8).


def affordable(cash: float, unit_cost: float, promotion: str = "none") -> int:
    """Most cups ``cash`` can pay for at ``unit_cost`` after the promotion's fixed cost."""
    budget = cash - PROMOTIONS[promotion].fixed_cost
    cups = int((budget + 1e-9) // unit_cost)
    return 0 if cups < 0 else MAX_PRODUCE if cups > MAX_PRODUCE else cups


def check_decision(decision: LemonadeDecision, cash: float, unit_cost: float) -> str | None:
    """Rule checks beyond the schema (seed section 4.2); an explanation if illegal."""
    fixed = PROMOTIONS[decision.promotion].fixed_cost
    if fixed > cash:
        return f"promotion {decision.promotion} costs {fixed:.2f} but cash is {cash:.2f}"
    # affordable(cash, unit_cost, decision.promotion), written out: every decision is checked.
    limit = int((cash - fixed + 1e-9) // unit_cost)
    limit = 0 if limit < 0 else MAX_PRODUCE if limit > MAX_PRODUCE else limit
    if decision.produce > limit:
        extra = f" plus {fixed:.2f} for the {decision.promotion} signs" if fixed else ""
        return (
            f"produce {decision.produce} costs {production_cost(decision.produce, unit_cost):.2f}{extra} "
            f"but cash is {cash:.2f}; you can make at most {limit} cups"
        )
    return None


def shared_traffic_shares(prices: dict[str, float], promotions: dict[str, str]) -> dict[str, float]:
    """Shared market: stands split today's customers in proportion to price appeal.

    Appeal is the price factor of the price customers see; equal prices split evenly.
    """
    appeal = {
        seat: price_factor(prices[seat] * PROMOTIONS[promotions[seat]].seen_price_share) for seat in prices
    }
    total = sum(appeal.values())
    return {seat: value / total for seat, value in appeal.items()}
