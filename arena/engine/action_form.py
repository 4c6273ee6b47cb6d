"""A person's action form, one engine behind every front end: entries, checks and messages.

The console (:mod:`players.console_human`) and the app (:mod:`arena.app.widgets.human_form`)
only draw the fields and read what is typed; every rule lives here, so the same entries give
the same action or the same message in both:

- the fields come from the game's action schema (:func:`~arena.engine.forms.form_fields`); a
  schema without properties (a union) is one JSON field;
- what a field holds before anything is typed, and the previous move's entries kept;
- which fields apply (``when``: a bargain's price only for an offer), judged on parsed values;
- each entry checked as it is typed (:meth:`ActionForm.entry_problem`): its kind and range, the
  largest whole number the game allows now, and, for a front end that asks one field at a
  time, the game's objection to the choices so far;
- on submit (:meth:`ActionForm.submit`): every entry that applies parsed, the action dict built
  (a blank optional field left to the model's default), the pydantic model, then the game's own
  rule check; each problem as a message next to the field it concerns, or for the whole form;
- the game's line on an entry as it is typed (:meth:`ActionForm.note`, ``request.entry_note``:
  a running total), and for a blank one in the field's hint (the person's own cards);
- the reason, and the question to confirm first (``request.caution``).

Fields not entered yet are filled with neutral stand-ins (their default, else their minimum or
first choice) only to ask the game's check what it allows now.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel, ValidationError

from arena.contract.labels import label
from arena.contract.player import DecisionRequest
from arena.contract.validation_errors import problems
from arena.engine.forms import FieldSpec, form_fields, parse_field

JSON_FIELD = "action"
"""The one field of a form whose action schema has no properties: the action as JSON."""
REASON_FIELDS = ("reason",)
"""Fields whose entry is the decision's reason."""
CORRECT_MARKED = "please correct the marked fields"
"""The form's message when every problem sits next to its field."""
SCHEMA_PROBLEMS_SHOWN = 6


@dataclass(slots=True)
class FormOutcome:
    """What a submit came to: the checked action, or the messages explaining why not."""

    action: BaseModel | None = None
    reason: str = ""
    field_errors: dict[str, str] = field(default_factory=dict)
    """A message per field name, for the fields a problem concerns."""
    error: str | None = None
    """The message for the whole form."""
    values: dict[str, Any] = field(default_factory=dict)
    """The action dict handed to the model (what a front end may keep as the raw reply)."""
    caution: str | None = None
    """Why the person should think twice before this action goes (``request.caution``)."""

    @property
    def ok(self) -> bool:
        """True when the action passed every check."""
        return self.action is not None

    @property
    def message(self) -> str:
        """Every problem on one line, for a front end that cannot mark fields (the console)."""
        if self.error and self.error != CORRECT_MARKED:
            return self.error
        return "; ".join(self.field_errors.values()) or (self.error or "")

    @property
    def question(self) -> str | None:
        """``<caution>; go ahead?``: what to ask before sending, or None when nothing needs asking."""
        return f"{self.caution}; go ahead?" if self.caution else None


class ActionForm:
    """Entries for one decision, checked against the schema and the game's rules."""

    def __init__(
        self, request: DecisionRequest, previous: dict[str, str] | None = None, *, preselect: bool = True
    ) -> None:
        """``previous`` (the seat's last accepted entries) prefills numbers and choices, not text.

        ``preselect``: the front end's controls always show a value (a radio set, a checkbox),
        so a required choice starts on its first option and a required yes/no on "no"; a front
        end that asks line by line passes False, and a blank answer stays blank.
        """
        self.request = request
        fields = form_fields(request.action_model)
        self.raw_json = not fields
        if self.raw_json:
            fields = [FieldSpec(JSON_FIELD, "text", description="the action as a JSON object")]
        self.fields: list[FieldSpec] = [self._legal_now(spec) for spec in fields]
        self.entries: dict[str, str] = {f.name: initial_text(f, preselect=preselect) for f in fields}
        # A game whose every decision is a new question (paperclip's next puzzle) starts each
        # form blank: the last answer's numbers would read as given for this one.
        if not getattr(request.action_model, "FORM_KEEPS_ENTRIES", True):
            previous = None
        for name, text in (previous or {}).items():
            spec = self.field(name)
            if spec is not None and spec.kind != "text" and (not spec.choices or text in spec.choices):
                self.entries[name] = text
        self.field_errors: dict[str, str] = {}
        self.error: str | None = request.feedback

    # -- the fields ---------------------------------------------------------------------
    def _legal_now(self, spec: FieldSpec) -> FieldSpec:
        """``spec`` with only the choices the moment allows (``request.form_choices``), in their order.

        A game that narrows a field to nothing (no challenge possible) leaves its declared
        choices: the rule check then explains why none is allowed.
        """
        if spec.kind != "choice" or self.request.form_choices is None:
            return spec
        allowed = self.request.form_choices(spec.name)
        if allowed is None:
            return spec
        legal = tuple(choice for choice in allowed if choice in spec.choices)
        return replace(spec, choices=legal) if legal else spec

    def field(self, name: str) -> FieldSpec | None:
        """The field called ``name``, if the form has one."""
        return next((f for f in self.fields if f.name == name), None)

    def applies(self, spec: FieldSpec) -> bool:
        """True when the choices entered now call for ``spec`` (a bargain's price only for an offer)."""
        return spec.applies(self._parsed())

    def checked(self, spec: FieldSpec) -> bool:
        """True when a yes/no field's entry reads as yes (by the same rule as a submit)."""
        return self._parsed().get(spec.name) is True

    def hint(
        self, spec: FieldSpec, ahead: Collection[str] | None = None, *, now: bool = True, note: bool = True
    ) -> str:
        """The allowed values shown with a field; the one place every front end takes them from.

        ``now``: the range the game allows at this moment where it is narrower than the
        declared one (``0 to 27 now``); ``ahead`` as in :meth:`entry_problem`. ``note``: with
        the game's line for a blank entry (:meth:`note`), for a front end that shows no line
        of its own beside the field.
        """
        limit = self.limit_now(spec, ahead) if now else None
        allowed = f"{spec.minimum or 0:g} to {limit} now" if limit is not None else spec.hint()
        # What the game adds for a blank entry (the person's own cards, the price owed); for free
        # text it stands instead of "text", which says nothing.
        given = self.note(spec.name, "") if note else None
        if given is None:
            return allowed
        return given if spec.kind == "text" else f"{allowed}; {given}"

    def note(self, name: str, text: str | None = None) -> str | None:
        """The game's line on the entry in ``name`` (``text``, else what the field holds now), or None.

        A running total as the person types (``= 70, price 60, 10 over``), or for a blank entry
        what they have to work with; only information, shown by every front end the same way
        (``request.entry_note``, the view's :meth:`~arena.contract.game.GameView.entry_note`).
        """
        if self.request.entry_note is None or self.raw_json or self.field(name) is None:
            return None
        return self.request.entry_note(name, self.entries.get(name, "") if text is None else text)

    # -- checks as the person types -------------------------------------------------------
    def entry_problem(self, name: str, text: str, ahead: Collection[str] | None = None) -> str | None:
        """What is wrong with ``text`` in field ``name`` now, or None; nothing is recorded.

        ``ahead`` names the fields still to be asked, for a front end that asks one field at
        a time (the console): they count as their stand-ins, and once only free text is left
        ahead the game's rules are asked about the choices so far, since such a front end
        cannot go back to them (an objection that names a field still ahead waits for it).
        ``None``: every field is shown and can be changed (the app);
        the other entries count as they are, and the game's rules wait for the submit.
        """
        spec = self.field(name)
        if spec is None or self.raw_json:
            return None
        try:
            value = parse_field(spec, text)
        except ValueError as exc:
            return self._required_now(spec) if not text.strip() else str(exc)
        limit = self.limit_now(spec, ahead)
        if limit is not None and value is not None and value > limit:
            return f"{spec.label} can be at most {limit} now, not {value}"
        if ahead is None:
            return None
        values = {**self._entered(ahead, besides=name), name: value}
        if any(f.kind != "text" for f in self.fields if f.name in ahead and f.applies(values)):
            # a stand-in for a number or a choice still to come could be what the game objects to
            return None
        probe = {**{f.name: stand_in(f) for f in self.fields if f.name in ahead}, **values}
        outcome = self._verdict(probe)
        if outcome.ok or any(named in ahead for named in outcome.field_errors):
            # the objection names a field still to come: its stand-in (a blank text) is what is wrong
            return None
        return outcome.message

    def limit_now(self, spec: FieldSpec, ahead: Collection[str] | None = None) -> int | None:
        """The largest whole number the game allows in ``spec`` now (below its declared maximum).

        Found by asking the game's check; None when the declared range is the real one, or
        the field is not a bounded whole number.
        """
        if spec.kind != "integer" or spec.maximum is None or self.request.check is None or self.raw_json:
            return None
        base = {**{f.name: stand_in(f) for f in self.fields}, **self._entered(ahead or (), besides=spec.name)}

        def allowed(value: int) -> bool:
            return self._verdict({**base, spec.name: value}).ok

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

    def set_entry(self, name: str, text: str) -> str | None:
        """Record what was typed into ``name``; returns the field's problem, if any.

        A valid (or emptied) entry clears the field's message from the last submit, and
        once no field is marked any more the form's own message goes too: it explained
        entries that have since changed. A choice that makes other fields not apply
        clears their messages too; their entries are kept for when they apply again.
        """
        self.entries[name] = text
        problem = self.entry_problem(name, text) if text.strip() else None
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

    # -- the whole move -------------------------------------------------------------------
    def submit(self) -> FormOutcome:
        """Check every entry, the schema and the game's rules; keep the entries either way."""
        outcome = self._build()
        if outcome.action is not None and self.request.caution is not None:
            outcome.caution = self.request.caution(outcome.action)
        self.field_errors = dict(outcome.field_errors)
        self.error = outcome.error
        return outcome

    def entries_for_storage(self) -> dict[str, str]:
        """What the person typed in the fields that apply (stored raw as the turn's reply)."""
        return {spec.name: self.entries.get(spec.name, "") for spec in self.fields if self.applies(spec)}

    def _build(self) -> FormOutcome:
        if self.raw_json:
            return self._build_json()
        values: dict[str, Any] = {}
        errors: dict[str, str] = {}
        for spec in self.fields:
            text = self.entries.get(spec.name, "")
            if not self.applies(spec) or (not text.strip() and not spec.required):
                continue  # a blank optional field takes the model's own default
            try:
                values[spec.name] = parse_field(spec, text)
            except ValueError as exc:
                errors[spec.name] = self._required_now(spec) if not text.strip() else str(exc)
        if errors:
            return FormOutcome(field_errors=errors, error=CORRECT_MARKED, values=values)
        return self._verdict(values)

    def _required_now(self, spec: FieldSpec) -> str:
        """A blank required field's message, with today's range (``0 to 41 now``, not ``0 to 1000``)."""
        if spec.kind == "text":
            return f"{spec.label} is required"
        return f"{spec.label} is required ({self.hint(spec, note=False)})"

    def _build_json(self) -> FormOutcome:
        try:
            values = json.loads(self.entries.get(JSON_FIELD, "") or "{}")
        except json.JSONDecodeError as exc:
            return FormOutcome(field_errors={JSON_FIELD: f"not valid JSON: {exc.msg}"})
        if not isinstance(values, dict):
            return FormOutcome(field_errors={JSON_FIELD: "the action must be a JSON object"})
        return self._verdict(values)

    def _verdict(self, values: dict[str, Any]) -> FormOutcome:
        """The model and then the game's rules on ``values`` (fields that do not apply left out)."""
        if not self.raw_json:
            values = {f.name: values[f.name] for f in self.fields if f.name in values and f.applies(values)}
        try:
            action = self.request.action_model.model_validate(values)
        except ValidationError as exc:
            return self._schema_errors(exc, values)
        problem = self.request.check(action) if self.request.check else None
        if problem:
            named = None if self.raw_json else self._field_named_in(problem)
            errors = {named: problem} if named is not None else {}
            return FormOutcome(field_errors=errors, error=f"not allowed: {problem}", values=values)
        reason = next((str(values[name]) for name in REASON_FIELDS if values.get(name)), "")
        return FormOutcome(action=action, reason=reason, values=values)

    def _schema_errors(self, exc: ValidationError, values: dict[str, Any]) -> FormOutcome:
        errors: dict[str, str] = {}
        general: list[str] = []
        for problem in problems(exc, SCHEMA_PROBLEMS_SHOWN):
            loc = problem.loc
            name = loc[0] if loc and self.field(loc[0]) is not None and not self.raw_json else None
            if name is None:
                general.append(f"{label(problem.where) if problem.where else 'action'}: {problem.message}")
            else:
                errors.setdefault(name, f"{label(name)}: {problem.message}")
        error = "; ".join(general) if general else CORRECT_MARKED
        if self.raw_json and general:
            errors[JSON_FIELD] = error
        return FormOutcome(field_errors=errors, error=error, values=values)

    def field_named_in(self, problem: str) -> str | None:
        """The field a problem is about (the one it starts with, else the first it names), or None."""
        return None if self.raw_json else self._field_named_in(problem)

    def _field_named_in(self, problem: str) -> str | None:
        """The field a rule message is about: the one it starts with, else the first it names."""
        words = [word.strip(":,.;'\"()") for word in problem.split()]
        names = [spec.name for spec in self.fields]
        if words and words[0] in names:
            return words[0]
        return next((word for word in words if word in names), None)

    # -- values -----------------------------------------------------------------------------
    def _parsed(self) -> dict[str, Any]:
        """Every entry that parses, by field name (whether or not its field applies)."""
        values: dict[str, Any] = {}
        for spec in self.fields:
            try:
                values[spec.name] = parse_field(spec, self.entries.get(spec.name, ""))
            except ValueError:
                continue
        return values

    def _entered(self, ahead: Collection[str], *, besides: str) -> dict[str, Any]:
        """The parsed entries of the fields that apply, except ``besides`` and those still ahead."""
        parsed = self._parsed()
        return {
            f.name: parsed[f.name]
            for f in self.fields
            if f.name in parsed and f.name != besides and f.name not in ahead and f.applies(parsed)
        }


def initial_text(spec: FieldSpec, *, preselect: bool = True) -> str:
    """What a field holds before anything is typed: its default, as a person would type it.

    With ``preselect``, a required choice without a default starts on its first choice and a
    required yes/no on "no": a radio set or a checkbox always shows some value, so the entry
    must match what the person sees rather than fail as "required" on submit.
    """
    if spec.default is None:
        if preselect and spec.required and spec.kind == "choice" and spec.choices:
            return spec.choices[0]
        if preselect and spec.required and spec.kind == "boolean":
            return yes_no(False)
        return ""
    if isinstance(spec.default, bool):
        return yes_no(spec.default)
    return str(spec.default)


def yes_no(flag: bool) -> str:
    """A yes/no field's entry for ``flag``, as a person would type it."""
    return "yes" if flag else "no"


def stand_in(spec: FieldSpec) -> Any:
    """A neutral value for a field not entered yet (used only to probe the game's rules)."""
    if spec.default is not None:
        return spec.default
    if spec.choices:
        return spec.choices[0]
    if spec.kind in ("number", "integer"):
        return spec.minimum if spec.minimum is not None else 0
    if spec.kind == "boolean":
        return False
    return ""
