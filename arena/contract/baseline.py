"""Scripted baselines: the one base class every game's scripted players share.

A baseline reads its seat's typed observation and returns an action; its spec is
``baseline:NAME`` and its description is its docstring::

    class Cycler(Baseline[RpsObservation, Throw]):
        \"\"\"Throws rock, paper, scissors in turn.\"\"\"

        name = "cycle"

        def choose(self, observation: RpsObservation) -> Throw:
            return Throw(throw=THROWS[observation.round % 3], reason="next in the cycle")

and the definition lists them with ``baselines = baseline_table(Cycler, ...)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic

from pydantic import BaseModel
from typing_extensions import TypeVar

from arena.contract.player import Decision, DecisionRequest, Player

ObservationT = TypeVar("ObservationT", bound=BaseModel, default=Any)
ActionT = TypeVar("ActionT", bound=BaseModel, default=Any)

BaselineFactory = Callable[[random.Random], Player]
"""Builds a baseline player from a generator owned by the run (seeded per seat)."""


@dataclass(frozen=True)
class BaselineInfo:
    """A scripted player a game offers, with a one-line description."""

    name: str
    description: str
    factory: BaselineFactory


class Baseline(Player, Generic[ObservationT, ActionT]):
    """A game's scripted player: set ``name``, write a docstring, implement :meth:`choose`.

    It never waits (``instant``), owns ``rng`` (seeded per seat and run: never the global
    ``random``) and plays as ``baseline:NAME``. The action's own ``reason`` is the stated reason.
    A baseline that needs more than the observation (the moment's action model) overrides
    :meth:`act` instead.
    """

    name: ClassVar[str] = ""
    """The baseline's name in specs (``baseline:NAME``); ``arena.testing.check_game`` requires one."""
    kind = "baseline"
    instant = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.spec = f"baseline:{self.name}"

    async def decide(self, request: DecisionRequest) -> Decision:
        """The action :meth:`act` chooses (its reason is the action's ``reason``)."""
        return Decision(self.act(request))

    def act(self, request: DecisionRequest) -> ActionT:
        """The action for ``request``: :meth:`choose` on its observation."""
        # The runner asks with the game's own observation, game.observation(seat): of the game's type.
        observation: Any = request.observation
        return self.choose(observation)

    def choose(self, observation: ObservationT) -> ActionT:
        """The action for a seat that sees ``observation``."""
        raise NotImplementedError(f"{type(self).__name__} implements neither choose() nor act()")

    @classmethod
    def description(cls) -> str:
        """The docstring on one line (what ``arena players GAME`` and the app show)."""
        return " ".join((cls.__doc__ or "").split())


def baseline_table(*baselines: type[Baseline[Any, Any]]) -> dict[str, BaselineInfo]:
    """A definition's ``baselines``: each class under its name, described by its docstring."""
    return {cls.name: BaselineInfo(cls.name, cls.description(), cls) for cls in baselines}
