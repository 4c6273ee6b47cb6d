"""The form a person fills in when their seat must act.

Fields come from the game's action schema (via :class:`~arena.engine.action_form.ActionForm`,
which holds every rule; this widget only draws the fields and reads the keys):
numbers and text as inputs, a few choices as radio buttons, more as a select, yes/no as a
checkbox. Each entry is checked as it is typed, and the game's line on it (a running total
of the cards named, :meth:`~arena.engine.action_form.ActionForm.note`) shows beside it; on
submit the schema and the game's rule check run, and any problem is shown next to its field
or under the form. The cursor starts on the first field; the field with it is marked ``▸`` and
its label reversed, and the keys line says what the keys do there (←/→ and first letters choose
in a choice field, never in a text one). Enter submits exactly what the fields show, Tab and
shift+Tab cycle through the fields and the submit button (focus never wanders off the form
while the move is due); only a rejected submit moves the cursor, to the first field to
correct. The entries stay as typed until the move is accepted. Fields that do not apply to
the choice made (a bargain's price and message when accepting) are hidden and skipped, and
show again with what was typed in them when they apply again.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, RadioSet, Select, Static

from arena.app.human import HumanTurn
from arena.app.safe import safe_text
from arena.app.screens.modals import ConfirmScreen
from arena.app.widgets.choice_set import ChoiceList, ChoiceSet
from arena.contract.labels import label
from arena.engine.action_form import ActionForm, initial_text, yes_no
from arena.engine.forms import FieldSpec

MAX_RADIO_CHOICES = 4
KEYS_HINT = "{choose}tab: next field{board} · enter: submit · esc: leave (the move waits)"
BOARD_HINT = ", then the board"
CHOOSE_HINT = "←/→ or its first letter: choose {field} · "
"""Said only while a choice has the cursor: in a text field the arrows move the text cursor."""
LIST_HINT = "←/→ or its first letter: choose {field}, ↓: the whole list · "
CURRENT_MARK = "▸ "
"""Before the label of the field with the cursor (with the label drawn reversed): unmistakable
without colour, where a background one shade off the form's was not."""


def observation_line(observation: dict[str, object], limit: int = 400) -> str:
    """Scalar facts of an observation as ``name value · ...``; a nested part's under its name.

    Names are words (``rounds_left`` reads "rounds left") and a text value stays on one line; a
    text of several lines is left out (a drawing the board shows: squashed onto one line it
    read as noise and took the rows the fields need).
    A nested part's facts are grouped under its own name (``previous puzzle: grade core,
    first error 2``): shown bare, the previous puzzle's grade read as the current one's.
    """
    parts: list[str] = []

    def fact(key: str, value: object) -> str | None:
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            return None
        if isinstance(value, str) and "\n" in value.strip():
            return None  # a drawing in lines (an OpenSpiel view): the board shows it as drawn
        if isinstance(value, float):
            return f"{label(key)} {value:.2f}"
        return f"{label(key)} {' '.join(str(value).split())}"

    for key, value in observation.items():
        shown = fact(key, value)
        if shown is not None:
            parts.append(shown)
    for key, value in observation.items():
        if isinstance(value, dict):
            # a fact the top level already states (lemonade's day in its forecast) is not repeated
            inner = [
                f
                for f in (fact(str(k), v) for k, v in value.items() if observation.get(k) != v)
                if f is not None
            ]
            if inner:
                parts.append(f"{label(key)}: {', '.join(inner)}")
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
    HumanForm .form-facts { color: $text-muted; height: auto; }
    HumanForm .form-fields {
        height: auto;
        grid-size: 3;
        grid-columns: auto 1fr 1fr;
        grid-rows: auto;
        grid-gutter: 0 2;
    }
    HumanForm .form-label { text-style: bold; }
    HumanForm .form-label.-current { text-style: bold reverse; }
    HumanForm .field-note { color: $text-muted; height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    HumanForm .field-note.-error { color: $error; height: auto; text-wrap: wrap; }
    HumanForm .field-note.-live { color: $text; text-style: bold; height: auto; text-wrap: wrap; }
    /* The focused field's note (-current) and the help line under the fields: laid out by
       the screen's width in arena.tcss (this stylesheet is scoped to the form). */
    HumanForm #form-help { display: none; color: $text-muted; height: auto; }
    HumanForm #form-error { color: $error; height: auto; }
    HumanForm #form-actions { height: auto; }
    HumanForm #form-actions Button { margin-right: 2; }
    HumanForm .form-keys { color: $text-muted; width: 1fr; }
    HumanForm ChoiceSet { layout: horizontal; height: auto; width: auto; }
    HumanForm ChoiceButton { margin-right: 2; }
    HumanForm ChoiceButton.-on > .toggle--label { text-style: bold reverse; }
    """

    # Tab, shift+Tab and Enter are priority bindings: Textual resolves those as each key
    # is taken from the app's queue, in typing order, whereas an ordinary binding is
    # resolved only once the key has bubbled back up from the focused widget, after the
    # keys typed behind it have already been sent on to the field being left.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "submit", "Submit move", show=True),
        Binding("enter", "submit_after_typing", "Submit move", show=False, priority=True),
        Binding("tab", "next_field", "Next field", show=False, priority=True),
        Binding("shift+tab", "previous_field", "Previous field", show=False, priority=True),
    ]

    class SubmitRequested(Message):
        """Enter was pressed: queued behind the keys the focused field has still to handle."""

    class Submitted(Message):
        """The person's move passed every check and was handed to the runner."""

        def __init__(self, turn: HumanTurn) -> None:
            super().__init__()
            self.turn = turn

    def __init__(
        self,
        turn: HumanTurn,
        form: ActionForm,
        last_entries: dict[str, dict[str, str]],
        board: Widget | None = None,
    ) -> None:
        """``board``: the screen's board, which Tab visits after the submit button (to read and scroll it)."""
        super().__init__()
        self.board = board
        self.turn = turn
        self.form = form
        self.last_entries = last_entries
        request = turn.request
        self.border_title = f"seat {request.seat}: your move (step {request.step + 1})"

    def compose(self) -> ComposeResult:
        """Build the widgets."""
        yield Static(
            safe_text(observation_line(self.turn.request.observation.model_dump(mode="json"))),
            classes="form-facts",
        )
        with Grid(classes="form-fields"):
            for index, spec in enumerate(self.form.fields):
                row = f"row-{index}"
                yield Label(
                    self._label(spec, current=False), id=f"label-{index}", classes=f"form-label {row}"
                )
                control = self._control(index, spec)
                control.add_class(row)
                yield control
                yield Static(self._note(spec), id=f"err-{index}", classes=f"field-note {row}")
        yield Static(Text(""), id="form-help", classes="-empty")
        yield Static(safe_text(self.form.error or ""), id="form-error")
        with Horizontal(id="form-actions"):
            yield Button("Submit move (enter)", id="form-submit", variant="success", compact=True)
            yield Static(self._keys_hint(None), classes="form-keys")

    def _keys_hint(self, index: int | None) -> Text:
        """The keys line for the field ``index`` with the cursor (None: the button or the board).

        The arrows are offered only while a choice has the cursor: in a text field they move
        the text cursor, and a hint promising otherwise sent the choice already shown.
        """
        board = BOARD_HINT if self.board is not None else ""
        choose = ""
        if index is not None:
            spec = self.form.fields[index]
            if spec.kind == "choice":
                choose = (CHOOSE_HINT if _as_radios(spec) else LIST_HINT).format(field=spec.label)
        return Text(KEYS_HINT.format(choose=choose, board=board))

    @staticmethod
    def _label(spec: FieldSpec, *, current: bool) -> Text:
        """A field's label, marked ``▸`` while the field has the cursor (the mark's room always kept)."""
        return safe_text(f"{CURRENT_MARK if current else ' ' * len(CURRENT_MARK)}{spec.label}")

    def _note(self, spec: FieldSpec) -> Text:
        """The line beside a field: its problem, else the game's line on the entry, else its help."""
        problem = self.form.field_errors.get(spec.name)
        if problem:
            return safe_text(problem)
        live = self.form.note(spec.name)
        if live is not None:
            return safe_text(live)
        return safe_text(spec.description or self.form.hint(spec, now=False))

    def _show_note(self, index: int) -> None:
        spec = self.form.fields[index]
        note = self.query_one(f"#err-{index}", Static)
        note.update(self._note(spec))
        error = spec.name in self.form.field_errors
        note.set_class(error, "-error")
        note.set_class(not error and self.form.note(spec.name) is not None, "-live")

    def _show_messages(self) -> None:
        self._note_in_full()
        for index, spec in enumerate(self.form.fields):
            self._show_note(index)
            applies = self.form.applies(spec)
            for widget in self.query(f".row-{index}"):
                widget.display = applies
        error = self.query_one("#form-error", Static)
        error.update(safe_text(self.form.error or ""))
        error.display = bool(self.form.error)

    def _control(self, index: int, spec: FieldSpec) -> Widget:
        entry = self.form.entries.get(spec.name, "")
        control_id = f"field-{index}"
        if _as_radios(spec):
            return ChoiceSet(spec.choices, entry, id=control_id)
        if spec.kind == "choice":
            return ChoiceList(spec.choices, entry, id=control_id, required=spec.required)
        if spec.kind == "boolean":
            return Checkbox(safe_text(spec.label), value=self.form.checked(spec), id=control_id, compact=True)
        # the game's line on the entry shows beside the field (:meth:`_note`), not in it; the
        # range is today's (what the cash buys), not the declared one the rules would refuse
        placeholder = self.form.hint(spec, note=False)
        # A number is usually replaced, so entering its field selects it; text is usually
        # continued, so the cursor goes to its end, unless it holds the field's own default
        # (a payment's ``auto``), which typing replaces: it read ``auto10 20``.
        select_on_focus = spec.kind in ("number", "integer") or (bool(entry) and entry == initial_text(spec))
        return Input(
            value=entry, placeholder=placeholder, id=control_id, compact=True, select_on_focus=select_on_focus
        )

    def on_mount(self) -> None:
        """Set up once the widgets exist."""
        self._show_messages()
        self.focus_first()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter in an open drop-down list picks an option; everywhere else it submits what is shown."""
        if action == "submit_after_typing":
            focused = self.app.focused
            return focused is None or not any(
                isinstance(node, Select) and node.expanded for node in focused.ancestors_with_self
            )
        return True

    def action_submit_after_typing(self) -> None:
        """Submit once the focused field has handled the keys typed before Enter."""
        focused = self.app.focused
        if focused is not None and self in focused.ancestors:
            focused.post_message(self.SubmitRequested())
        else:
            self.action_submit()

    @on(SubmitRequested)
    def _submit_requested(self, event: SubmitRequested) -> None:
        event.stop()
        self.action_submit()

    def focus_first(self) -> None:
        """Put the cursor on the first field, a choice included.

        It once skipped a preselected choice for the first typed field; where that was the
        reason (Cattle Trade's sell/buy), → moved the text cursor and Enter sent the choice
        shown before, not the one the person meant.
        """
        self._focus(self._stops()[0])

    def _focus(self, widget: Widget) -> None:
        """Move the cursor now, before the keys already queued are handled.

        ``Widget.focus()`` is deferred to after the queued messages, so a fast typist's
        next keys (or a paste) would still land in the field being left.
        """
        self.screen.set_focus(widget)

    def _keep_focus(self) -> None:
        """After a refusal naming no field: the cursor stays in the form (on its first field if it left).

        A field hidden by the refusal's redraw lost the cursor to nowhere: the footer's ``^s``
        went and typing did nothing until Tab.
        """
        focused = self.screen.focused
        if focused is None or self not in focused.ancestors or not focused.display:
            self._focus(self._stops()[0])

    def _stops(self) -> list[Widget]:
        """The widgets Tab visits, in order: every field that applies, the submit button, the board."""
        stops: list[Widget] = [
            self.query_one(f"#field-{i}")
            for i, spec in enumerate(self.form.fields)
            if self.form.applies(spec)
        ]
        stops.append(self.query_one("#form-submit", Button))
        if self.board is not None and self.board.is_attached:
            stops.append(self.board)
        return stops

    def _move_focus(self, step: int) -> None:
        stops = self._stops()
        focused = self.app.focused
        current = next(
            (
                i
                for i, stop in enumerate(stops)
                if focused is not None and (focused is stop or stop in focused.ancestors)
            ),
            -1 if step > 0 else 0,
        )
        self._focus(stops[(current + step) % len(stops)])

    def move_from_board(self, step: int) -> None:
        """Tab (``step`` 1) or shift+Tab (-1) pressed on the board: back into the form."""
        self._move_focus(step)

    def action_next_field(self) -> None:
        """Tab: the next field (after the submit button, the first field again)."""
        self._move_focus(1)

    def action_previous_field(self) -> None:
        """Shift+Tab: the previous field (before the first, the submit button)."""
        self._move_focus(-1)

    def _field_index(self, widget: Widget | None) -> int | None:
        if widget is None or widget.id is None or not widget.id.startswith("field-"):
            return None
        return int(widget.id.removeprefix("field-"))

    def _set(self, widget: Widget | None, text: str) -> None:
        index = self._field_index(widget)
        if index is None:
            return
        self.form.set_entry(self.form.fields[index].name, text)
        self._show_messages()

    @on(events.DescendantFocus)
    @on(events.DescendantBlur)
    def _note_in_full(self) -> None:
        """The note of the field with the cursor reads whole; the others keep to one row ("…").

        Where the column is wide its note wraps there; at 80 columns it is repeated whole on
        the help line under the fields, unless the column already shows it whole (a problem
        with the entry, or the game's running line). The field is read from the focus as it
        is now, not from the event: two fields' focus events bubble up different paths and
        may arrive in either order.
        """
        if not self.is_attached or not self.query("#form-help"):
            return
        focused = self.screen.focused
        nodes = focused.ancestors_with_self if focused is not None else []
        index = next(
            (
                found
                for node in nodes
                if isinstance(node, Widget) and (found := self._field_index(node)) is not None
            ),
            None,
        )
        for number, field in enumerate(self.form.fields):
            self.query_one(f"#err-{number}", Static).set_class(number == index, "-current")
            label_widget = self.query_one(f"#label-{number}", Label)
            label_widget.set_class(number == index, "-current")
            label_widget.update(self._label(field, current=number == index))
        self.query_one(".form-keys", Static).update(self._keys_hint(index))
        help_line = self.query_one("#form-help", Static)
        spec = self.form.fields[index] if index is not None else None
        wraps_anyway = spec is not None and (
            spec.name in self.form.field_errors or self.form.note(spec.name) is not None
        )
        shown = self._note(spec) if spec is not None and not wraps_anyway else Text("")
        help_line.update(shown)
        help_line.set_class(not shown.plain, "-empty")

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
        self._set(event.checkbox, yes_no(event.value))

    @on(Button.Pressed, "#form-submit")
    def _submit_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_submit()

    def _pull_entries(self) -> None:
        """Read every control as it is now.

        Keys already handled have changed the controls, but their change messages may
        still be queued behind this submit; the move must be what the screen shows.
        """
        for index, spec in enumerate(self.form.fields):
            control = self.query_one(f"#field-{index}")
            if isinstance(control, ChoiceSet | ChoiceList):
                text = control.chosen
            elif isinstance(control, Input):
                text = control.value
            elif isinstance(control, Checkbox):
                text = yes_no(control.value)
            else:
                continue
            if text != self.form.entries.get(spec.name, ""):
                self.form.set_entry(spec.name, text)

    def action_submit(self) -> None:
        """Check the move; hand it over if it passes, else explain what to correct."""
        if self.turn.done:
            return
        self._pull_entries()
        outcome = self.form.submit()
        self._show_messages()
        if outcome.action is None:
            bad = [i for i, spec in enumerate(self.form.fields) if spec.name in outcome.field_errors]
            if bad:
                field = self.query_one(f"#field-{bad[0]}")
                self._focus(field)
                if isinstance(field, Input):
                    field.select_all()
            else:
                self._keep_focus()
            return
        action, reason, question = outcome.action, outcome.reason, outcome.question
        if question is None:
            self._hand_over(action, reason)
            return

        def answer(go_ahead: bool | None) -> None:
            if go_ahead and not self.turn.done:
                self._hand_over(action, reason)

        self.app.push_screen(ConfirmScreen(question, yes="Go ahead", no="Change it"), answer)

    def _hand_over(self, action: BaseModel, reason: str) -> None:
        entries = self.form.entries_for_storage()
        self.last_entries[self.turn.seat] = entries
        self.turn.submit(action, reason, entries)
        self.post_message(self.Submitted(self.turn))


def _as_radios(spec: FieldSpec) -> bool:
    """A few choices are shown side by side as radio buttons, more as a drop-down list."""
    return spec.kind == "choice" and len(spec.choices) <= MAX_RADIO_CHOICES
