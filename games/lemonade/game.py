"""The lemonade stand's state and rules: every stand decides each day at the same time.

In the default ``identical`` market each seat runs its own stand in the same world
(same weather, traffic, costs and demand noise), so the same decisions give the same
results. In the ``shared`` market the stands sell to one crowd and split it on price.
"""

from __future__ import annotations

import operator
import random
from dataclasses import dataclass, field
from statistics import mean
from typing import Any, Self

from arena.contract.game import GameDefinition, GameState, SeatResult
from arena.contract.unvalidated import unvalidated
from games.lemonade.observation import (
    DayRecord,
    Forecast,
    LemonadeObservation,
    RivalDay,
    SharedLemonadeObservation,
    field_names,
)
from games.lemonade.options import LemonadeOptions
from games.lemonade.reason_audit import ReasonAudit
from games.lemonade.reason_claims import claims_in
from games.lemonade.rules import (
    BASE_PRICE,
    MAX_PRICE,
    MAX_PRODUCE,
    MIN_PRICE,
    PROMOTIONS,
    STARTING_CASH,
    LemonadeDecision,
    affordable,
    check_decision,
    decision_model,
    settle,
    shared_traffic_shares,
)
from games.lemonade.world import WorldDay, generate_world

HISTORY_DAYS = 7
FALLBACK_FIRST_DAY_CUPS = 20

# The snapshots the game builds every day, built without validation (see observation._Snapshot):
# their field names looked up once, and unvalidated called directly rather than through a helper.
_FORECAST_FIELDS = field_names(Forecast)
_DAY_RECORD_FIELDS = field_names(DayRecord)
_OBSERVATION_FIELDS = field_names(LemonadeObservation)
_SHARED_OBSERVATION_FIELDS = field_names(SharedLemonadeObservation)
_RIVAL_DAY_FIELDS = field_names(RivalDay)


@dataclass
class Stand:
    """One seat's stand: its cash, its day records and whether it went bankrupt."""

    cash: float = STARTING_CASH
    records: list[dict[str, Any]] = field(default_factory=list)
    bankrupt_day: int | None = None
    typed: list[DayRecord] = field(default_factory=list)
    """``records`` as observation models, made once per day (observations reuse them)."""

    def add(self, record: dict[str, Any]) -> None:
        """Keep one more played day, read from stored data (validated)."""
        self.records.append(record)
        self.typed.append(DayRecord(**record))


class LemonadeState(GameState[LemonadeOptions, LemonadeObservation, LemonadeDecision]):
    """Seeded lemonade stand for any number of stands (default two)."""

    today: WorldDay
    """The world of the current day (the last day once the game is over)."""
    _forecast: Forecast | None
    """Today's forecast, shared by every stand's observation (``None`` once the game is over)."""
    _pending: list[str]
    """The seats still playing today, worked out once a day (asked for several times a step)."""
    _public: dict[str, Any]
    """``today.public()``: the forecast's values, which also open every stand's record of the day."""

    def __init__(self, definition: GameDefinition, seed: int, options: LemonadeOptions) -> None:
        super().__init__(definition, seed, options)
        self.days = options.days
        self.market = options.market
        self.world: list[WorldDay] = generate_world(seed, options.days)
        self.stands = {seat: Stand() for seat in self.seats}
        self.audit = ReasonAudit(self.seats)
        self.day = 1
        self._start_day()

    # -- contract -------------------------------------------------------------------
    def pending(self) -> list[str]:
        return self._pending.copy()

    def over(self) -> bool:
        return not self._pending

    def observation(self, seat: str) -> LemonadeObservation:
        stand = self.stands[seat]
        forecast, cash = self._forecast, stand.cash
        cups = 0
        if forecast is not None:
            # affordable(cash, unit_cost) with no promotion, written out: asked for every stand and day.
            cups = int((cash + 1e-9) // self.today.unit_cost)
            cups = 0 if cups < 0 else MAX_PRODUCE if cups > MAX_PRODUCE else cups
        facts: dict[str, Any] = {
            "day": self.day,
            "days": self.days,
            "market": self.market,
            "today": forecast,
            "cash": cash,
            "max_affordable_cups": cups,
            "recent_days": stand.typed[-HISTORY_DAYS:],
        }
        if self.market != "shared":
            return unvalidated(LemonadeObservation, facts, _OBSERVATION_FIELDS)
        facts["rivals_yesterday"] = {
            other: unvalidated(
                RivalDay,
                {"price": rival.typed[-1].price, "promotion": rival.typed[-1].promotion},
                _RIVAL_DAY_FIELDS,
            )
            for other, rival in self.stands.items()
            if other != seat and rival.typed and rival.typed[-1].day == self.day - 1
        }
        return unvalidated(SharedLemonadeObservation, facts, _SHARED_OBSERVATION_FIELDS)

    def action_model(self, seat: str) -> type[LemonadeDecision]:
        # The moment's bound: what the cash pays for this morning (without a promotion's cost).
        return decision_model(affordable(self.stands[seat].cash, self.today.unit_cost))

    def validate(self, seat: str, action: LemonadeDecision) -> str | None:
        return check_decision(action, self.stands[seat].cash, self.today.unit_cost)

    def fallback(self, seat: str) -> LemonadeDecision:
        stand = self.stands[seat]
        recent = [record["produce"] for record in stand.records[-3:]]
        wanted = round(mean(recent)) if recent else FALLBACK_FIRST_DAY_CUPS
        produce = min(wanted, affordable(stand.cash, self.today.unit_cost))
        return self.action_model(seat)(
            price=BASE_PRICE,
            produce=produce,
            promotion="none",
            reason="fallback: base price, average production of the last three days, no promotion",
        )

    def sample_action(self, seat: str, rng: random.Random) -> LemonadeDecision:
        cash = self.stands[seat].cash
        promotion = rng.choice([p for p, e in PROMOTIONS.items() if e.fixed_cost <= cash])
        limit = affordable(cash, self.today.unit_cost, promotion)
        return self.action_model(seat)(
            price=round(rng.uniform(MIN_PRICE, MAX_PRICE), 1),
            produce=rng.randint(0, limit),
            promotion=promotion,
            reason="random legal decision",
        )

    def apply(self, actions: dict[str, LemonadeDecision]) -> None:
        world = self.today
        shares: dict[str, float] = {}
        if self.market == "shared" and len(actions) > 1:
            shares = shared_traffic_shares(
                {seat: d.price for seat, d in actions.items()},
                {seat: d.promotion for seat, d in actions.items()},
            )
        forecast = self._public
        for seat, decision in actions.items():
            stand = self.stands[seat]
            reason = decision.reason
            if reason:
                claims = claims_in(reason)  # cached: scripted stands repeat their reasons
                if claims:  # checked against the stand's days so far, before today is settled
                    self.audit.add(seat, self.day, claims, stand.records, stand.cash, world.weather)
            demand, sold, waste, revenue, cost, promotion_cost, cash = settle(
                world, decision, stand.cash, shares.get(seat, 1.0)
            )
            stand.cash = cash
            # dict(forecast, **fields) builds the record faster than a literal with a ** spread.
            record = dict(
                forecast,
                price=decision.price,
                produce=decision.produce,
                promotion=decision.promotion,
                demand=demand,
                sold=sold,
                waste=waste,
                revenue=revenue,
                cost=cost,
                promotion_cost=promotion_cost,
                cash=cash,
            )
            stand.records.append(record)
            # Its values are the game's own, typed and in field order: no validation.
            stand.typed.append(unvalidated(DayRecord, record.copy(), _DAY_RECORD_FIELDS))
        self.day += 1
        self._start_day()

    def result(self) -> dict[str, SeatResult]:
        return {
            seat: SeatResult(score=stand.cash, metrics={**_metrics(stand), **self.audit.metrics(seat)})
            for seat, stand in self.stands.items()
        }

    def to_json(self) -> dict[str, Any]:
        data = {
            "seed": self.seed,
            "day": self.day,
            "days": self.days,
            "market": self.market,
            "world": [vars_of(day) for day in self.world],
            "stands": {
                seat: {"cash": s.cash, "bankrupt_day": s.bankrupt_day, "records": s.records}
                for seat, s in self.stands.items()
            },
        }
        # Only once some reason made a claim: a state without any reads as it did before the audit.
        if self.audit.any_claims():
            data["reason_audit"] = self.audit.to_json()
        return data

    @classmethod
    def from_json(cls, definition: GameDefinition, data: dict[str, Any]) -> Self:
        options = LemonadeOptions(days=data["days"], stands=len(data["stands"]), market=data["market"])
        state = cls.__new__(cls)
        GameState.__init__(state, definition, data["seed"], options)
        state.days, state.market, state.day = options.days, options.market, data["day"]
        state.world = [WorldDay(**day) for day in data["world"]]
        state.stands = {
            seat: Stand(cash=float(s["cash"]), bankrupt_day=s["bankrupt_day"])
            for seat, s in data["stands"].items()
        }
        for seat, s in data["stands"].items():
            for record in s["records"]:
                state.stands[seat].add(dict(record))
        state.audit = ReasonAudit.from_json(state.seats, data.get("reason_audit"))
        state._set_today()
        state._set_pending()
        return state

    def clone(self) -> Self:
        """An independent copy, built without the JSON round trip.

        What a copy shares never changes once made: the world's days (tuples), the kept day
        records (never edited after :meth:`Stand.add`) and their frozen models. The stands,
        their lists and the audit are the copy's own. The round trip validated every day
        record again: ~6 ms for a 500-day episode, most of stepping a replay back.
        """
        state = type(self).__new__(type(self))
        GameState.__init__(state, self.definition, self.seed, self.options)
        state.days, state.market, state.day = self.days, self.market, self.day
        state.world = self.world.copy()
        state.stands = {
            seat: Stand(s.cash, s.records.copy(), s.bankrupt_day, s.typed.copy())
            for seat, s in self.stands.items()
        }
        state.audit = ReasonAudit.from_json(
            state.seats, self.audit.to_json() if self.audit.any_claims() else None
        )
        state._set_today()
        state._set_pending()
        return state

    def with_sentinel(self, seat: str, sentinel: int) -> Self | None:
        """A copy where ``seat``'s cash reads ``sentinel``: no other stand may ever see it."""
        twin = self.clone()
        stand = twin.stands[seat]
        records, stand.records, stand.typed = stand.records, [], []
        stand.cash = float(sentinel)
        for record in records:
            stand.add({**record, "cash": float(sentinel)})
        return twin

    def turn_state(self, seat: str) -> dict[str, Any]:
        stand = self.stands[seat]
        state = dict(stand.records[-1]) if stand.records else {"day": 0, "cash": stand.cash}
        state["bankrupt"] = stand.bankrupt_day is not None
        return state

    # -- helpers --------------------------------------------------------------------
    def _start_day(self) -> None:
        """Open ``self.day``: its world and forecast, then mark the stands that went bankrupt."""
        self._set_today()
        day = self.day
        if day <= self.days:
            unit_cost = self.today.unit_cost
            for stand in self.stands.values():
                # Seed 4.2: a stand that can no longer pay for a single cup is bankrupt and stops.
                if stand.bankrupt_day is None and stand.cash < unit_cost:
                    stand.bankrupt_day = day
        self._set_pending()

    def _set_pending(self) -> None:
        playing = self.day <= self.days
        self._pending = [seat for seat, s in self.stands.items() if playing and s.bankrupt_day is None]

    def _set_today(self) -> None:
        day, days = self.day, self.days
        self.today = today = self.world[(day if day < days else days) - 1]
        self._public = public = today.public()
        self._forecast = unvalidated(Forecast, public, _FORECAST_FIELDS) if day <= days else None


def vars_of(day: WorldDay) -> dict[str, Any]:
    """A world day as a plain dict (noise included, for full snapshots)."""
    return {**day.public(), "noise": day.noise}


def _metrics(stand: Stand) -> dict[str, Any]:
    """The seed's metrics table (section 4.3), plus promotion spending and bankruptcy.

    Gross margin is the seed's ``1 - ingredient cost / revenue`` (``None`` without
    revenue); promotion signs are reported apart and do not enter it.
    """
    records = stand.records
    # map(itemgetter) hands sum() the same values in the same order as a generator, at less cost.
    revenue = round(sum(map(_REVENUE, records)), 2)
    cost = round(sum(map(_COST, records)), 2)
    settings = list(map(_PRICE_AND_PRODUCE, records))
    return {
        "final_cash": stand.cash,
        "revenue": revenue,
        "ingredient_cost": cost,
        "promotion_cost": round(sum(map(_PROMOTION_COST, records)), 2),
        "wasted_cups": sum(map(_WASTE, records)),
        "gross_margin": round(1 - cost / revenue, 4) if revenue > 0 else None,
        "decision_changes": sum(map(operator.ne, settings, settings[1:])),
        "bankrupt": stand.bankrupt_day is not None,
        "days_played": len(records),
    }


_REVENUE = operator.itemgetter("revenue")
_COST = operator.itemgetter("cost")
_PROMOTION_COST = operator.itemgetter("promotion_cost")
_WASTE = operator.itemgetter("waste")
_PRICE_AND_PRODUCE = operator.itemgetter("price", "produce")
