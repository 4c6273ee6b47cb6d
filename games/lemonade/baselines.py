"""Scripted lemonade stands. Each states a truthful reason for every decision."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from arena.contract.baseline import Baseline
from arena.contract.unvalidated import unvalidated
from games.lemonade.observation import Forecast, LemonadeObservation, SharedLemonadeObservation
from games.lemonade.rules import (
    MAX_PRICE,
    MIN_PRICE,
    PROMOTIONS,
    LemonadeDecision,
    affordable,
    price_factor,
)
from games.lemonade.world import WEATHER_FACTOR

WEATHER_PRICES = {"sunny": 3.5, "cloudy": 3.0, "rainy": 2.5}
WEATHER_PRICE_FACTORS = {weather: price_factor(price) for weather, price in WEATHER_PRICES.items()}
"""``price_factor`` of each weather price (customers see it as listed: no promotion)."""
COST_PLUS_MARKUP = 2.0
COST_PLUS_CUPS = 60
FIRST_DAY_SHARE = 0.5
"""Share of a shared street a profit-max stand plans for before any rival's price is known."""
PRICE_GRID = tuple(tenth / 10 for tenth in range(int(MIN_PRICE * 10), int(MAX_PRICE * 10) + 1))
"""The prices profit-max tries, in tenths."""
SEEN_PRICE_FACTORS = {
    promotion: tuple(price_factor(price * effect.seen_price_share) for price in PRICE_GRID)
    for promotion, effect in PROMOTIONS.items()
}
"""``price_factor`` of the price customers see, per promotion and grid price: a fixed table."""


def expected_demand(today: Forecast, price: float, promotion: str = "none") -> int:
    """Demand the public formula predicts before the day's chance (noise) is known."""
    effect = PROMOTIONS[promotion]
    base = today.traffic * WEATHER_FACTOR[today.weather] * price_factor(price * effect.seen_price_share)
    return max(0, int(base * effect.demand_boost))


class LemonadeBaseline(Baseline[LemonadeObservation, LemonadeDecision]):
    """A scripted stand: one decision each morning from its observation."""

    @staticmethod
    def forecast(observation: LemonadeObservation) -> Forecast:
        """Today's forecast (a stand is asked only while the season runs)."""
        assert observation.today is not None, "a stand is asked only while the season runs"
        return observation.today


class CostPlusStand(LemonadeBaseline):
    """Prices at twice today's ingredient cost and always makes 60 cups (or what it can pay)."""

    name = "cost-plus"

    def choose(self, observation: LemonadeObservation) -> LemonadeDecision:
        today = observation.today  # self.forecast(observation), without the call
        assert today is not None, "a stand is asked only while the season runs"
        price, reason = _cost_plus_terms(today.unit_cost)
        cups = COST_PLUS_CUPS
        if observation.max_affordable_cups < cups:
            cups = observation.max_affordable_cups
            reason += f", cut to {cups} because that is all the cash pays for"
        return _decision(price, cups, reason)


@functools.lru_cache(maxsize=64)
def _cost_plus_terms(unit_cost: float) -> tuple[float, str]:
    """Cost-plus's price at ``unit_cost`` and the reason it gives for a full day (a few cup costs recur)."""
    price = round(min(MAX_PRICE, max(MIN_PRICE, unit_cost * COST_PLUS_MARKUP)), 2)
    reason = (
        f"cost-plus: price {price:.2f} is {COST_PLUS_MARKUP:g}x the {unit_cost:.2f} "
        f"cup cost; fixed {COST_PLUS_CUPS} cups"
    )
    return price, reason


class WeatherStand(LemonadeBaseline):
    """Sets a price per weather and makes as many cups as the formula expects to sell."""

    name = "weather"

    def choose(self, observation: LemonadeObservation) -> LemonadeDecision:
        today = observation.today  # self.forecast(observation), without the call
        assert today is not None, "a stand is asked only while the season runs"
        weather, traffic = today.weather, today.traffic
        price, weather_factor, price_factor_, _ = _WEATHER_TERMS[weather]
        # expected_demand(today, price) with no promotion: its boost and seen-price share are 1.0.
        expected = int(traffic * weather_factor * price_factor_)
        expected = expected if expected > 0 else 0
        cups = observation.max_affordable_cups
        if expected <= cups:
            cups = expected
        return _decision(price, cups, _weather_reason(weather, traffic, expected, cups))


@functools.lru_cache(maxsize=1024)
def _weather_reason(weather: str, traffic: int, expected: int, cups: int) -> str:
    """The weather stand's reason (the same weathers, traffics and so cups recur from episode to episode)."""
    capped = " (all the cash pays for)" if cups < expected else ""
    return (
        f"{weather} day with traffic {traffic}: price {_WEATHER_TERMS[weather][3]}, "
        f"expect about {expected} cups, make {cups}{capped}"
    )


_WEATHER_TERMS = {
    weather: (price, WEATHER_FACTOR[weather], WEATHER_PRICE_FACTORS[weather], f"{price:.2f}")
    for weather, price in WEATHER_PRICES.items()
}
"""Per weather: the weather stand's price, the weather's factor, the price's factor and the price as text."""


_DECISION_FIELDS = frozenset(LemonadeDecision.model_fields)


def _decision(price: float, produce: int, reason: str) -> LemonadeDecision:
    """A decision without a promotion, built without validation.

    Only for cost-plus and weather: their price is a fixed or clamped one in range, their
    cups at most what the cash pays for (at most ``MAX_PRODUCE``), their reason short. The
    model is not frozen, so each decision gets its own set of fields set.
    """
    values = {"price": price, "produce": produce, "promotion": "none", "reason": reason}
    return unvalidated(LemonadeDecision, values, set(_DECISION_FIELDS))


@dataclass(frozen=True, slots=True)
class Street:
    """How a stand expects today's customers to split, worked out once per morning.

    On a shared street the rivals are assumed to repeat yesterday's prices and promotions,
    and the customers split by the game's own rule (``rules.shared_traffic_shares``). On the
    first morning nobody's price is known yet: the stand plans for one rival at its own price.
    """

    fixed: float | None
    """The share when it does not depend on this stand's price (1.0 unless the street is shared)."""
    rival_appeals: tuple[float, ...] = ()
    """Each rival's ``price_factor`` of the price its customers see, in seat order."""

    @classmethod
    def of(cls, observation: LemonadeObservation) -> Street:
        """The street ``observation`` shows."""
        if not isinstance(observation, SharedLemonadeObservation):
            return cls(1.0)
        rivals = observation.rivals_yesterday.values()
        if not rivals and observation.day <= 1:
            return cls(FIRST_DAY_SHARE)
        appeals = tuple(price_factor(r.price * PROMOTIONS[r.promotion].seen_price_share) for r in rivals)
        return cls(None, appeals)

    def share(self, appeal: float) -> float:
        """This stand's share when its seen price has ``price_factor`` ``appeal``."""
        if self.fixed is not None:
            return self.fixed
        # shared_traffic_shares' split: the same appeals summed in the same order give the same float.
        return appeal / sum((appeal, *self.rival_appeals))


def expected_share(observation: LemonadeObservation, price: float, promotion: str) -> float:
    """This stand's share of today's customers at ``price`` (see :class:`Street`)."""
    return Street.of(observation).share(price_factor(price * PROMOTIONS[promotion].seen_price_share))


class ProfitMaxStand(LemonadeBaseline):
    """Searches price and promotion for the best expected profit under the public demand formula.

    On a shared street it expects its share of the customers given the rivals' prices of
    yesterday (and half of them on the first morning).
    """

    name = "profit-max"

    def choose(self, observation: LemonadeObservation) -> LemonadeDecision:
        today = self.forecast(observation)
        street = Street.of(observation)
        # expected_demand and expected_share term by term, with what stays fixed this morning hoisted.
        crowd = today.traffic * WEATHER_FACTOR[today.weather]
        unit_cost, fixed_share = today.unit_cost, street.fixed
        best: tuple[float, float, str, int, float] = (-1e9, 3.0, "none", 0, 1.0)
        for promotion, effect in PROMOTIONS.items():
            if effect.fixed_cost > observation.cash:
                continue
            limit = affordable(observation.cash, unit_cost, promotion)
            boost, revenue_share, signs = effect.demand_boost, effect.revenue_share, effect.fixed_cost
            for price, factor in zip(PRICE_GRID, SEEN_PRICE_FACTORS[promotion], strict=True):
                share = fixed_share if fixed_share is not None else street.share(factor)
                cups = min(int(max(0, int(crowd * factor * boost)) * share), limit)
                profit = cups * (price * revenue_share - unit_cost) - signs
                if profit > best[0]:
                    best = (profit, price, promotion, cups, share)
        profit, price, promotion, cups, share = best
        split = f", expecting {share:.0%} of the street's customers" if share < 1.0 else ""
        return LemonadeDecision(
            price=price,
            produce=cups,
            promotion=promotion,
            reason=f"best expected profit {profit:.2f} at price {price:.2f} with {promotion}, "
            f"making the {cups} cups the formula expects to sell{split}",
        )


class RandomStand(LemonadeBaseline):
    """Picks a random legal price, production and promotion."""

    name = "random"

    def choose(self, observation: LemonadeObservation) -> LemonadeDecision:
        price = round(self.rng.uniform(MIN_PRICE, MAX_PRICE), 1)
        cups = self.rng.randint(0, observation.max_affordable_cups)
        promotion = self.rng.choice([p for p, e in PROMOTIONS.items() if e.fixed_cost <= observation.cash])
        cups = min(cups, affordable(observation.cash, self.forecast(observation).unit_cost, promotion))
        return LemonadeDecision(
            price=price,
            produce=cups,
            promotion=promotion,
            reason=f"random: drew price {price:.2f}, {cups} cups and {promotion}",
        )


BASELINES: dict[str, type[LemonadeBaseline]] = {
    cls.name: cls for cls in (CostPlusStand, WeatherStand, ProfitMaxStand, RandomStand)
}
"""The scripted stands by name (the definition lists them with ``baseline_table``)."""
