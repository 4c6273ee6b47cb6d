"""The one lemonade prompt template (seed section 3): goal, rules and state, no strategy hints.

Every provider gets exactly this text; only the client differs. The template and the
rules text are hashed into the game's prompt version.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from games.lemonade.rules import (
    BASE_PRICE,
    MAX_PRICE,
    MIN_PRICE,
    PRICE_SENSITIVITY,
    PROMOTIONS,
    STARTING_CASH,
)
from games.lemonade.world import NOISE_RANGE, WEATHER_FACTOR

if TYPE_CHECKING:  # listing the games (``arena games``) builds no observation model
    from games.lemonade.observation import DayRecord, LemonadeObservation

RULES = """\
You run a lemonade stand for {days} days, starting with {start_cash:.2f} yuan in cash.
Goal: have as much cash as possible at the end of day {days}.
Each morning you see the weather, temperature, expected customer traffic and today's
ingredient cost per cup, then decide:
- price: price per cup in yuan, from {min_price} to {max_price}.
- produce: whole number of cups to make today. All cups are paid for in the morning at
  today's ingredient cost, so you cannot make more than your cash pays for (after
  the cost of any promotion signs).
- promotion: one of
{promotions}
Customers buy up to the number of cups they want, which depends on traffic, weather,
the price they see and chance. Cups not sold by evening are thrown away.
If your cash can no longer pay for a single cup in the morning, the stand is bankrupt
and stops. A decision that breaks these rules is replaced by: price 3.00, the average
production of your last three days (20 cups on day 1) and no promotion.{market_note}"""

DEMAND_NOTE = (
    "Demand (the public formula the profit-max baseline plans with): cups wanted = traffic"
    f" x weather factor (sunny {WEATHER_FACTOR['sunny']}, cloudy {WEATHER_FACTOR['cloudy']},"
    f" rainy {WEATHER_FACTOR['rainy']}) x price factor x promotion boost, plus chance (a whole"
    f" number from -{NOISE_RANGE} to +{NOISE_RANGE}), never below 0; price factor = 1 -"
    f" (price seen - {BASE_PRICE:.1f}) x {PRICE_SENSITIVITY}, at least 0.1. The price seen is your"
    f" price ({PROMOTIONS['discount'].seen_price_share:.0%} of it with a discount); the boost is"
    f" {PROMOTIONS['discount'].demand_boost} with a discount, {PROMOTIONS['bundle'].demand_boost}"
    " with a bundle, else 1. On a shared street the customers split between the stands by the"
    " prices they see. You sell at most the cups you made: demand above them is lost sales."
)
"""For people only (the rules screen): how many cups customers want. Not in the prompt."""

SHARED_NOTE = """
Market: you share the street with other stands. Today's customers split between the
stands according to the prices they see; you see the others' prices from yesterday."""

TEMPLATE = """\
{rules}

Today is day {day} of {days}.
Weather: {weather}, {temperature} degrees C
Expected customer traffic: about {traffic} people
Ingredient cost: {unit_cost:.2f} yuan per cup
Cash: {cash:.2f} yuan (enough for at most {max_cups} cups today without a promotion)
{rivals}
Your last {shown} days (oldest first):
{history}

Reply with only a JSON object with these fields:
- "price": number, price per cup in yuan ({min_price} to {max_price})
- "produce": integer, cups to make today (0 to {max_cups}: what your cash pays for now)
- "promotion": "none", "discount" or "bundle"
- "reason": why, in your own words"""


@functools.cache
def rules_text(days: int, market: str) -> str:
    """The rules every stand is told."""
    promotions = "\n".join(f"  {name}: {effect.summary}" for name, effect in PROMOTIONS.items())
    return RULES.format(
        days=days,
        start_cash=STARTING_CASH,
        min_price=MIN_PRICE,
        max_price=MAX_PRICE,
        promotions=promotions,
        market_note=SHARED_NOTE if market == "shared" else "",
    )


def history_line(record: DayRecord) -> str:
    """One past day as the prompt shows it."""
    return (
        f"day {record.day}: {record.weather}, {record.temperature}C, traffic {record.traffic}, "
        f"cost {record.unit_cost:.2f}, price {record.price:.2f}, promo {record.promotion}, "
        f"made {record.produce}, sold {record.sold}, wasted {record.waste}, "
        f"cash {record.cash:.2f}"
    )


def render(observation: LemonadeObservation, rules: str) -> str:
    """Fill the template from a seat's observation (asked only while the game is on)."""
    today = observation.today
    if today is None:
        raise ValueError("the lemonade season is over: there is no morning to decide")
    history = observation.recent_days
    from games.lemonade.observation import SharedLemonadeObservation

    rivals = observation.rivals_yesterday if isinstance(observation, SharedLemonadeObservation) else None
    rivals_text = ""
    if rivals:
        rivals_text = (
            "Other stands yesterday: "
            + "; ".join(
                f"{seat}: price {info.price:.2f}, promo {info.promotion}" for seat, info in rivals.items()
            )
            + "\n"
        )
    return TEMPLATE.format(
        rules=rules,
        day=observation.day,
        days=observation.days,
        weather=today.weather,
        temperature=today.temperature,
        traffic=today.traffic,
        unit_cost=today.unit_cost,
        cash=observation.cash,
        max_cups=observation.max_affordable_cups,
        rivals=rivals_text,
        shown=len(history),
        history="\n".join(history_line(r) for r in history) or "(none yet)",
        min_price=MIN_PRICE,
        max_price=MAX_PRICE,
    )
