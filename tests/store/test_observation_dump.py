"""The observation dumper gives exactly ``model_dump(mode="json")``, reusing item dumps where it may."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from pydantic import BaseModel, ConfigDict, Field, computed_field, field_serializer

from arena.contract.unvalidated import unvalidated
from arena.plugins.games import get_game
from arena.store.observation_dump import ObservationDumper
from games.lemonade.observation import DayRecord, Forecast


def played_observations(market: str, days: int = 12) -> list[BaseModel]:
    """Every seat's observation of every morning of a lemonade season played with fallbacks."""
    definition = get_game("lemonade")
    game = definition.new_state(
        7, definition.parse_options(definition.resolve_options({"days": days, "market": market}))
    )
    seen: list[BaseModel] = []
    while not game.over():
        seen.extend(game.observation(seat) for seat in game.pending())
        game.apply({seat: game.fallback(seat) for seat in game.pending()})
    seen.extend(game.observation(seat) for seat in game.seats)
    return seen


def same_dump(dumped: dict[str, Any], observation: BaseModel) -> bool:
    """Equal values and the same JSON bytes (so the same key order: the turn digest depends on it)."""
    expected = observation.model_dump(mode="json")
    return dumped == expected and orjson.dumps(dumped) == orjson.dumps(expected)


@pytest.mark.parametrize("market", ["identical", "shared"])
def test_a_lemonade_season_dumps_as_pydantic_does_and_each_day_once(market: str) -> None:
    dumper = ObservationDumper()
    observations = played_observations(market)
    dumps = [dumper.dump(observation) for observation in observations]
    for dumped, observation in zip(dumps, observations, strict=True):
        assert same_dump(dumped, observation)
    # The same day record seen on two mornings is one dict: dumped once, not twice.
    first, later = dumps[2]["recent_days"], dumps[4]["recent_days"]
    assert first[-1] == later[-2] and first[-1] is later[-2]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)

    n: int
    tags: list[str] = Field(default_factory=list)


class Thawed(BaseModel):
    n: int


class Holder(BaseModel):
    label: str
    items: list[Frozen]
    after: float = 1.5


class Custom(BaseModel):
    items: list[Frozen]

    @field_serializer("items")
    def _count(self, items: list[Frozen]) -> int:
        return len(items)


class Computed(BaseModel):
    items: list[Frozen]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def total(self) -> int:
        return len(self.items)


class Aliased(BaseModel):
    model_config = ConfigDict(serialize_by_alias=True)

    items: list[Frozen] = Field(serialization_alias="things")


class Mutable(BaseModel):
    items: list[Thawed]


class Forecasts(BaseModel):
    days: list[Forecast]


def test_list_fields_in_the_middle_keep_pydantic_key_order() -> None:
    holder = Holder(label="x", items=[Frozen(n=1), Frozen(n=2)], after=2.5)
    dumped = ObservationDumper().dump(holder)
    assert same_dump(dumped, holder) and list(dumped) == ["label", "items", "after"]


@pytest.mark.parametrize(
    "observation",
    [
        Custom(items=[Frozen(n=1)]),
        Computed(items=[Frozen(n=1)]),
        Aliased(items=[Frozen(n=1)]),
        Mutable(items=[Thawed(n=1)]),
    ],
    ids=["field serializer", "computed field", "alias", "item not frozen"],
)
def test_anything_custom_is_left_to_pydantic(observation: BaseModel) -> None:
    assert same_dump(ObservationDumper().dump(observation), observation)


def test_a_subclass_item_dumps_by_the_declared_type() -> None:
    record = DayRecord(
        day=1, weather="sunny", temperature=30, traffic=80, unit_cost=0.5, price=2.0, produce=10,
        promotion="none", demand=9, sold=9, waste=1, revenue=18.0, cost=5.0, promotion_cost=0.0, cash=113.0,
    )  # fmt: skip
    forecast = Forecast(day=2, weather="rainy", temperature=20, traffic=50, unit_cost=0.6)
    dumper = ObservationDumper()
    mixed = Forecasts(days=[forecast, record])
    assert same_dump(dumper.dump(mixed), mixed)
    assert "price" not in dumper.dump(mixed)["days"][1], "a Forecast field shows only a forecast"
    assert same_dump(dumper.dump(Forecasts(days=[forecast])), Forecasts(days=[forecast]))


def test_an_item_holding_a_mutable_value_is_dumped_afresh_each_time() -> None:
    item = Frozen(n=1, tags=["a"])
    dumper = ObservationDumper()
    assert dumper.dump(Holder(label="x", items=[item]))["items"] == [{"n": 1, "tags": ["a"]}]
    item.tags.append("b")  # frozen stops assignment, not a change inside its list
    later = Holder(label="y", items=[item])
    assert same_dump(dumper.dump(later), later) and dumper.dump(later)["items"][0]["tags"] == ["a", "b"]


class Morning(BaseModel):
    day: int
    note: str | None
    level: float
    forecast: Forecast | None
    days: list[Forecast]


def test_plain_values_and_frozen_models_are_assembled_as_pydantic_dumps_them() -> None:
    forecast = Forecast(day=2, weather="rainy", temperature=20, traffic=50, unit_cost=0.6)
    dumper = ObservationDumper()
    for morning in (
        Morning(day=1, note=None, level=0.5, forecast=forecast, days=[forecast]),
        Morning(day=2, note="x", level=2.0, forecast=None, days=[]),
        Morning(day=3, note="y", level=float("inf"), forecast=forecast, days=[forecast]),
        Morning(day=4, note="z", level=float("nan"), forecast=forecast, days=[forecast]),
    ):
        dumped = dumper.dump(morning)
        expected = morning.model_dump(mode="json")
        assert orjson.dumps(dumped) == orjson.dumps(expected)
    dumped = dumper.dump(Morning(day=1, note=None, level=1.0, forecast=forecast, days=[forecast]))
    assert dumped["forecast"] is dumped["days"][0], "one frozen model is dumped once"


def test_an_item_dumped_under_its_own_type_is_not_reused_under_a_parent_type() -> None:
    record = DayRecord(
        day=1, weather="sunny", temperature=30, traffic=80, unit_cost=0.5, price=2.0, produce=10,
        promotion="none", demand=9, sold=9, waste=1, revenue=18.0, cost=5.0, promotion_cost=0.0, cash=113.0,
    )  # fmt: skip

    class Records(BaseModel):
        days: list[DayRecord]

    dumper = ObservationDumper()
    assert same_dump(dumper.dump(Records(days=[record])), Records(days=[record]))
    as_forecasts = Forecasts(days=[record])
    assert same_dump(dumper.dump(as_forecasts), as_forecasts)


def test_plain_items_dump_as_pydantic_does_non_finite_floats_and_key_order_included() -> None:
    dumper = ObservationDumper()
    for cost in (0.5, float("inf"), float("nan")):
        forecasts = Forecasts(
            days=[Forecast(day=1, weather="sunny", temperature=30, traffic=80, unit_cost=cost)]
        )
        assert orjson.dumps(dumper.dump(forecasts)) == orjson.dumps(forecasts.model_dump(mode="json"))
    values = {"weather": "rainy", "day": 2, "temperature": 20, "traffic": 50, "unit_cost": 0.6}
    shuffled = unvalidated(Forecast, values, set(values))  # fields held out of their order
    held = Forecasts(days=[shuffled])
    assert same_dump(dumper.dump(held), held)


def test_a_value_of_another_type_than_its_field_is_left_to_pydantic() -> None:
    # Built unvalidated, a float field may hold an int and an int field a bool: pydantic dumps
    # them as the field's type says (2 -> 2.0), so the dumper must not copy them as they are.
    values = {"day": True, "weather": "sunny", "temperature": 30, "traffic": 80, "unit_cost": 2}
    odd = unvalidated(Forecast, values, set(values))
    dumper = ObservationDumper()
    fields: dict[str, Any] = {"day": 1, "note": None, "level": 3, "forecast": None, "days": []}
    morning = unvalidated(Morning, fields, set(fields))
    for held in (Forecasts(days=[odd]), morning):
        expected = held.model_dump(mode="json", warnings=False)
        assert orjson.dumps(dumper.dump(held)) == orjson.dumps(expected)
