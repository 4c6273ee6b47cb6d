"""Grading a seat's answer to a puzzle step by step, with error tags (seed 3.2, 4.2-4.3, 5.4).

Grades: ``full`` (every step and the final question right) 1, ``core`` (the final
question right, some step wrong) 0.5, ``wrong`` 0, ``invalid`` (missing or unreadable) 0,
counted apart. A step is compared with the truth on the boxes it must report (every box,
or in ``touched`` reporting only the boxes the step involves), after normalising
harmless variation. The first wrong step is the first error.

Tags say what a wrong step got wrong *at that step*: the step is re-done on the seat's
own previous report, so an early slip is tagged once and the steps that merely carry it
on are tagged ``carried``. A new mistake is ``stale_state`` (the previous state repeated)
or ``wrong_box`` (the operation done with another box), else any of ``count_drift``
(clips created or destroyed), ``paint_changed_count``, ``colour_lost``, ``phantom_colour``
and ``focus_loss`` (a box or colour the step did not involve changed), else ``miscount``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.paperclip.answers import normalise
from games.paperclip.generator import DIMENSIONS, TIERS, Puzzle
from games.paperclip.world import Operation, State, apply_lenient, total

GRADES = ("full", "core", "wrong", "invalid")
SCORES = {"full": 1.0, "core": 0.5, "wrong": 0.0, "invalid": 0.0}
TAGS = (
    "count_drift",
    "colour_lost",
    "phantom_colour",
    "wrong_box",
    "paint_changed_count",
    "focus_loss",
    "stale_state",
    "miscount",
    "carried",
)
REPORTING = ("full", "touched")


@dataclass(frozen=True, slots=True)
class StepCheck:
    """One reported step: right or not, and the tags of a wrong one."""

    step: int
    correct: bool
    tags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Grade:
    """A seat's result on one puzzle."""

    grade: str
    first_error: int | None = None
    steps: tuple[StepCheck, ...] = ()
    final_correct: bool = False
    reported: tuple[State | None, ...] = ()
    finals: tuple[int | None, int | None] = (None, None)
    problems: tuple[str, ...] = field(default=())

    @property
    def score(self) -> float:
        """1, 0.5 or 0."""
        return SCORES[self.grade]

    @property
    def tags(self) -> list[str]:
        """Every tag of every wrong step, in step order."""
        return [tag for check in self.steps for tag in check.tags]

    def export(self) -> dict[str, Any]:
        """The grade as ``arena export`` writes it."""
        return {
            "grade": self.grade,
            "score": self.score,
            "first_error": self.first_error,
            "final_correct": self.final_correct,
            "reported_states": list(self.reported),
            "reported_answer": {"total": self.finals[0], "colour_count": self.finals[1]},
            "tags": self.tags,
            "step_tags": {str(c.step): list(c.tags) for c in self.steps if not c.correct},
        }


def scope(puzzle: Puzzle, op: Operation, reporting: str) -> tuple[str, ...]:
    """The boxes a step must report."""
    return puzzle.boxes if reporting == "full" else tuple(b for b in puzzle.boxes if b in op.touched())


def _alternatives(op: Operation, boxes: tuple[str, ...]) -> list[Operation]:
    """``op`` with one box parameter changed, or source and destination swapped."""
    if op.op == "compare":
        return []
    variants = []
    for name in ("src", "dst", "box"):
        current = getattr(op, name)
        if current is None:
            continue
        changes: list[dict[str, Any]] = [{name: other} for other in boxes if other != current]
        variants += [replace(op, **change) for change in changes]
    if op.src is not None and op.dst is not None:
        variants.append(replace(op, src=op.dst, dst=op.src))
    return variants


def step_tags(
    op: Operation, previous: State, reported: State, boxes: tuple[str, ...], all_boxes: tuple[str, ...]
) -> tuple[str, ...]:
    """Tags of a wrong step: ``reported`` against ``op`` done on the seat's ``previous`` report."""
    expected = normalise(apply_lenient(previous, op), boxes)
    if reported == expected:
        return ("carried",)
    before = normalise(previous, boxes)
    if reported == before and expected != before:
        return ("stale_state",)
    for other in _alternatives(op, all_boxes):
        if normalise(apply_lenient(previous, other), boxes) == reported:
            return ("wrong_box",)
    tags = []
    if total(reported) != total(expected):
        tags.append("count_drift")
    if op.op == "paint" and op.box in boxes and total(reported, op.box) != total(expected, op.box):
        tags.append("paint_changed_count")
    if any(n and not reported[b].get(c) for b in boxes for c, n in expected[b].items()):
        tags.append("colour_lost")
    if any(n and not expected[b].get(c) for b in boxes for c, n in reported[b].items()):
        tags.append("phantom_colour")
    if _focus_lost(op, reported, expected, boxes):
        tags.append("focus_loss")
    return tuple(tags) or ("miscount",)


def _focus_lost(op: Operation, reported: State, expected: State, boxes: tuple[str, ...]) -> bool:
    involved = op.colours()
    for box in boxes:
        if box not in op.touched() or op.op == "compare":
            if reported[box] != expected[box]:
                return True
        elif involved is not None:
            colours = set(reported[box]) | set(expected[box])
            if any(reported[box].get(c, 0) != expected[box].get(c, 0) for c in colours - set(involved)):
                return True
    return False


def grade_puzzle(
    puzzle: Puzzle,
    reports: Sequence[State | None],
    finals: tuple[int | None, int | None],
    reporting: str = "full",
) -> Grade:
    """Grade one seat's reports (one per step, ``None`` if missing) and final answer."""
    reported = tuple(reports)
    missing = [k + 1 for k, r in enumerate(reports) if r is None]
    if len(reports) != puzzle.steps or missing or None in finals:
        problems = [f"step {k} missing" for k in missing]
        if len(reports) != puzzle.steps:
            problems.append(f"{len(reports)} steps reported, {puzzle.steps} asked")
        if None in finals:
            problems.append("final answer missing")
        return Grade("invalid", reported=reported, finals=finals, problems=tuple(problems))
    belief: State = {box: dict(colours) for box, colours in puzzle.initial.items()}
    checks = []
    for k, (op, report) in enumerate(zip(puzzle.operations, reports, strict=True), start=1):
        assert report is not None
        boxes = scope(puzzle, op, reporting)
        seen = normalise(report, boxes)
        correct = seen == normalise(puzzle.states[k - 1], boxes)
        tags = () if correct else step_tags(op, belief, seen, boxes, puzzle.boxes)
        checks.append(StepCheck(k, correct, tags))
        belief = {**belief, **seen}
    first_error = next((c.step for c in checks if not c.correct), None)
    final_correct = finals == puzzle.answer
    grade = ("full" if first_error is None else "core") if final_correct else "wrong"
    return Grade(grade, first_error, tuple(checks), final_correct, reported, finals)


def seat_metrics(puzzles: list[Puzzle], grades: list[Grade]) -> dict[str, Any]:
    """Score, grade counts, accuracy per tier and per dimension, first errors, tags, breaking point."""
    count = len(grades)
    metrics: dict[str, Any] = {
        "puzzles": count,
        **{grade: sum(g.grade == grade for g in grades) for grade in GRADES},
        "accuracy": round(sum(g.grade == "full" for g in grades) / count, 4) if count else 0.0,
        "unparsable_rate": round(sum(g.grade == "invalid" for g in grades) / count, 4) if count else 0.0,
    }
    by_tier = _accuracy(puzzles, grades, "tier")
    metrics["accuracy_by_tier"] = by_tier
    metrics["accuracy_by_dimensions"] = _accuracy(puzzles, grades, "dimensions")
    for tier, value in by_tier.items():
        metrics[f"acc_{tier}"] = value
    first: dict[str, int] = {}
    for grade in grades:
        if grade.first_error is not None:
            first[str(grade.first_error)] = first.get(str(grade.first_error), 0) + 1
    metrics["first_error"] = dict(sorted(first.items(), key=lambda item: int(item[0])))
    tag_counts = {tag: sum(g.tags.count(tag) for g in grades) for tag in TAGS}
    metrics["tags"] = {tag: n for tag, n in tag_counts.items() if n and tag != "carried"}
    metrics["carried_steps"] = tag_counts["carried"]
    metrics["breaking_point"] = next((t for t in TIERS if t in by_tier and by_tier[t] < 0.5), None)
    return metrics


def _accuracy(puzzles: list[Puzzle], grades: list[Grade], axis: str) -> dict[str, float]:
    groups: dict[str, list[Grade]] = {}
    for puzzle, grade in zip(puzzles, grades, strict=False):
        groups.setdefault(getattr(puzzle, axis), []).append(grade)
    order = {key: i for i, key in enumerate((*TIERS, *DIMENSIONS))}
    return {
        key: round(sum(g.grade == "full" for g in groups[key]) / len(groups[key]), 4)
        for key in sorted(groups, key=lambda key: order.get(key, len(order)))
    }
