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

from arena.engine.user_input import INT64_MAX

DEFAULT_SEED = 0
"""The seed of an episode without a person when none is given (reproducible by default)."""
HUMAN_SPEC = "human"
"""The one spelling of a person's seat: the ``human`` kind is bare (``human:x`` does not parse).
Compared as text, so the home screen learns it without loading every player kind."""


def has_human_seat(seats: Mapping[str, str]) -> bool:
    """True if any seat is a person's."""
    return any(text.strip() == HUMAN_SPEC for text in seats.values())


def secret_seed() -> int:
    """A seed no one can choose or predict: 63 bits from the operating system's randomness."""
    return secrets.randbelow(INT64_MAX + 1)


def episode_seed(given: int | None, seats: Mapping[str, str]) -> int:
    """The seed to play: ``given`` if there is one, else secret with a person seated, else 0."""
    if given is not None:
        return given
    return secret_seed() if has_human_seat(seats) else DEFAULT_SEED
