"""What one stand may know on a morning: the typed observation of the lemonade stand.

It is the single source of the prompt, the baselines and a seat's view. The demand noise
of the day is not in it; other stands appear only in the shared market, and only with
yesterday's public price and promotion.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class Forecast(BaseModel):
    """The morning forecast of one day (everything but the demand noise)."""

    model_config = ConfigDict(frozen=True)

    day: int
    weather: str
    temperature: int
    traffic: int
    unit_cost: float


class DayRecord(Forecast):
    """One played day of one stand: the forecast, the decision and how it went."""

    price: float
    produce: int
    promotion: str
    demand: int
    sold: int
    waste: int
    revenue: float
    cost: float
    promotion_cost: float
    cash: float


class RivalDay(BaseModel):
    """Another stand's public choices yesterday (shared market only)."""

    model_config = ConfigDict(frozen=True)

    price: float
    promotion: str


class LemonadeObservation(BaseModel):
    """One stand's morning: the day, today's forecast, its cash and its last days."""

    model_config = ConfigDict(frozen=True)

    day: int
    days: int
    market: Literal["identical", "shared"]
    today: Forecast | None
    cash: float
    max_affordable_cups: int
    recent_days: list[DayRecord]


class SharedLemonadeObservation(LemonadeObservation):
    """A stand's morning on a shared street: also the other stands' choices of yesterday."""

    rivals_yesterday: dict[str, RivalDay]
