"""The console form's checks as a person types: which fields apply, today's limits, early rule checks.

Pure functions over a :class:`~arena.contract.player.DecisionRequest` and the values entered so far,
so :mod:`players.console_human` can check each field as it is entered instead of after the
whole form. Fields not yet entered are filled with neutral stand-ins (their default, else
their minimum or first choice) only to ask the game's own check what it allows now.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from arena.contract.player import DecisionRequest
from arena.contract.validation_errors import first_problem
from arena.engine.forms import FieldSpec


def stand_in(spec: FieldSpec) -> Any:
    """A neutral value for a field not entered yet (used only to probe the rules)."""
    if spec.default is not None:
        return spec.default
    if spec.choices:
        return spec.choices[0]
    if spec.kind in ("number", "integer"):
        return spec.minimum if spec.minimum is not None else 0
    if spec.kind == "boolean":
        return False
    return ""


def build(request: DecisionRequest, fields: list[FieldSpec], values: dict[str, Any]) -> BaseModel | str:
    """The action from ``values`` (fields that do not apply are left out), or why it is not valid."""
    data = {f.name: values[f.name] for f in fields if f.name in values and f.applies(values)}
    try:
        return request.action_model.model_validate(data)
    except ValidationError as exc:
        return first_problem(exc).message


def problem_with(request: DecisionRequest, fields: list[FieldSpec], values: dict[str, Any]) -> str | None:
    """What the schema or the game's rules say against the complete ``values``, if anything."""
    action = build(request, fields, values)
    if isinstance(action, str):
        return f"not accepted: {action}"
    problem = request.check(action) if request.check else None
    return f"not allowed: {problem}" if problem else None


def early_problem(
    request: DecisionRequest, fields: list[FieldSpec], values: dict[str, Any], upcoming: list[FieldSpec]
) -> str | None:
    """The game's objection to the choices so far, once only free-text fields are left to ask.

    Earlier, a stand-in for a missing number or choice could be what the game objects to.
    """
    if any(f.kind != "text" for f in upcoming if f.applies(values)):
        return None
    probe = {**{f.name: stand_in(f) for f in upcoming}, **values}
    return problem_with(request, fields, probe)


def limit_now(
    request: DecisionRequest, fields: list[FieldSpec], values: dict[str, Any], spec: FieldSpec
) -> int | None:
    """The largest whole number the game allows in ``spec`` now (below its declared maximum).

    Found by asking the game's check (values not entered yet take their stand-ins); None
    when the declared range is the real one, or the field is not a bounded whole number.
    """
    if spec.kind != "integer" or spec.maximum is None or request.check is None:
        return None
    base = {**{f.name: stand_in(f) for f in fields}, **values}

    def allowed(value: int) -> bool:
        return problem_with(request, fields, {**base, spec.name: value}) is None

    low, high = int(spec.minimum or 0), int(spec.maximum)
    if allowed(high) or not allowed(low):
        return None
    while high - low > 1:  # allowed(low), not allowed(high)
        middle = (low + high) // 2
        if allowed(middle):
            low = middle
        else:
            high = middle
    return low
