"""Answer models and the compact box notation (seed 3.1, 5.2).

A report of boxes is ``box -> colour -> count``. Models send it as JSON; a person (or a
model that prefers text) may write it compactly, ``A: red 3, silver 2; B: empty;
C: black 4``, and the model's validator turns the text into the mapping. Harmless
variation is normalised here: box names ``a`` / ``box A`` / ``A``, colour case, counts as
strings, a colour at 0 listed or left out, an empty box as ``{}``, ``empty``, ``-`` or
``0``. Batch answers have one field per step (``step_1`` ...), stepwise answers one
``boxes`` field; the last answer of a puzzle also carries the final question's two numbers.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, Field, create_model

from games.paperclip.world import BOX_NAMES, State

EMPTY_WORDS = {"", "empty", "-", "0", "{}", "none", "nothing"}
REPORT_HELP = "boxes after {step}, e.g. A: red 3, silver 2; B: empty; C: black 4"
_ITEM = re.compile(r"^(?:([a-z]+)\s*[:=]?\s*(\d+)|(\d+)\s*([a-z]+))$")
_BOX = re.compile(r"^(?:box\s*)?([a-d])$")
MAX_COUNT = 500


def box_name(key: object) -> str:
    """``A`` from ``A``, ``a``, ``box A`` or ``Box a``; ValueError otherwise."""
    match = _BOX.match(str(key).strip().lower())
    if not match:
        raise ValueError(f"unknown box {str(key)[:20]!r} (boxes are {', '.join(BOX_NAMES)})")
    return match.group(1).upper()


def _count(value: object, where: str) -> int:
    if isinstance(value, bool):
        raise ValueError(f"{where}: a count must be a whole number")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, int):
        raise ValueError(f"{where}: a count must be a whole number, not {str(value)[:20]!r}")
    if not 0 <= value <= MAX_COUNT:
        raise ValueError(f"{where}: a count must be from 0 to {MAX_COUNT}, not {value}")
    return value


def _colours(value: object, box: str) -> dict[str, int]:
    if value is None or (isinstance(value, str | int) and str(value).strip().lower() in EMPTY_WORDS):
        return {}
    if isinstance(value, str):
        return parse_box_text(value, box)
    if not isinstance(value, dict):
        raise ValueError(f"box {box}: expected colour -> count, not {type(value).__name__}")
    colours: dict[str, int] = {}
    for colour, count in value.items():
        name = str(colour).strip().lower()
        if not name.isalpha():
            raise ValueError(f"box {box}: {str(colour)[:20]!r} is not a colour")
        amount = _count(count, f"box {box} {name}")
        if amount:
            colours[name] = colours.get(name, 0) + amount
    return colours


def parse_box_text(text: str, box: str = "?") -> dict[str, int]:
    """``red 3, silver 2`` (or ``3 red``, ``red=3``) as a colour -> count mapping."""
    colours: dict[str, int] = {}
    for item in text.split(","):
        entry = item.strip().lower()
        if entry in EMPTY_WORDS:
            continue
        match = _ITEM.match(entry)
        if not match:
            raise ValueError(f"box {box}: cannot read {item.strip()[:30]!r} (write e.g. red 3)")
        colour = match.group(1) or match.group(4)
        count = int(match.group(2) or match.group(3))
        if count:
            colours[colour] = colours.get(colour, 0) + count
    return colours


def parse_report_text(text: str) -> State:
    """``A: red 3, silver 2; B: empty; C: black 4`` (or a JSON object) as a report."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            loaded = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not valid JSON: {exc.msg}") from None
        return coerce_report(loaded)
    report: State = {}
    for part in re.split(r"[;\n|]", stripped):
        if not part.strip():
            continue
        if ":" not in part:
            raise ValueError(f"cannot read {part.strip()[:30]!r}: write a box, a colon, then its clips")
        key, rest = part.split(":", 1)
        box = box_name(key)
        if box in report:
            raise ValueError(f"box {box} is listed twice")
        report[box] = _colours(rest, box)
    if not report:
        raise ValueError("no boxes given (write e.g. A: red 3; B: empty)")
    return report


def coerce_report(value: object) -> State:
    """A report from JSON or compact text, normalised; ValueError with one clear line."""
    if isinstance(value, str):
        return parse_report_text(value)
    if not isinstance(value, dict):
        raise ValueError(f"expected boxes (box -> colour -> count), not {type(value).__name__}")
    report: State = {}
    for key, colours in value.items():
        box = box_name(key)
        report[box] = _colours(colours, box)
    return report


def _optional_report(value: object) -> object:
    return None if value is None or value == "" else coerce_report(value)


Report = Annotated[dict[str, dict[str, int]], BeforeValidator(coerce_report)]


def format_box(colours: dict[str, int]) -> str:
    """``red 3, silver 2`` or ``empty``."""
    return ", ".join(f"{c} {n}" for c, n in colours.items() if n) or "empty"


def format_report(report: State, boxes: tuple[str, ...] | None = None) -> str:
    """A report in the compact notation, boxes in order."""
    names = boxes if boxes is not None else tuple(report)
    return "; ".join(f"{box}: {format_box(report.get(box, {}))}" for box in names)


def normalise(report: State | None, boxes: tuple[str, ...]) -> State:
    """``report`` restricted to ``boxes``, every one present, zero counts dropped."""
    report = report or {}
    return {box: {c: n for c, n in sorted(report.get(box, {}).items()) if n} for box in boxes}


_FINAL_FIELDS: dict[str, Any] = {
    "total": (
        int | None,
        Field(None, ge=0, le=MAX_COUNT, description="final answer: clips in the asked box"),
    ),
    "colour_count": (
        int | None,
        Field(None, ge=0, le=MAX_COUNT, description="final answer: clips of the asked colour in that box"),
    ),
}
_REASON: Any = (str, Field("", max_length=1000, description="optional: how you worked it out"))
_STEP_REPORT: Any = Annotated[Report | None, BeforeValidator(_optional_report)]


@functools.cache
def batch_model(steps: int) -> type[BaseModel]:
    """The batch answer for a puzzle of ``steps`` operations: every step, then the question."""
    fields: dict[str, Any] = {
        f"step_{k}": (_STEP_REPORT, Field(None, description=REPORT_HELP.format(step=f"step {k}")))
        for k in range(1, steps + 1)
    }
    model = create_model(f"PaperclipBatch{steps}", **fields, **_FINAL_FIELDS, reason=_REASON)
    return _person_must_fill(model, [*fields, *_FINAL_FIELDS])


@functools.cache
def step_model(final: bool) -> type[BaseModel]:
    """The stepwise answer: the boxes after this step (and the question on the last one)."""
    fields: dict[str, Any] = {
        "boxes": (_STEP_REPORT, Field(None, description=REPORT_HELP.format(step="this step")))
    }
    extra = _FINAL_FIELDS if final else {}
    name = "PaperclipLastStep" if final else "PaperclipStep"
    return _person_must_fill(create_model(name, **fields, **extra, reason=_REASON), [*fields, *extra])


def _person_must_fill(model: type[BaseModel], names: list[str]) -> type[BaseModel]:
    """Mark the answers a person's form asks for as required (``FORM_REQUIRED``), and fresh.

    A model may leave them all out (an abstention, graded invalid), so the schema keeps them
    optional; but the game refuses a partly blank answer, so a form that called them
    optional contradicted the rules. Each answer is about a new puzzle or step, so the
    form does not keep the last one's entries (``FORM_KEEPS_ENTRIES``).
    """
    setattr(model, "FORM_REQUIRED", tuple(names))  # noqa: B010 - a class made at run time
    setattr(model, "FORM_KEEPS_ENTRIES", False)  # noqa: B010
    return model


def reports_of(action: BaseModel) -> list[State | None]:
    """The reports an answer carries, in step order (``None`` where missing)."""
    data = action.model_dump()
    if "boxes" in data:
        return [data["boxes"]]
    keys = sorted((k for k in data if k.startswith("step_")), key=lambda k: int(k[5:]))
    return [data[k] for k in keys]


def finals_of(action: BaseModel) -> tuple[int | None, int | None]:
    """The final question's two numbers, if the answer carries them."""
    data = action.model_dump()
    return data.get("total"), data.get("colour_count")


def is_abstention(action: BaseModel) -> bool:
    """True for an answer with nothing in it (the fallback): graded invalid."""
    return all(r is None for r in reports_of(action)) and finals_of(action) == (None, None)
