"""The deal seed of an episode: given, or drawn secretly when a person plays.

A game's deal (costs, values, weather) follows from its seed, and the games' code is open: a
person who could choose the seed, or read it before the end, could work out the other side's
private value. So an episode with a human seat whose seed was not given plays a seed drawn
from the operating system's randomness (:mod:`secrets`), never shown before the episode is
stored; an episode of machines alone keeps the reproducible default, 0.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from arena.engine.builtin_players import HUMAN
from arena.engine.user_input import INT64_MAX
from arena.plugins.players import SpecError, parse_player_spec

DEFAULT_SEED = 0
"""The seed of an episode without a person when none is given (reproducible by default)."""


def has_human_seat(seats: Mapping[str, str]) -> bool:
    """True if any seat's spec is a person (specs that do not parse are not: they fail later)."""
    for text in seats.values():
        try:
            if parse_player_spec(text).kind == HUMAN.name:
                return True
        except SpecError:
            continue
    return False


def secret_seed() -> int:
    """A seed no one can choose or predict: 63 bits from the operating system's randomness."""
    return secrets.randbelow(INT64_MAX + 1)


def episode_seed(given: int | None, seats: Mapping[str, str]) -> int:
    """The seed to play: ``given`` if there is one, else secret with a person seated, else 0."""
    if given is not None:
        return given
    return secret_seed() if has_human_seat(seats) else DEFAULT_SEED
