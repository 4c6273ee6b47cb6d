"""The paperclip benchmark's state and rules (seed 002): seats race on the same puzzles.

Every seat gets the same seeded puzzles and answers at the same time. In ``batch`` mode
one turn is one puzzle (every step and the final question in one answer); in
``stepwise`` mode one turn is one operation, and the question comes with the last one.
The rules, generator, answers and grader live in modules that do not know this class.
"""

from __future__ import annotations

import random
from typing import Any, Self

from pydantic import BaseModel

from arena.contract.game import GameDefinition, GameState, SeatResult
from games.paperclip.answers import batch_model, finals_of, is_abstention, reports_of, step_model
from games.paperclip.generator import Puzzle, generate_set
from games.paperclip.grading import Grade, grade_puzzle, scope, seat_metrics
from games.paperclip.observation import PaperclipObservation
from games.paperclip.options import PaperclipOptions
from games.paperclip.world import State


class PaperclipState(GameState[PaperclipOptions, PaperclipObservation, BaseModel]):
    """Seeded paperclip state-tracking puzzles for one to four racing seats.

    Answer models depend on the moment (how many steps, whether the question comes), so actions
    are typed as any model and read through :meth:`as_answer`.
    """

    def __init__(self, definition: GameDefinition, seed: int, options: PaperclipOptions) -> None:
        super().__init__(definition, seed, options)
        self.mode = options.mode
        self.reporting = options.reporting
        self.puzzles: list[Puzzle] = generate_set(
            seed, options.puzzles, options.tier, options.dimensions, options.distractors
        )
        self.index = 0
        self.step = 1
        self.partial: dict[str, list[State | None]] = {seat: [] for seat in self.seats}
        self.grades: dict[str, list[Grade]] = {seat: [] for seat in self.seats}
        self.last: dict[str, dict[str, Any]] = {seat: {} for seat in self.seats}
        self.log: list[dict[str, dict[str, Any]]] = []

    # -- contract -------------------------------------------------------------------
    def pending(self) -> list[str]:
        return [] if self.over() else list(self.seats)

    @property
    def puzzle(self) -> Puzzle:
        """The puzzle being answered (the last one once over)."""
        return self.puzzles[min(self.index, len(self.puzzles) - 1)]

    def observation(self, seat: str) -> PaperclipObservation:
        puzzle = self.puzzle
        stepwise = self.mode == "stepwise"
        shown = puzzle.operations[: self.step] if stepwise else puzzle.operations
        final = not stepwise or self.step == puzzle.steps
        previous = self.grades[seat][-1] if self.grades[seat] else None
        return PaperclipObservation.model_validate(
            {
                "puzzle": self.index + 1,
                "puzzles": len(self.puzzles),
                "mode": self.mode,
                "reporting": self.reporting,
                "tier": puzzle.tier,
                "dimensions": puzzle.dimensions,
                "distractors": puzzle.distractors,
                "boxes": list(puzzle.boxes),
                "initial": puzzle.initial,
                "steps": puzzle.steps,
                "step": self.step if stepwise else None,
                "operations": [op.text for op in shown],
                "report_boxes": [list(scope(puzzle, op, self.reporting)) for op in shown],
                "question": puzzle.question if final else None,
                "your_reports": list(self.partial[seat]) if stepwise else [],
                "previous_puzzle": None
                if previous is None
                else {"grade": previous.grade, "first_error": previous.first_error},
            }
        )

    def action_model(self, seat: str) -> type[BaseModel]:
        if self.mode == "batch":
            return batch_model(self.puzzle.steps)
        return step_model(self.step == self.puzzle.steps)

    def validate(self, seat: str, action: BaseModel) -> str | None:
        action = self.as_answer(seat, action)
        if is_abstention(action):
            return None
        names = [f"step_{k}" for k in range(1, self.puzzle.steps + 1)] if self.mode == "batch" else ["boxes"]
        for name, report in zip(names, reports_of(action), strict=True):
            if report is None:
                return f"{name} is missing: report the boxes after every step"
            unknown = sorted(set(report) - set(self.puzzle.boxes))
            if unknown:
                return f"{name}: there is no box {unknown[0]} (boxes: {', '.join(self.puzzle.boxes)})"
        if "total" in type(action).model_fields and None in finals_of(action):
            return "total and colour_count are required: answer the final question"
        return None

    def fallback(self, seat: str) -> BaseModel:
        """No answer at all: graded ``invalid`` (0, counted apart)."""
        return self.action_model(seat)(reason="fallback: no usable answer (graded invalid)")

    def sample_action(self, seat: str, rng: random.Random) -> BaseModel:
        model = self.action_model(seat)
        if rng.random() < 0.1:
            return model(reason="random abstention")
        puzzle = self.puzzle
        steps = range(1, puzzle.steps + 1) if self.mode == "batch" else [self.step]
        values: dict[str, Any] = {}
        for k in steps:
            report = {box: dict(colours) for box, colours in puzzle.states[k - 1].items()}
            if rng.random() < 0.3:
                box = rng.choice(puzzle.boxes)
                colour = rng.choice(sorted(report[box]) or ["red"])
                report[box][colour] = max(0, report[box].get(colour, 0) + rng.choice((-2, -1, 1)))
            values["boxes" if self.mode == "stepwise" else f"step_{k}"] = report
        if "total" in model.model_fields:
            right_total, right_colour = puzzle.answer
            values["total"] = right_total + (rng.choice((-1, 1)) if rng.random() < 0.2 else 0)
            values["total"] = max(0, values["total"])
            values["colour_count"] = right_colour
        return model.model_validate({**values, "reason": "random legal answer"})

    def apply(self, actions: dict[str, BaseModel]) -> None:
        if set(actions) != set(self.pending()):
            raise ValueError(f"expected answers from {self.pending()}, got {sorted(actions)}")
        puzzle = self.puzzle
        last_step = self.mode == "batch" or self.step == puzzle.steps
        self.log.append({seat: action.model_dump(mode="json") for seat, action in actions.items()})
        for seat, raw in actions.items():
            action = self.as_answer(seat, raw)
            problem = self.validate(seat, action)
            if problem:
                raise ValueError(problem)
            if is_abstention(action):
                reports: list[State | None] = [None] * (puzzle.steps if self.mode == "batch" else 1)
            else:
                reports = reports_of(action)
            self.partial[seat].extend(reports)
            self.last[seat] = {
                "puzzle": self.index + 1,
                "step": self.step if self.mode == "stepwise" else None,
            }
            if last_step:
                grade = grade_puzzle(puzzle, self.partial[seat], finals_of(action), self.reporting)
                self.grades[seat].append(grade)
                self.partial[seat] = []
                self.last[seat].update(grade.export())
                self.last[seat]["score_so_far"] = self._score(seat)
        if last_step:
            self.index += 1
            self.step = 1
        else:
            self.step += 1

    def over(self) -> bool:
        return self.index >= len(self.puzzles)

    def result(self) -> dict[str, SeatResult]:
        return {
            seat: SeatResult(
                score=self._score(seat),
                metrics=seat_metrics(self.puzzles, grades),
            )
            for seat, grades in self.grades.items()
        }

    def to_json(self) -> dict[str, Any]:
        """The full state, and the answers given so far (``from_json`` replays them)."""
        return {
            "seed": self.seed,
            "options": self.options.model_dump(),
            "index": self.index,
            "step": self.step,
            "puzzles": [puzzle.export() for puzzle in self.puzzles],
            "partial": {seat: list(reports) for seat, reports in self.partial.items()},
            "grades": {seat: [g.export() for g in grades] for seat, grades in self.grades.items()},
            "answers": [dict(step) for step in self.log],
        }

    @classmethod
    def from_json(cls, definition: GameDefinition, data: dict[str, Any]) -> Self:
        # Puzzles and grades are pure functions of the seed, the options and the answers.
        state = cls(definition, data["seed"], PaperclipOptions.model_validate(data["options"]))
        for step in data["answers"]:
            state.apply({seat: state.action_model(seat).model_validate(a) for seat, a in step.items()})
        return state

    def turn_state(self, seat: str) -> dict[str, Any]:
        return dict(self.last[seat])

    # -- helpers --------------------------------------------------------------------
    def _score(self, seat: str) -> float:
        grades = self.grades[seat]
        return round(sum(g.score for g in grades) / len(grades), 4) if grades else 0.0

    def as_answer(self, seat: str, action: BaseModel) -> BaseModel:
        """``action`` as an instance of the answer model ``seat`` has now."""
        model = self.action_model(seat)
        return action if isinstance(action, model) else model.model_validate(action.model_dump())
