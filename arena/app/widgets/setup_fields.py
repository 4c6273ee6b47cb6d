"""The set-up forms, built from the game: a picker per seat, a field per option, the rules.

These build widgets and renderables only; the home and tournament set-up screens own the
drafts they edit and mount what they return. Ids and classes are the ones the screens and
the stylesheet look up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from rich.console import Group, RenderableType
from rich.text import Text
from textual.containers import Horizontal, Vertical
from textual.visual import VisualType
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static

from arena.app.home_data import SeatOption, option_kind, option_title, reflow, rules_by_seat
from arena.app.safe import safe_text
from arena.app.widgets.fitted_input import FittedPlaceholderInput
from arena.app.widgets.home_parts import option_label
from arena.contract.game import GameDefinition
from arena.contract.options import GameOption


class FieldError(Static):
    """A field's error line, shown only while it has something to say: an empty one takes no row."""

    def __init__(self, *, id: str) -> None:
        super().__init__(Text(""), id=id, classes="field-error")
        self.display = False

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        """Show ``content``; hide the line while it is empty."""
        super().update(content, layout=layout)
        self.display = bool(str(content).strip())


def seat_rows(seats: Sequence[str], choices: list[SeatOption], chosen: dict[str, str]) -> list[Widget]:
    """A labelled player list per seat with its error line, then the typed ``SEAT=SPEC`` field."""
    rows: list[Widget] = []
    label_width = max(len(f"seat {seat}") for seat in seats) + 2 if seats else 10
    for index, seat in enumerate(seats):
        select: Select[str] = Select(
            [(option_label(c), c.spec) for c in choices],
            value=chosen[seat],
            allow_blank=False,
            id=f"seat-select-{index}",
            compact=True,
        )
        rows.append(
            Horizontal(
                Label(Text(f"seat {seat}", style="bold"), classes="seat-label").set_styles(
                    f"width: {label_width};"
                ),
                select,
                classes="seat-row",
            )
        )
        rows.append(Static(Text(""), id=f"seat-error-{index}", classes="field-error seat-error"))
    seat = seats[0] if seats else "a"
    wordings = (
        f"or type SEAT=SPEC, e.g. {seat}=openai-compat:MODEL@URL (enter)",
        f"or type SEAT=SPEC, e.g. {seat}=openai:MODEL (enter)",
        f"SEAT=SPEC, e.g. {seat}=openai:MODEL (enter)",
        "or type SEAT=SPEC, then enter",
        "SEAT=SPEC",
    )
    rows.append(FittedPlaceholderInput(wordings, id="seat-typed", compact=True))
    rows.append(FieldError(id="seat-typed-error"))
    return rows


def option_fields(
    seed: str, definition: GameDefinition, values: Mapping[str, str]
) -> tuple[list[Widget], list[str]]:
    """The seed field and one field per game option showing ``values`` (default where none is
    given or a choice is no longer offered), and the options' names in field order."""
    # Blank is a valid seed (a person seated: a secret one is drawn), not an error drawn in red.
    seed_input = Input(seed, id="opt-seed", type="integer", compact=True, valid_empty=True)
    titles = ["seed", *(option_title(option) for option in definition.options)]
    width = label_width(titles)
    fields: list[Widget] = [labelled_field("seed", seed_input, "opt-error-seed", width)]
    names: list[str] = []
    for index, option in enumerate(definition.options):
        names.append(option.name)
        control = option_control(option, values.get(option.name, str(option.default)), f"opt-{index}")
        fields.append(labelled_field(titles[index + 1], control, f"opt-error-{index}", width))
    return fields, names


def label_width(titles: Sequence[str]) -> int:
    """The width of the label column: the longest title, so every label is one line."""
    return max((len(title) for title in titles), default=4) + 1


def option_control(option: GameOption, value: str, widget_id: str) -> Widget:
    """The control for one game option: a list of its choices, else an input of its kind; help as tooltip."""
    control: Widget
    kind = option_kind(option)
    if kind == "choice":
        values = option.choices or (True, False)
        if value not in {str(v) for v in values}:
            value = str(option.default)
        control = Select(
            [(Text(str(v)), str(v)) for v in values],
            value=value,
            allow_blank=False,
            id=widget_id,
            compact=True,
        )
    else:
        input_type: Literal["integer", "number", "text"] = (
            "integer" if kind == "integer" else "number" if kind == "number" else "text"
        )
        control = Input(value, id=widget_id, type=input_type, compact=True)
    control.tooltip = Text(option.help)
    return control


def labelled_field(title: str, control: Widget, error_id: str, width: int) -> Vertical:
    """``control`` beside its title (``width`` columns, so the title never wraps and every value
    sits on its label's row), with the line its errors show in below."""
    label = Label(Text(title), classes="option-label").set_styles(f"width: {width};")
    return Vertical(
        Horizontal(label, control, classes="option-row"),
        FieldError(id=error_id),
        classes="option-field",
    )


def rules_view(definition: GameDefinition, given: dict[str, str]) -> RenderableType:
    """The rules as each seat is told them with the options ``given`` so far."""
    groups = rules_by_seat(definition, given)
    rules: list[RenderableType] = []
    for seats, text in groups:
        if len(groups) > 1:
            rules.append(Text(f"seat {', '.join(seats)}", style="bold"))
        rules.append(safe_text(reflow(text), keep_newlines=True))
    return Group(*rules)
