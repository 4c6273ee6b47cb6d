"""Turning player specs into players, and listing which players a game can use."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arena.player import Player
from arena.registry import GameSpec
from arena.specs import PlayerSpec, SpecError, parse_player_spec

HumanFactory = Callable[[str], Player]
"""Builds the human player for a seat; each front end brings its own."""


@dataclass(frozen=True, slots=True)
class PlayerChoice:
    """A player a seat can be given, and whether it can play right now."""

    spec: str
    description: str
    available: bool = True
    reason: str = ""


def player_rng(seed: int, seat: str, spec: str) -> random.Random:
    """The generator a player owns in one run: a function of seed, seat and spec only."""
    return random.Random(f"player:{seed}:{seat}:{spec}")


def build_player(
    text: str,
    game: GameSpec,
    *,
    seed: int,
    seat: str,
    human_factory: HumanFactory | None = None,
    models_config: Any = None,
) -> Player:
    """The player for ``text`` in ``seat``; raises :class:`SpecError` with a hint."""
    spec = parse_player_spec(text)
    if spec.kind == "baseline":
        info = game.baselines.get(spec.name)
        if info is None:
            known = ", ".join(f"baseline:{name}" for name in game.baselines) or "none"
            raise SpecError(f"{game.name} has no baseline {spec.name!r} (baselines: {known})")
        return info.factory(player_rng(seed, seat, spec.text))
    if spec.kind == "human":
        if human_factory is None:
            raise SpecError("a human seat needs an interactive front end")
        return human_factory(seat)
    return _build_model(spec, seed=seed, models_config=models_config)


def _build_model(spec: PlayerSpec, *, seed: int, models_config: Any) -> Player:
    try:
        from players.models import build_model_player
    except ImportError as exc:  # pragma: no cover - only when the package is broken
        raise SpecError(f"model players are unavailable: {exc}") from None
    player: Player = build_model_player(spec, seed=seed, config=models_config)
    return player


def baseline_choices(game: GameSpec) -> list[PlayerChoice]:
    """The game's scripted players and the human seat (always available)."""
    choices = [PlayerChoice(f"baseline:{name}", info.description) for name, info in game.baselines.items()]
    choices.append(PlayerChoice("human", "you, at the keyboard"))
    return choices
