"""What one racing seat may know: the typed observation of the paperclip benchmark.

The single source of the prompt, the baselines and a seat's view: the puzzle as given
(boxes, initial state, the operations shown so far, the question on the last step), the
seat's own reports of this puzzle and its own previous grade. Never the true states.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

Boxes = dict[str, dict[str, int]]
"""Box name -> colour -> count."""


class PreviousPuzzle(BaseModel):
    """The seat's own grade on the puzzle before this one."""

    model_config = ConfigDict(frozen=True)

    grade: str
    first_error: int | None


class PaperclipObservation(BaseModel):
    """One seat's view of the puzzle being answered."""

    model_config = ConfigDict(frozen=True)

    puzzle: int
    puzzles: int
    mode: str
    reporting: str
    tier: str
    dimensions: str
    distractors: int
    boxes: list[str]
    initial: Boxes
    steps: int
    step: int | None
    operations: list[str]
    report_boxes: list[list[str]]
    question: str | None
    your_reports: list[Boxes | None]
    previous_puzzle: PreviousPuzzle | None
