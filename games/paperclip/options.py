"""The paperclip benchmark's options, modes and seats: all that listing the game needs
(``arena games``), apart from the puzzles, their grading and the state."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

MODES = ("batch", "stepwise")
SEAT_NAMES = ("a", "b", "c", "d")


class PaperclipOptions(BaseModel):
    """The paperclip benchmark's options."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    puzzles: int = Field(10, ge=1, le=500, description="puzzles per episode")
    tier: Literal["entry", "medium", "hard", "mix"] = Field(
        "mix", description="steps: entry 3, medium 5, hard 8-10, or a mix"
    )
    dimensions: Literal["counts", "colours", "partial", "mix"] = Field(
        "mix", description="counts only, counts and colours, partial moves too, or a mix"
    )
    distractors: int = Field(1, ge=0, le=5, description="compare operations inserted per puzzle")
    mode: Literal["batch", "stepwise"] = Field(
        "batch", description="all steps in one answer, or one step per turn"
    )
    reporting: Literal["full", "touched"] = Field(
        "full", description="report every box, or only the boxes a step touches"
    )
    seats: int = Field(2, ge=1, le=len(SEAT_NAMES), description="number of racing seats (a, b, c, d)")
