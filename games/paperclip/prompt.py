"""The one paperclip prompt template: rules, the puzzle, and the answer format.

Filled only from the seat's observation. Every seat and every provider gets the same
text for the same puzzle; it states the rules and the grading, never a strategy.
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING

from games.paperclip.answers import format_report

if TYPE_CHECKING:  # listing the games (``arena games``) builds no observation model
    from games.paperclip.observation import PaperclipObservation

RULES = """\
You are tracking paperclips in boxes. Each box holds clips of one or more colours.
Operations change the boxes one at a time:
- Move: clips go from one box to another: all clips of the box, all clips of one
  colour, or a given number of clips of one colour.
- Merge: every clip of one box goes into another box; the first box is left empty.
- Split: a given number of clips of one colour go from a box into an empty box.
- Paint: clips change colour inside their box: all clips of one colour, or a given
  number of them. Painting never changes how many clips there are.
- Compare: asks which of two boxes holds more clips. Nothing moves.
Clips are never created or destroyed.
{mode}
{reporting}
Grading per puzzle: 1 if every reported step and the final answer are right; 0.5 if
the final answer is right but some step is wrong; 0 otherwise. A missing or unreadable
answer scores 0. Colours at 0 may be listed or left out; an empty box is {{}}."""

MODE_TEXT = {
    "batch": "You get all operations of a puzzle at once and answer them all in one reply.",
    "stepwise": (
        "You get one operation per turn and report the boxes after it; the question "
        "comes with the last operation of the puzzle."
    ),
}
REPORTING_TEXT = {
    "full": "After every step, report every box.",
    "touched": "After every step, report only the boxes that step involves (listed with it).",
}

BATCH = """\
{rules}

Puzzle {puzzle} of {puzzles} ({steps} steps). Boxes: {boxes}.
At the start:
{initial}

Operations:
{operations}

Question: {question}

Reply with only a JSON object with these fields:
- "step_1" to "step_{steps}": the boxes after that step, as an object box -> colour -> count,
  for example {example}
- "total": {total_help}
- "colour_count": {colour_help}
- "reason": one short sentence (optional)"""

STEPWISE = """\
{rules}

Puzzle {puzzle} of {puzzles}, step {step} of {steps}. Boxes: {boxes}.
At the start:
{initial}

{history}

Now, step {step}: {operation}{report_note}
{question}
Reply with only a JSON object with these fields:
- "boxes": the boxes after step {step}, as an object box -> colour -> count,
  for example {example}{final_fields}
- "reason": one short sentence (optional)"""

TOTAL_HELP = "the number of clips in the asked box at the end"
COLOUR_HELP = "how many of them have the asked colour"


@functools.cache
def rules_text(mode: str, reporting: str) -> str:
    """The rules for a mode and reporting variant."""
    return RULES.format(mode=MODE_TEXT[mode], reporting=REPORTING_TEXT[reporting])


def _initial(observation: PaperclipObservation) -> str:
    return "\n".join(f"  {line}" for line in format_report(observation.initial).split("; "))


def _note(observation: PaperclipObservation, step: int) -> str:
    if observation.reporting != "touched":
        return ""
    boxes = observation.report_boxes[step - 1]
    return f" (report box {' and box '.join(boxes)})"


def _example(observation: PaperclipObservation) -> str:
    return json.dumps({box: {} for box in observation.boxes} | {observation.boxes[0]: {"red": 3}})


def render(observation: PaperclipObservation, rules: str) -> str:
    """Fill the template from a seat's observation (and nothing else)."""
    operations = observation.operations
    common = {
        "rules": rules,
        "puzzle": observation.puzzle,
        "puzzles": observation.puzzles,
        "steps": observation.steps,
        "boxes": ", ".join(observation.boxes),
        "initial": _initial(observation),
        "example": _example(observation),
    }
    if observation.mode == "batch":
        lines = [f"Step {k}: {text}{_note(observation, k)}" for k, text in enumerate(operations, start=1)]
        return BATCH.format(
            **common,
            operations="\n".join(lines),
            question=observation.question,
            total_help=TOTAL_HELP,
            colour_help=COLOUR_HELP,
        )
    step = observation.step
    assert step is not None, "a stepwise observation always names its step"
    reports = observation.your_reports
    history = ["Earlier steps and your reports:"] if step > 1 else ["This is the first step."]
    for k, text in enumerate(operations[:-1], start=1):
        mine = reports[k - 1] if k - 1 < len(reports) else None
        shown = format_report(mine) if mine is not None else "(no answer)"
        history.append(f"Step {k}: {text}\n  you reported: {shown}")
    last = observation.question is not None
    return STEPWISE.format(
        **common,
        step=step,
        history="\n".join(history),
        operation=operations[-1],
        report_note=_note(observation, step),
        question=f"This is the last step. Question: {observation.question}\n" if last else "",
        final_fields=f'\n- "total": {TOTAL_HELP}\n- "colour_count": {COLOUR_HELP}' if last else "",
    )
