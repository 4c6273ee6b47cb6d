"""The human's action form as a plain object: fields, entries, checks and messages.

Built from the game's action schema with :func:`arena.engine.forms.form_fields`. Each entry is
checked as it is typed (:func:`arena.engine.forms.parse_field`); on submit the whole action goes
through the pydantic model and then the game's own rule check (``request.check``).
Every problem becomes a message next to the field it concerns, or under the form, and
the entries stay as typed so the person can correct them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from arena.contract.player import DecisionRequest
from arena.contract.validation_errors import problems
from arena.engine.forms import FieldSpec, form_fields, parse_field

JSON_FIELD = "action"
REASON_FIELDS = ("reason",)


@dataclass(slots=True)
class FormOutcome:
    """What a submit came to: the checked action, or the messages explaining why not."""

    action: BaseModel | None = None
    reason: str = ""
    field_errors: dict[str, str] = field(default_factory=dict)
    error: str | None = None

    @property
    def ok(self) -> bool:
        """True when the action passed every check."""
        return self.action is not None


class ActionForm:
    """Entries for one decision, validated against the schema and the game's rules."""

    def __init__(self, request: DecisionRequest, previous: dict[str, str] | None = None) -> None:
        """``previous`` (the seat's last accepted entries) prefills numbers and choices, not text."""
        self.request = request
        fields = form_fields(request.action_model)
        self.raw_json = not fields
        if self.raw_json:
            fields = [FieldSpec(JSON_FIELD, "text", description="the action as a JSON object")]
        self.fields: list[FieldSpec] = fields
        self.entries: dict[str, str] = {f.name: _default_text(f) for f in fields}
        for name, text in (previous or {}).items():
            spec = self.field(name)
            if spec is not None and spec.kind != "text" and (not spec.choices or text in spec.choices):
                self.entries[name] = text
        self.field_errors: dict[str, str] = {}
        self.error: str | None = request.feedback

    def applies(self, spec: FieldSpec) -> bool:
        """True when the choices entered now call for ``spec`` (a bargain's price only for an offer)."""
        return spec.applies(self.entries)

    def field(self, name: str) -> FieldSpec | None:
        """The field called ``name``, if the form has one."""
        return next((f for f in self.fields if f.name == name), None)

    def set_entry(self, name: str, text: str) -> str | None:
        """Record what was typed into ``name``; returns the field's problem, if any.

        A valid (or emptied) entry clears the field's message from the last submit, and
        once no field is marked any more the form's own message goes too: it explained
        entries that have since changed. A choice that makes other fields not apply
        clears their messages too; their entries are kept for when they apply again.
        """
        self.entries[name] = text
        spec = self.field(name)
        problem = None
        if spec is not None and text.strip():
            problem = self._parse_problem(spec, text)
        if problem:
            self.field_errors[name] = problem
        else:
            self.field_errors.pop(name, None)
        for other in self.fields:
            if not self.applies(other):
                self.field_errors.pop(other.name, None)
        if not problem and not self.field_errors:
            self.error = None
        return problem

    def submit(self) -> FormOutcome:
        """Check every entry, the schema and the game's rules; keep the entries either way."""
        outcome = self._build()
        self.field_errors = dict(outcome.field_errors)
        self.error = outcome.error
        return outcome

    def _build(self) -> FormOutcome:
        if self.raw_json:
            return self._build_json()
        values: dict[str, Any] = {}
        errors: dict[str, str] = {}
        for spec in self.fields:
            text = self.entries.get(spec.name, "")
            if not self.applies(spec) or (not text.strip() and not spec.required):
                continue
            try:
                values[spec.name] = parse_field(spec, text)
            except ValueError as exc:
                errors[spec.name] = str(exc)
        if errors:
            return FormOutcome(field_errors=errors, error="please correct the marked fields")
        return self._check(values)

    def _build_json(self) -> FormOutcome:
        try:
            values = json.loads(self.entries.get(JSON_FIELD, "") or "{}")
        except json.JSONDecodeError as exc:
            return FormOutcome(field_errors={JSON_FIELD: f"not valid JSON: {exc.msg}"})
        if not isinstance(values, dict):
            return FormOutcome(field_errors={JSON_FIELD: "the action must be a JSON object"})
        return self._check(values)

    def _check(self, values: dict[str, Any]) -> FormOutcome:
        model = self.request.action_model
        try:
            action = model.model_validate(values)
        except ValidationError as exc:
            return self._schema_errors(exc)
        problem = self.request.check(action) if self.request.check else None
        if problem:
            named = None if self.raw_json else self._field_named_in(problem)
            errors = {named: problem} if named is not None else {}
            return FormOutcome(field_errors=errors, error=f"not allowed: {problem}")
        reason = next((str(values[name]) for name in REASON_FIELDS if values.get(name)), "")
        return FormOutcome(action=action, reason=reason)

    def _schema_errors(self, exc: ValidationError) -> FormOutcome:
        errors: dict[str, str] = {}
        general: list[str] = []
        for problem in problems(exc, 6):
            loc = problem.loc
            name = loc[0] if loc and self.field(loc[0]) is not None and not self.raw_json else None
            if name is None:
                general.append(f"{problem.where or 'action'}: {problem.message}")
            else:
                errors.setdefault(name, f"{name}: {problem.message}")
        error = "; ".join(general) if general else "please correct the marked fields"
        if self.raw_json and general:
            errors[JSON_FIELD] = error
        return FormOutcome(field_errors=errors, error=error)

    def _field_named_in(self, problem: str) -> str | None:
        """The field a rule message is about: the one it starts with, else the first it names."""
        words = [word.strip(":,.;'\"()") for word in problem.split()]
        names = [spec.name for spec in self.fields]
        if words and words[0] in names:
            return words[0]
        return next((word for word in words if word in names), None)

    def _parse_problem(self, spec: FieldSpec, text: str) -> str | None:
        if self.raw_json:
            return None
        try:
            parse_field(spec, text)
        except ValueError as exc:
            return str(exc)
        return None

    def entries_for_storage(self) -> dict[str, str]:
        """What the person typed in the fields that apply (stored raw as the turn's reply)."""
        return {spec.name: self.entries.get(spec.name, "") for spec in self.fields if self.applies(spec)}


def _default_text(spec: FieldSpec) -> str:
    """What a field holds before anything is typed.

    A required choice without a default starts on its first choice and a required yes/no
    on "no": a radio set or a checkbox always shows some value, so the entry must match
    what the person sees rather than fail as "required" on submit.
    """
    if spec.default is None:
        if spec.required and spec.kind == "choice" and spec.choices:
            return spec.choices[0]
        if spec.required and spec.kind == "boolean":
            return "no"
        return ""
    if isinstance(spec.default, bool):
        return "yes" if spec.default else "no"
    return str(spec.default)
