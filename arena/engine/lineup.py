"""Turning player specs into players, and listing which players a game can use."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from arena.contract.game import GameDefinition
from arena.contract.player import Player
from arena.plugins.players import BuildContext, HumanFactory, parse_player_spec, player_kinds

__all__ = ["HumanFactory", "PlayerChoice", "baseline_choices", "build_player", "player_rng"]


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
    game: GameDefinition,
    *,
    seed: int,
    seat: str,
    human_factory: HumanFactory | None = None,
    models_config: Any = None,
) -> Player:
    """The player for ``text`` in ``seat``, built by its kind; raises :class:`SpecError` with a hint."""
    spec = parse_player_spec(text)
    kind = player_kinds()[spec.kind]
    context = BuildContext(game, seed, seat, human_factory, models_config)
    return kind.build(spec, context)


def baseline_choices(game: GameDefinition) -> list[PlayerChoice]:
    """The game's scripted players and the human seat (always available)."""
    choices = [PlayerChoice(f"baseline:{name}", info.description) for name, info in game.baselines.items()]
    choices.append(PlayerChoice("human", "you, at the keyboard"))
    return choices
