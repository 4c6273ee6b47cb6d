"""Cattle Trade's options: all that listing the game needs (``arena games``), apart from the state."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_TURN_CAP = 400


class CattleOptions(BaseModel):
    """Cattle Trade's options."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    players: int = Field(4, ge=3, le=5, description="number of players (3 to 5); seats p1, p2, ...")
    auction: Literal["canonical", "sealed", "sequential"] = Field(
        "canonical",
        description="canonical: call rounds where everyone bids at once; sealed: one hidden bid each;"
        " sequential: seat by seat from the auctioneer's left, a bid reopens the round",
    )
    turn_cap: int = Field(
        DEFAULT_TURN_CAP, ge=10, le=2000, description="turns after which a stalled game ends as it stands"
    )
    notes: bool = Field(
        False, description="after each of its turns a seat rewrites short notes it reads on later turns"
    )
