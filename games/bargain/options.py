"""The bargain's options: all that listing the game needs (``arena games``), apart from the state."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from games.bargain.rules import DEFAULT_ROUNDS


class BargainOptions(BaseModel):
    """The bargain's options."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rounds: int = Field(
        DEFAULT_ROUNDS,
        ge=2,
        le=40,
        description="round limit; one round is one turn of one side (seller in odd rounds)",
    )
