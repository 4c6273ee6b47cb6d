"""The scripted-baseline base and the capabilities every player declares with a default."""

from __future__ import annotations

import asyncio
import random

import pytest
from pydantic import BaseModel

from arena.contract.baseline import Baseline, baseline_table
from arena.contract.player import Decision, DecisionRequest, Player
from tests.support.modelkit import make_request
from tests.support.scripted import ScriptedPlayer


class Step(BaseModel):
    """A test action."""

    day: int
    reason: str = ""


class Counter(Baseline[BaseModel, Step]):
    """Answers with the day it sees.

    On one line in listings, however its docstring is laid out.
    """

    name = "counter"

    def choose(self, observation: BaseModel) -> Step:
        day = observation.model_dump()["day"]
        return Step(day=day, reason=f"day {day}")


def test_a_baseline_plays_as_its_name_without_waiting() -> None:
    player = Counter(random.Random(0))
    assert (player.spec, player.kind, player.instant) == ("baseline:counter", "baseline", True)
    decision = asyncio.run(player.decide(make_request(step=4)))
    # The stated reason is the action's own (the runner reads it off the action).
    assert decision.action == Step(day=4, reason="day 4") and decision.reason == ""


def test_baselines_are_listed_by_name_with_a_one_line_description() -> None:
    table = baseline_table(Counter)
    assert list(table) == ["counter"] and table["counter"].factory is Counter
    assert table["counter"].description == (
        "Answers with the day it sees. On one line in listings, however its docstring is laid out."
    )


def test_a_baseline_without_choose_says_so() -> None:
    class Blank(Baseline[BaseModel, Step]):
        name = "blank"

    with pytest.raises(NotImplementedError, match=r"Blank implements neither choose\(\) nor act\(\)"):
        Blank(random.Random(0)).act(make_request())


def test_every_capability_has_its_default_on_the_player_base() -> None:
    class Minimal(Player):
        async def decide(self, request: DecisionRequest) -> Decision:
            return Decision(None)

    player = Minimal()
    assert (player.spec, player.kind, player.instant, player.failure_limit) == ("", "baseline", False, None)
    assert player.configuration() is None and player.disclosed_settings() is None
    assert player.share_transport(ScriptedPlayer([])) is False
