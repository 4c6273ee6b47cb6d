"""The paperclip world: boxes of coloured clips and the operations on them (seed 2.1-2.2).

A state maps box name -> colour -> count, with no zero counts and every box present
(an empty box is ``{}``). Operations are frozen records whose parameters map one to one
onto their English text, and back (:func:`parse_text`). :func:`apply` enforces the
rules (raising :class:`IllegalOperation`); :func:`apply_lenient` applies an operation
to a state someone *believes* in, clamping what is not there, for grading and baselines.
Clips are never created or destroyed. Nothing here depends on the game contract.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

State = dict[str, dict[str, int]]
"""box -> colour -> count (no zero counts; an empty box is ``{}``)."""

BOX_NAMES = ("A", "B", "C", "D")
COLOURS = ("red", "silver", "black", "blue", "green", "gold")
OP_KINDS = ("move", "merge", "split", "paint", "compare")


class IllegalOperation(ValueError):
    """An operation that cannot be carried out on a state (missing clips, wrong box)."""


@dataclass(frozen=True, slots=True)
class Operation:
    """One step. Which fields are set depends on ``op``.

    - ``move``: ``src``, ``dst``, and either nothing (all clips of ``src``), ``colour``
      (all clips of that colour) or ``colour`` and ``count`` (that many of that colour).
    - ``merge``: ``src``, ``dst`` (all of ``src`` goes to ``dst``; ``src`` ends empty).
    - ``split``: ``src``, ``dst`` (an empty box), ``colour``, ``count``.
    - ``paint``: ``box``, ``colour``, ``to``, and optionally ``count`` (that many clips of
      ``colour``; without it, all of them). Counts never change.
    - ``compare``: ``src`` and ``dst`` (which holds more; a distractor, nothing changes).
    """

    op: str
    src: str | None = None
    dst: str | None = None
    box: str | None = None
    colour: str | None = None
    count: int | None = None
    to: str | None = None

    def params(self) -> dict[str, Any]:
        """The parameters that are set (``op`` excluded)."""
        return {k: v for k, v in asdict(self).items() if k != "op" and v is not None}

    def touched(self) -> tuple[str, ...]:
        """The boxes this operation involves (reported in ``touched`` mode)."""
        if self.op == "paint":
            assert self.box is not None
            return (self.box,)
        assert self.src is not None and self.dst is not None
        return (self.src, self.dst)

    def colours(self) -> tuple[str, ...] | None:
        """The colours the operation acts on, or ``None`` when it takes every colour."""
        if self.op == "paint":
            assert self.colour is not None and self.to is not None
            return (self.colour, self.to)
        if self.op in ("move", "split") and self.colour is not None:
            return (self.colour,)
        if self.op == "compare":
            return ()
        return None

    @property
    def partial(self) -> bool:
        """True for operations on only part of a colour (the seed's third dimension)."""
        return self.count is not None

    @property
    def text(self) -> str:
        """The operation in English, built from its parameters only."""
        return op_text(self)


def copy_state(state: State) -> State:
    """A deep copy of ``state``."""
    return {box: dict(colours) for box, colours in state.items()}


def total(state: State, box: str | None = None) -> int:
    """Clips in ``box``, or in every box."""
    boxes = [box] if box is not None else list(state)
    return sum(sum(state.get(b, {}).values()) for b in boxes)


def _clips(count: int, colour: str | None = None) -> str:
    noun = "clip" if count == 1 else "clips"
    return f"{count} {colour} {noun}" if colour else f"{count} {noun}"


def op_text(op: Operation) -> str:
    """The English text of ``op``; :func:`parse_text` maps it back."""
    if op.op == "move":
        if op.colour is None:
            return f"Move all clips from box {op.src} to box {op.dst}."
        if op.count is None:
            return f"Move all {op.colour} clips from box {op.src} to box {op.dst}."
        return f"Move {_clips(op.count, op.colour)} from box {op.src} to box {op.dst}."
    if op.op == "merge":
        return f"Merge box {op.src} into box {op.dst} (box {op.src} is left empty)."
    if op.op == "split":
        assert op.count is not None
        return f"Split {_clips(op.count, op.colour)} off box {op.src} into the empty box {op.dst}."
    if op.op == "paint":
        if op.count is None:
            return f"Paint all {op.colour} clips in box {op.box} {op.to}."
        return f"Paint {_clips(op.count, op.colour)} of box {op.box} {op.to}."
    if op.op == "compare":
        return f"Compare box {op.src} with box {op.dst}: which holds more clips?"
    raise ValueError(f"unknown operation {op.op!r}")


_C = r"([a-z]+)"
_B = r"box ([A-D])"
_N = r"(\d+)"
_PATTERNS: tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...] = tuple(
    (re.compile(f"^{pattern}$"), kind, fields)
    for pattern, kind, fields in (
        (rf"Move all clips from {_B} to {_B}\.", "move", ("src", "dst")),
        (rf"Move all {_C} clips from {_B} to {_B}\.", "move", ("colour", "src", "dst")),
        (rf"Move {_N} {_C} clips? from {_B} to {_B}\.", "move", ("count", "colour", "src", "dst")),
        (rf"Merge {_B} into {_B} \(box [A-D] is left empty\)\.", "merge", ("src", "dst")),
        (
            rf"Split {_N} {_C} clips? off {_B} into the empty {_B}\.",
            "split",
            ("count", "colour", "src", "dst"),
        ),
        (rf"Paint all {_C} clips in {_B} {_C}\.", "paint", ("colour", "box", "to")),
        (rf"Paint {_N} {_C} clips? of {_B} {_C}\.", "paint", ("count", "colour", "box", "to")),
        (rf"Compare {_B} with {_B}: which holds more clips\?", "compare", ("src", "dst")),
    )
)


def parse_text(text: str) -> Operation:
    """The operation an English text describes (the inverse of :func:`op_text`)."""
    for pattern, kind, fields in _PATTERNS:
        match = pattern.match(text.strip())
        if match:
            values: dict[str, Any] = dict(zip(fields, match.groups(), strict=True))
            if "count" in values:
                values["count"] = int(values["count"])
            return Operation(kind, **values)
    raise ValueError(f"not an operation text: {text!r}")


def _take(state: State, box: str, colour: str, count: int, *, strict: bool) -> int:
    have = state[box].get(colour, 0)
    if count > have:
        if strict:
            raise IllegalOperation(f"box {box} holds {have} {colour}, cannot take {count}")
        count = have
    if count <= 0:
        if strict:
            raise IllegalOperation(f"nothing to take: {count} {colour} from box {box}")
        return 0
    left = have - count
    if left:
        state[box][colour] = left
    else:
        del state[box][colour]
    return count


def _put(state: State, box: str, colour: str, count: int) -> None:
    if count > 0:
        state[box][colour] = state[box].get(colour, 0) + count


def _check_boxes(state: State, *boxes: str | None) -> None:
    for box in boxes:
        if box is None or box not in state:
            raise IllegalOperation(f"no box {box!r} (boxes: {', '.join(state)})")


def _transfer(state: State, op: Operation, *, strict: bool) -> None:
    src, dst = op.src, op.dst
    assert src is not None and dst is not None
    if strict and src == dst:
        raise IllegalOperation("source and destination are the same box")
    if op.colour is None:
        if strict and not state[src]:
            raise IllegalOperation(f"box {src} is empty")
        moving = dict(state[src])
        state[src] = {}
        for colour, count in moving.items():
            _put(state, dst, colour, count)
        return
    if op.op == "split" and strict and state[dst]:
        raise IllegalOperation(f"box {dst} is not empty")
    wanted = op.count if op.count is not None else state[src].get(op.colour, 0)
    if strict and op.count is None and wanted == 0:
        raise IllegalOperation(f"box {src} holds no {op.colour}")
    moved = _take(state, src, op.colour, wanted, strict=strict)
    _put(state, dst, op.colour, moved)


def _run(state: State, op: Operation, *, strict: bool) -> State:
    after = copy_state(state)
    if op.op == "compare":
        _check_boxes(after, op.src, op.dst)
        if strict and op.src == op.dst:
            raise IllegalOperation("compare needs two different boxes")
        return after
    if op.op in ("move", "merge", "split"):
        _check_boxes(after, op.src, op.dst)
        if op.op == "merge" and (op.colour is not None or op.count is not None):
            raise IllegalOperation("merge takes whole boxes")
        if op.op == "split" and (op.colour is None or op.count is None):
            raise IllegalOperation("split needs a colour and a count")
        _transfer(after, op, strict=strict)
        return after
    if op.op == "paint":
        _check_boxes(after, op.box)
        assert op.box is not None
        if op.colour is None or op.to is None:
            raise IllegalOperation("paint needs a colour and a target colour")
        if strict and op.colour == op.to:
            raise IllegalOperation("paint must change the colour")
        wanted = op.count if op.count is not None else after[op.box].get(op.colour, 0)
        if strict and wanted == 0:
            raise IllegalOperation(f"box {op.box} holds no {op.colour}")
        painted = _take(after, op.box, op.colour, wanted, strict=strict)
        _put(after, op.box, op.to, painted)
        return after
    raise IllegalOperation(f"unknown operation {op.op!r}")


def apply(state: State, op: Operation) -> State:
    """The state after ``op``; raises :class:`IllegalOperation` if ``op`` cannot be done."""
    return _run(state, op, strict=True)


def apply_lenient(state: State, op: Operation) -> State:
    """The state after ``op`` done as far as ``state`` allows (missing clips are skipped)."""
    return _run({box: state.get(box, {}) for box in _all_boxes(state, op)}, op, strict=False)


def _all_boxes(state: State, op: Operation) -> list[str]:
    boxes = list(state)
    for box in (op.src, op.dst, op.box):
        if box is not None and box not in boxes:
            boxes.append(box)
    return boxes


def compare_result(state: State, op: Operation) -> str:
    """The answer to a ``compare``: which box holds more, or ``equal``."""
    assert op.src is not None and op.dst is not None
    left, right = total(state, op.src), total(state, op.dst)
    if left == right:
        return "equal"
    return op.src if left > right else op.dst
