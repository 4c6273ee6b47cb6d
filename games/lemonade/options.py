"""The lemonade stand's options and seats: all that listing the game needs (``arena games``).

Kept apart from the state and its rules so a listing loads neither.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class LemonadeOptions(BaseModel):
    """The lemonade stand's options."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    days: int = Field(30, ge=1, le=1000, description="number of days")
    stands: int = Field(2, ge=1, le=8, description="number of stands (seats a, b, ...)")
    market: Literal["identical", "shared"] = Field(
        "identical", description="identical worlds, or one shared street"
    )


def stand_seats(stands: int) -> tuple[str, ...]:
    """Seat names for ``stands`` stands: a, b, c, ..."""
    return tuple("abcdefgh"[:stands])
