"""Scripted paperclip players. They read the operations' text, as a model would.

``oracle`` replays every operation exactly. ``sloppy`` makes the seed's typical mistakes
(4.1-4.2) at a set rate, from its own seeded generator, and carries its own errors on:
after a paint it forgets the clips already of the new colour, when it moves clips out
of a box it drops that box's other colours, and it loses count on partial moves.
``random`` writes well-formed nonsense.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from arena.contract.baseline import Baseline
from arena.contract.player import DecisionRequest
from games.paperclip.observation import PaperclipObservation
from games.paperclip.world import COLOURS, Operation, State, apply_lenient, copy_state, parse_text, total

SLOPPY_RATE = 0.35


class PaperclipBaseline(Baseline[PaperclipObservation, BaseModel]):
    """A scripted racer: read the puzzle, track the boxes step by step, fill the answer."""

    def step(self, state: State, op: Operation) -> State:
        """The boxes this player believes follow ``op``."""
        return apply_lenient(state, op)

    def question(self, state: State, observation: PaperclipObservation) -> tuple[int, int]:
        """This player's answer to the final question."""
        text = observation.question
        assert text is not None, "asked only on the step that carries the question"
        box = text.split("box ", 1)[1].split(" ", 1)[0]
        colour = text.rsplit(" are ", 1)[1].rstrip("?")
        return total(state, box), state.get(box, {}).get(colour, 0)

    def act(self, request: DecisionRequest) -> BaseModel:
        """The answer, built with the moment's answer model (steps and question depend on it)."""
        observation = request.observation
        if not isinstance(observation, PaperclipObservation):
            observation = PaperclipObservation.model_validate(observation.model_dump())
        ops = [parse_text(text) for text in observation.operations]
        values: dict[str, Any] = {}
        if observation.mode == "batch":
            state = copy_state(observation.initial)
            for k, op in enumerate(ops, start=1):
                state = self.step(state, op)
                values[f"step_{k}"] = state
        else:
            reports = [r for r in observation.your_reports if r is not None]
            state = copy_state(reports[-1] if reports else observation.initial)
            state = self.step(state, ops[-1])
            values["boxes"] = state
        if observation.question is not None:
            values["total"], values["colour_count"] = self.question(state, observation)
        reason = f"{self.name}: tracked {len(ops)} operation(s) from the text"
        return request.action_model.model_validate({**values, "reason": reason})


class OraclePlayer(PaperclipBaseline):
    """Carries out every operation exactly: always right."""

    name = "oracle"


class SloppyPlayer(PaperclipBaseline):
    """Makes the seed's typical mistakes at a set rate (paint, focus loss, partial counts)."""

    name = "sloppy"

    def step(self, state: State, op: Operation) -> State:
        after = apply_lenient(state, op)
        if self.rng.random() >= SLOPPY_RATE:
            return after
        if op.op == "paint" and op.box is not None and op.to is not None:
            # Forgets the clips that already had the new colour: only the painted ones remain.
            painted = after[op.box].get(op.to, 0) - state.get(op.box, {}).get(op.to, 0)
            if painted < after[op.box].get(op.to, 0):
                after[op.box][op.to] = painted
        elif op.op in ("move", "split") and op.colour is not None and op.src is not None:
            if op.count is not None and op.dst is not None and self.rng.random() < 0.5:
                # Loses count on a partial move: one clip too many or too few arrives.
                arrived = after[op.dst].get(op.colour, 0) + self.rng.choice((-1, 1))
                after[op.dst][op.colour] = max(0, arrived)
            else:
                # Focus loss: the other colours of the source box are forgotten.
                after[op.src] = {c: n for c, n in after[op.src].items() if c == op.colour}
        return {box: {c: n for c, n in colours.items() if n} for box, colours in after.items()}


class RandomPlayer(PaperclipBaseline):
    """Reports random boxes and random final numbers (well formed, almost always wrong)."""

    name = "random"

    def step(self, state: State, op: Operation) -> State:
        return {
            box: {c: self.rng.randint(1, 10) for c in self.rng.sample(COLOURS[:4], self.rng.randint(0, 2))}
            for box in state
        }

    def question(self, state: State, observation: PaperclipObservation) -> tuple[int, int]:
        return self.rng.randint(0, 20), self.rng.randint(0, 10)


BASELINES: dict[str, type[PaperclipBaseline]] = {
    cls.name: cls for cls in (OraclePlayer, SloppyPlayer, RandomPlayer)
}
"""The scripted racers by name (the definition lists them with ``baseline_table``)."""
