"""Seeded puzzle generator with the seed's three difficulty axes (seed 2.3, 5.3).

Each operation's parameters are drawn from the current state, so every operation is
legal by construction (and :func:`games.paperclip.world.apply` checks it anyway). The
axes, recorded with every puzzle:

- steps: ``entry`` 3, ``medium`` 5, ``hard`` 8-10 state-changing operations;
- dimensions: ``counts`` (one colour, whole moves), ``colours`` (several colours,
  whole moves and paints), ``partial`` (also moves, splits and paints of part of a colour);
- distractors: how many ``compare`` operations are inserted (they change nothing).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.paperclip.texts_zh import op_text_zh, question_zh
from games.paperclip.world import BOX_NAMES, COLOURS, Operation, State, apply, copy_state, total

TIERS = ("entry", "medium", "hard")
TIER_STEPS = {"entry": (3, 3), "medium": (5, 5), "hard": (8, 10)}
DIMENSIONS = ("counts", "colours", "partial")
MIX = "mix"
COUNT_MIN, COUNT_MAX = 1, 10


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One generated puzzle: the start, the operations, the truth after each, the question."""

    index: int
    tier: str
    dimensions: str
    distractors: int
    initial: State
    operations: tuple[Operation, ...]
    states: tuple[State, ...]
    question_box: str
    question_colour: str

    @property
    def boxes(self) -> tuple[str, ...]:
        """Box names in order."""
        return tuple(self.initial)

    @property
    def steps(self) -> int:
        """Number of operations (distractors included)."""
        return len(self.operations)

    @property
    def question(self) -> str:
        """The final question in English."""
        return (
            f"How many clips are in box {self.question_box} at the end, "
            f"and how many of them are {self.question_colour}?"
        )

    @property
    def answer(self) -> tuple[int, int]:
        """(total in the asked box, clips of the asked colour in it) at the end."""
        final = self.states[-1]
        box = final[self.question_box]
        return total(final, self.question_box), box.get(self.question_colour, 0)

    def before(self, step: int) -> State:
        """The true state before 1-based ``step``."""
        return self.initial if step == 1 else self.states[step - 2]

    def export(self) -> dict[str, Any]:
        """The puzzle as ``arena export`` writes it."""
        return {
            "index": self.index,
            "tier": self.tier,
            "dimensions": self.dimensions,
            "distractors": self.distractors,
            "initial": self.initial,
            "operations": [
                {"op": op.op, **op.params(), "text": op.text, "text_zh": op_text_zh(op)}
                for op in self.operations
            ],
            "states": list(self.states),
            "question": self.question,
            "question_zh": question_zh(self.question_box, self.question_colour),
            "question_box": self.question_box,
            "question_colour": self.question_colour,
            "answer": {"total": self.answer[0], "colour_count": self.answer[1]},
        }


def _initial(rng: random.Random, dimensions: str) -> State:
    boxes = BOX_NAMES[: rng.randint(2, 4)]
    single = rng.choice(COLOURS) if dimensions == "counts" else None
    empty = rng.choice(boxes) if len(boxes) >= 3 and rng.random() < 0.5 else None
    state: State = {}
    for box in boxes:
        if box == empty:
            state[box] = {}
            continue
        colours = [single] if single else rng.sample(COLOURS[:4], rng.randint(1, 3))
        state[box] = {colour: rng.randint(COUNT_MIN, COUNT_MAX) for colour in colours}
    return state


Drawer = Callable[[random.Random, State], Operation | None]


def _pair(rng: random.Random, state: State, *, src_nonempty: bool = True) -> tuple[str, str] | None:
    sources = [b for b in state if state[b]] if src_nonempty else list(state)
    if not sources:
        return None
    src = rng.choice(sources)
    dst = rng.choice([b for b in state if b != src])
    return src, dst


def _move_all(rng: random.Random, state: State) -> Operation | None:
    pair = _pair(rng, state)
    return Operation("move", src=pair[0], dst=pair[1]) if pair else None


def _merge(rng: random.Random, state: State) -> Operation | None:
    pair = _pair(rng, state)
    return Operation("merge", src=pair[0], dst=pair[1]) if pair else None


def _move_colour(rng: random.Random, state: State) -> Operation | None:
    pair = _pair(rng, state)
    if pair is None:
        return None
    colour = rng.choice(sorted(state[pair[0]]))
    return Operation("move", src=pair[0], dst=pair[1], colour=colour)


def _paint_all(rng: random.Random, state: State) -> Operation | None:
    boxes = [b for b in state if state[b]]
    if not boxes:
        return None
    box = rng.choice(boxes)
    colour = rng.choice(sorted(state[box]))
    return Operation("paint", box=box, colour=colour, to=_paint_target(rng, state, box, colour))


def _paint_target(rng: random.Random, state: State, box: str, colour: str) -> str:
    # Half the time paint into a colour the box already holds: the seed's classic trap.
    present = [c for c in sorted(state[box]) if c != colour]
    if present and rng.random() < 0.5:
        return rng.choice(present)
    return rng.choice([c for c in COLOURS if c != colour])


def _partial_choice(rng: random.Random, state: State, boxes: list[str]) -> tuple[str, str, int] | None:
    options = [(b, c) for b in boxes for c, n in sorted(state[b].items()) if n >= 2]
    if not options:
        return None
    box, colour = rng.choice(options)
    return box, colour, rng.randint(1, state[box][colour] - 1)


def _move_part(rng: random.Random, state: State) -> Operation | None:
    choice = _partial_choice(rng, state, list(state))
    if choice is None:
        return None
    src, colour, count = choice
    dst = rng.choice([b for b in state if b != src])
    return Operation("move", src=src, dst=dst, colour=colour, count=count)


def _split(rng: random.Random, state: State) -> Operation | None:
    empties = [b for b in state if not state[b]]
    if not empties:
        return None
    choice = _partial_choice(rng, state, [b for b in state if state[b]])
    if choice is None:
        return None
    src, colour, count = choice
    return Operation("split", src=src, dst=rng.choice(empties), colour=colour, count=count)


def _paint_part(rng: random.Random, state: State) -> Operation | None:
    choice = _partial_choice(rng, state, list(state))
    if choice is None:
        return None
    box, colour, count = choice
    return Operation("paint", box=box, colour=colour, count=count, to=_paint_target(rng, state, box, colour))


DRAWERS: dict[str, tuple[Drawer, ...]] = {
    "counts": (_move_all, _merge),
    "colours": (_move_all, _merge, _move_colour, _move_colour, _paint_all, _paint_all),
    "partial": (_merge, _move_colour, _paint_all, _move_part, _move_part, _split, _split, _paint_part),
}


def _draw(rng: random.Random, state: State, dimensions: str) -> Operation:
    drawers = DRAWERS[dimensions]
    for _ in range(50):
        op = rng.choice(drawers)(rng, state)
        if op is not None:
            return op
    for drawer in drawers:  # every tier has a whole-box move, legal while any clip exists
        op = drawer(rng, state)
        if op is not None:
            return op
    raise AssertionError("no legal operation in a state holding clips")


def generate_puzzle(rng: random.Random, index: int, tier: str, dimensions: str, distractors: int) -> Puzzle:
    """One puzzle drawn from ``rng`` on the given axes."""
    low, high = TIER_STEPS[tier]
    changing = rng.randint(low, high)
    state = _initial(rng, dimensions)
    initial = copy_state(state)
    ops: list[Operation] = []
    states: list[State] = []
    for _ in range(changing):
        op = _draw(rng, state, dimensions)
        state = apply(state, op)
        ops.append(op)
        states.append(copy_state(state))
    for _ in range(distractors):  # compare changes nothing; never the opening step
        at = rng.randint(1, len(ops))
        a, b = rng.sample(list(state), 2)
        ops.insert(at, Operation("compare", src=a, dst=b))
        states.insert(at, copy_state(states[at - 1]))
    question_box = rng.choice([b for b in state if state[b]])
    colours = sorted(state[question_box])
    if rng.random() < 0.2:
        colours += [
            c for c in COLOURS[:4] if c not in colours and any(c in box for s in states for box in s.values())
        ]
    return Puzzle(
        index=index,
        tier=tier,
        dimensions=dimensions,
        distractors=sum(op.op == "compare" for op in ops),
        initial=initial,
        operations=tuple(ops),
        states=tuple(states),
        question_box=question_box,
        question_colour=rng.choice(colours),
    )


def plan(count: int, tier: str, dimensions: str, rng: random.Random) -> list[tuple[str, str]]:
    """(tier, dimensions) of each puzzle; ``mix`` crosses the axes evenly, in a seeded order."""
    tiers = [tier] * count if tier != MIX else [TIERS[i % 3] for i in range(count)]
    dims = [dimensions] * count if dimensions != MIX else [DIMENSIONS[(i // 3) % 3] for i in range(count)]
    pairs = list(zip(tiers, dims, strict=True))
    if tier == MIX or dimensions == MIX:
        rng.shuffle(pairs)
    return pairs


def generate_set(seed: int, count: int, tier: str, dimensions: str, distractors: int) -> list[Puzzle]:
    """The episode's puzzles, all from one generator seeded by ``seed``."""
    rng = random.Random(f"paperclip:{seed}")
    return [
        generate_puzzle(rng, i, t, d, distractors)
        for i, (t, d) in enumerate(plan(count, tier, dimensions, rng))
    ]
