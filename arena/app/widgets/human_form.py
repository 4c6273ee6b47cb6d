"""The form a person fills in when their seat must act.

Fields come from the game's action schema (via :class:`~arena.app.action_form.ActionForm`):
numbers and text as inputs, a few choices as radio buttons, more as a select, yes/no as a
checkbox. Each entry is checked as it is typed; on submit the schema and the game's rule
check run, and any problem is shown next to its field or under the form. Enter submits,
Tab moves between fields; the entries stay as typed until the move is accepted.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, RadioButton, RadioSet, Select, Static

from arena.app.action_form import ActionForm
from arena.app.human import HumanTurn
from arena.app.safe import safe_text
from arena.forms import FieldSpec

MAX_RADIO_CHOICES = 4


def observation_line(observation: dict[str, object], limit: int = 400) -> str:
    """Scalar facts of an observation (one level of nesting) as ``key value · ...``."""
    seen: dict[str, object] = {}
    parts: list[str] = []

    prefix = ""

    def add(key: str, value: object) -> None:
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            return
        if key in seen:
            if seen[key] != value:
                add(f"{prefix}.{key}", value)
            return
        seen[key] = value
        parts.append(f"{key} {value:.2f}" if isinstance(value, float) else f"{key} {value}")

    for key, value in observation.items():
        add(key, value)
    for key, value in observation.items():
        if isinstance(value, dict):
            prefix = key
            for inner, item in value.items():
                add(str(inner), item)
    line = " · ".join(parts)
    return line if len(line) <= limit else line[: limit - 1] + "…"


class HumanForm(Vertical):
    """One seat's move: a field per schema property, inline messages, submit."""

    DEFAULT_CSS = """
    HumanForm {
        height: auto;
        border: round $success;
        border-title-color: $success;
        border-title-style: bold;
        padding: 0 1;
        background: $boost;
    }
    HumanForm .form-facts { color: $text-muted; height: auto; margin-bottom: 1; }
    HumanForm .form-fields {
        height: auto;
        grid-size: 3;
        grid-columns: auto 1fr 1fr;
        grid-rows: auto;
        grid-gutter: 0 2;
    }
    HumanForm .form-label { text-style: bold; }
    HumanForm .field-note { color: $text-muted; height: auto; }
    HumanForm .field-note.-error { color: $error; }
    HumanForm #form-error { color: $error; height: auto; }
    HumanForm #form-actions { height: auto; }
    HumanForm #form-actions Button { margin-right: 2; }
    HumanForm .form-keys { color: $text-muted; }
    HumanForm RadioSet { layout: horizontal; height: auto; width: auto; }
    HumanForm RadioButton { margin-right: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "submit", "Submit move", show=True),
    ]

    class Submitted(Message):
        """The person's move passed every check and was handed to the runner."""

        def __init__(self, turn: HumanTurn) -> None:
            super().__init__()
            self.turn = turn

    def __init__(self, turn: HumanTurn, form: ActionForm, last_entries: dict[str, dict[str, str]]) -> None:
        super().__init__()
        self.turn = turn
        self.form = form
        self.last_entries = last_entries
        request = turn.request
        self.border_title = f"seat {request.seat}: your move (step {request.step + 1})"

    def compose(self) -> ComposeResult:
        """Build the widgets."""
        yield Static(safe_text(observation_line(self.turn.request.observation)), classes="form-facts")
        with Grid(classes="form-fields"):
            for index, spec in enumerate(self.form.fields):
                yield Label(safe_text(spec.name), classes="form-label")
                yield self._control(index, spec)
                yield Static(self._note(spec), id=f"err-{index}", classes="field-note")
        yield Static(safe_text(self.form.error or ""), id="form-error")
        with Horizontal(id="form-actions"):
            yield Button("Submit move (enter)", id="form-submit", variant="success", compact=True)
            yield Static(
                Text("tab: next field · enter: submit · esc: leave (the move waits)"), classes="form-keys"
            )

    def _note(self, spec: FieldSpec) -> Text:
        problem = self.form.field_errors.get(spec.name)
        if problem:
            return safe_text(problem)
        return safe_text(spec.description or spec.hint())

    def _show_note(self, index: int) -> None:
        spec = self.form.fields[index]
        note = self.query_one(f"#err-{index}", Static)
        note.update(self._note(spec))
        note.set_class(spec.name in self.form.field_errors, "-error")

    def _control(self, index: int, spec: FieldSpec) -> Widget:
        entry = self.form.entries.get(spec.name, "")
        control_id = f"field-{index}"
        if spec.kind == "choice" and len(spec.choices) <= MAX_RADIO_CHOICES:
            buttons = [RadioButton(safe_text(choice), value=choice == entry) for choice in spec.choices]
            return RadioSet(*buttons, id=control_id, compact=True)
        if spec.kind == "choice":
            options = [(safe_text(choice), choice) for choice in spec.choices]
            value = entry if entry in spec.choices else Select.NULL
            return Select(options, value=value, id=control_id, allow_blank=not spec.required, compact=True)
        if spec.kind == "boolean":
            checked = entry.lower() in ("yes", "true", "1")
            return Checkbox(safe_text(spec.name), value=checked, id=control_id, compact=True)
        placeholder = spec.hint()
        return Input(value=entry, placeholder=placeholder, id=control_id, compact=True)

    def on_mount(self) -> None:
        """Set up once the widgets exist."""
        for index in range(len(self.form.fields)):
            self._show_note(index)
        self.focus_first()

    def focus_first(self) -> None:
        """Put the cursor in the first field."""
        self.query_one("#field-0").focus()

    def _field_index(self, widget: Widget | None) -> int | None:
        if widget is None or widget.id is None or not widget.id.startswith("field-"):
            return None
        return int(widget.id.removeprefix("field-"))

    def _set(self, widget: Widget | None, text: str) -> None:
        index = self._field_index(widget)
        if index is None:
            return
        self.form.set_entry(self.form.fields[index].name, text)
        self._show_note(index)

    @on(Input.Changed)
    def _input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._set(event.input, event.value)

    @on(Input.Submitted)
    def _input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    @on(RadioSet.Changed)
    def _radio_changed(self, event: RadioSet.Changed) -> None:
        event.stop()
        index = self._field_index(event.radio_set)
        if index is not None and event.index >= 0:
            self._set(event.radio_set, self.form.fields[index].choices[event.index])

    @on(Select.Changed)
    def _select_changed(self, event: Select.Changed) -> None:
        event.stop()
        value = event.value
        self._set(event.select, "" if value is Select.NULL else str(value))

    @on(Checkbox.Changed)
    def _checkbox_changed(self, event: Checkbox.Changed) -> None:
        event.stop()
        self._set(event.checkbox, "yes" if event.value else "no")

    @on(Button.Pressed, "#form-submit")
    def _submit_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        """Check the move; hand it over if it passes, else explain what to correct."""
        if self.turn.done:
            return
        outcome = self.form.submit()
        for index in range(len(self.form.fields)):
            self._show_note(index)
        self.query_one("#form-error", Static).update(safe_text(outcome.error or ""))
        if outcome.action is None:
            bad = [i for i, spec in enumerate(self.form.fields) if spec.name in outcome.field_errors]
            if bad:
                field = self.query_one(f"#field-{bad[0]}")
                field.focus()
                if isinstance(field, Input):
                    field.select_all()
            return
        entries = self.form.entries_for_storage()
        self.last_entries[self.turn.seat] = entries
        self.turn.submit(outcome.action, outcome.reason, entries)
        self.post_message(self.Submitted(self.turn))
