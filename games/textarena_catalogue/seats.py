"""Arena's seats ``p0``, ``p1``, ... for TextArena's players 0, 1, ..."""

from __future__ import annotations


def seat_name(player: int) -> str:
    """The Arena seat of TextArena player ``player``."""
    return f"p{player}"


def player_id(seat: str) -> int:
    """The TextArena player id of ``seat`` (``p1`` is 1)."""
    return int(seat.removeprefix("p"))
