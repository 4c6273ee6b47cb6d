"""The one record type: frozen turn and event models, the episode id before the first turn."""

from __future__ import annotations

import dataclasses
from typing import Any

import pydantic
import pytest

from arena.contract.records import (
    Attempt,
    CallbackObserver,
    EpisodeEnded,
    EpisodeStarted,
    Event,
    Observer,
    StepStarted,
    TurnRecord,
    TurnsRecorded,
)
from arena.contract.usage import Usage
from arena.engine.match import MatchConfig, prepare_runner
from arena.engine.recorder import TURN_COLUMNS
from arena.engine.turns import _action_dump
from arena.store.database import Store
from tests.support.episodes import stored_turns
from tests.support.scripted import ScriptedPlayer, decision

GOOD = {"price": 3.0, "produce": 10, "promotion": "none", "reason": "steady"}


def lemonade(days: int = 3) -> MatchConfig:
    return MatchConfig("lemonade", {"b": "baseline:cost-plus"}, seed=1, options={"days": days})


async def test_every_observer_sees_the_episode_id_at_the_start_whatever_its_place(store: Store) -> None:
    seen_first: list[Event] = []
    seen_last: list[Event] = []
    stored_at_start: list[object] = []

    def first(event: Event) -> None:
        seen_first.append(event)
        if isinstance(event, EpisodeStarted) and event.episode_id is not None:
            stored_at_start.append(store.episode(event.episode_id))

    player = ScriptedPlayer([decision(GOOD)])
    runner = prepare_runner(lemonade(), store, [CallbackObserver(first)], players={"a": player})
    runner.observers.append(CallbackObserver(seen_last.append))
    outcome = await runner.run()
    started = [e for e in seen_first if isinstance(e, EpisodeStarted)]
    assert len(started) == 1 and started[0].episode_id == outcome.episode_id is not None
    assert seen_first == seen_last, "both observers got the very same events"
    assert stored_at_start and stored_at_start[0] is not None, "the episode row exists before the first turn"


async def test_records_are_frozen_valid_and_match_what_is_stored(store: Store) -> None:
    bad = decision({"price": -1.0, "produce": 10, "promotion": "none"}, usage=Usage(5, 2, cost_usd=0.01))
    player = ScriptedPlayer([bad, bad, decision(GOOD)])
    events: list[Event] = []
    runner = prepare_runner(lemonade(), store, [CallbackObserver(events.append)], players={"a": player})
    outcome = await runner.run()
    assert outcome.episode_id is not None
    steps = [e for e in events if isinstance(e, StepStarted)]
    recorded = [e for e in events if isinstance(e, TurnsRecorded)]
    turns = [turn for e in recorded for turn in e.turns]
    assert any(turn.attempts for turn in turns) and any(turn.usage.cost_usd for turn in turns)
    for event in events:
        # What the runner builds without validating must pass validation unchanged.
        if not isinstance(event, StepStarted):  # (its observations are the game's own models)
            assert type(event).model_validate(event.model_dump()) == event
    for turn in turns:
        assert TurnRecord.model_validate(turn.model_dump()) == turn
        assert list(turn.__dict__) == list(TurnRecord.model_fields)  # built in field order
    with pytest.raises(pydantic.ValidationError):
        turns[0].reason = "changed"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        turns[0].usage.cost_usd = 1.0  # type: ignore[misc]
    # A step's observations are the deciding seats' typed views, the same the turns record.
    for step, done in zip(steps, recorded, strict=True):
        assert not hasattr(step, "game") and not hasattr(done, "game")
        for turn in done.turns:
            assert step.observations[turn.seat].model_dump(mode="json") == turn.observation
    rows = stored_turns(store, outcome.episode_id)
    for turn, row in zip(turns, rows, strict=True):
        assert row["idx"] == turn.index and row["action"] == turn.action and row["reason"] == turn.reason
        assert row["observation"] == turn.observation and row["state"] == turn.state
        assert [dict(a) for a in turn.attempts] == row["attempts"]
        assert row["cost_usd"] == turn.usage.cost_usd and row["prompt_version"] == turn.prompt_version
    ended = events[-1]
    assert isinstance(ended, EpisodeEnded) and isinstance(ended.usage["a"], Usage)
    assert ended.usage["a"].cost_usd == pytest.approx(sum(t.usage.cost_usd for t in turns if t.seat == "a"))


def test_the_recorder_writes_every_turns_column_but_the_row_id(store: Store) -> None:
    columns = [row[1] for row in store.conn.execute("PRAGMA table_info(turns)")]
    assert len(set(TURN_COLUMNS)) == len(TURN_COLUMNS)
    assert set(TURN_COLUMNS) <= set(columns)
    assert set(columns) - set(TURN_COLUMNS) <= {"id"}


def test_trusted_records_need_every_field_in_order() -> None:
    with pytest.raises(TypeError, match="every field in order"):
        Attempt.trusted(action=None, raw="{", error="unparsable", detail="not JSON", sampling=None)
    attempt = Attempt.trusted(raw="{", action=None, error="unparsable", detail="not JSON", sampling=None)
    assert attempt == Attempt(raw="{", action=None, error="unparsable", detail="not JSON")


def test_an_action_is_recorded_as_its_model_dump_gives_it() -> None:
    class Plain(pydantic.BaseModel):
        price: float
        note: str | None = None

    class Own(Plain):
        def model_dump(self, **kwargs: Any) -> dict[str, Any]:
            return {"own": True}

    assert _action_dump(Plain(price=1.5)) == Plain(price=1.5).model_dump() == {"price": 1.5, "note": None}
    assert _action_dump(Own(price=1.5)) == {"own": True}


async def test_an_observer_that_wants_no_steps_is_not_told_them() -> None:
    class TurnsOnly(Observer):
        wants_steps = False

        def __init__(self) -> None:
            self.events: list[Event] = []

        def __call__(self, event: Event) -> None:
            self.events.append(event)

    quiet, everything = TurnsOnly(), list[Event]()
    seats = {"a": "baseline:weather", "b": "baseline:cost-plus"}
    config = MatchConfig("lemonade", seats, options={"days": 2})
    await prepare_runner(config, None, [quiet, CallbackObserver(everything.append)]).run()
    assert not any(isinstance(event, StepStarted) for event in quiet.events)
    assert sum(isinstance(event, TurnsRecorded) for event in quiet.events) == 2
    assert sum(isinstance(event, StepStarted) for event in everything) == 2
