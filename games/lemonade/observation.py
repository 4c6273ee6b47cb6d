"""What one stand may know on a morning: the typed observation of the lemonade stand.

It is the single source of the prompt, the baselines and a seat's view. The demand noise
of the day is not in it; other stands appear only in the shared market, and only with
yesterday's public price and promotion.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

_FIELD_NAMES: dict[type[BaseModel], set[str]] = {}
"""Each snapshot model's field names. Kept out of the classes: any attribute read on a pydantic
model class goes through its metaclass's ``__getattr__`` hook, several times slower than a dict."""


class _Snapshot(BaseModel):
    """Base of the observation's models: frozen, and cheap to build from the game's own values.

    The game builds them with ``arena.contract.unvalidated.unvalidated(cls, values, field_names(cls))``
    from values it computed itself (every field, in field order, each already of its type), never
    from a player's input: a day's play builds several, and validating them again would cost more
    than the rest of the day. ``tests/games/test_lemonade_trusted.py`` checks they equal validated
    ones, dumps included.
    """

    model_config = ConfigDict(frozen=True)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        _FIELD_NAMES[cls] = set(cls.model_fields)


def field_names(cls: type[_Snapshot]) -> set[str]:
    """``cls``'s field names: the fields set every model of ``cls`` built without validation shares."""
    return _FIELD_NAMES[cls]


class Forecast(_Snapshot):
    """The morning forecast of one day (everything but the demand noise)."""

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


class RivalDay(_Snapshot):
    """Another stand's public choices yesterday (shared market only)."""

    price: float
    promotion: str


class LemonadeObservation(_Snapshot):
    """One stand's morning: the day, today's forecast, its cash and its last days."""

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
