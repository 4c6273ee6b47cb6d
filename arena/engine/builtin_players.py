"""The built-in player kinds that call no model: ``baseline:NAME`` and ``human``.

Registered through the ``arena.players`` entry point group like every other kind.
"""

from __future__ import annotations

from typing import ClassVar

from arena.contract.player import Player
from arena.plugins.players import BuildContext, PlayerKind, PlayerSpec, SpecError


class BaselineKind(PlayerKind):
    """A game's scripted player, seeded per seat."""

    name: ClassVar[str] = "baseline"
    forms: ClassVar[tuple[str, ...]] = ("baseline:NAME",)
    listing_order: ClassVar[int] = 0

    def parse(self, rest: str, text: str) -> PlayerSpec:
        if not rest:
            raise SpecError("baseline spec needs a name, e.g. baseline:weather")
        return PlayerSpec(self.name, rest)

    def build(self, spec: PlayerSpec, context: BuildContext) -> Player:
        from arena.engine.lineup import player_rng

        game = context.game
        info = game.baselines.get(spec.name)
        if info is None:
            known = ", ".join(f"baseline:{name}" for name in game.baselines) or "none"
            raise SpecError(f"{game.name} has no baseline {spec.name!r} (baselines: {known})")
        return info.factory(player_rng(context.seed, context.seat, spec.text))


class HumanKind(PlayerKind):
    """A person at the keyboard of whichever front end runs the match."""

    name: ClassVar[str] = "human"
    forms: ClassVar[tuple[str, ...]] = ("human",)
    bare: ClassVar[bool] = True
    listing_order: ClassVar[int] = 1

    def build(self, spec: PlayerSpec, context: BuildContext) -> Player:
        if context.human_factory is None:
            raise SpecError("a human seat needs an interactive front end")
        return context.human_factory(context.seat)


BASELINE = BaselineKind()
HUMAN = HumanKind()
