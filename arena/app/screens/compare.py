"""Two episodes of one deal side by side: each seat's decision and reason in both, step by step.

Each row is one seat in one step: its move in A and in B side by side, each over its stated
reason.

Opened from the episode browser (mark two episodes with space, then ``c``). The table starts
at the first step where the two differ, marked with ``≠``; enter opens the replay of either
episode at that step (``a`` or ``b``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import DataTable, Header, Static

from arena.app.safe import safe_text
from arena.app.screens.base import ArenaScreen
from arena.app.widgets.steady_footer import SteadyFooter
from arena.engine.compare import Comparison, Decision

COLUMNS = ("step", "seat", "", "A: decision / reason", "B: decision / reason")
CELL_LIMIT = 60
"""Characters of a decision's move, and of its reason, shown in a cell (replay has them whole)."""


def heading(comparison: Comparison) -> Text:
    """Who played in each episode, what else differs, and where they first diverge."""
    a, b = comparison.a, comparison.b
    lines = [Text(f"{a.episode['game']} · seed {a.episode['seed']}", style="bold")]
    for label, side in (("A", a), ("B", b)):
        scores = " ".join(f"{seat}={'—' if s is None else f'{s:g}'}" for seat, s in side.scores.items())
        lines.append(safe_text(f"{label}: episode {side.id} · {side.lineup()} · scores {scores}", limit=200))
    lines += [safe_text(f"note: {note}", "yellow") for note in comparison.notes]
    first = comparison.first_divergence
    if first is None:
        lines.append(Text(f"the same moves at every one of {len(comparison.steps)} steps", style="green"))
    else:
        step = comparison.steps[first - 1]
        pair = next(p for p in step.seats if not p.same)
        a_text = pair.a.action_text if pair.a else "nothing"
        b_text = pair.b.action_text if pair.b else "nothing"
        lines.append(
            safe_text(
                f"first divergence: step {first}, seat {pair.seat}: {a_text} (A) vs {b_text} (B)",
                "bold",
                limit=200,
            )
        )
    return Text("\n").join(lines)


def cell(decision: Decision | None) -> Text:
    """A decision's move over its stated reason, two lines (untrusted text, shown literally)."""
    if decision is None:
        return Text("—\n", style="dim")
    action = decision.action_text or str(decision.move)
    if decision.fallback:
        action += f" (fallback: {decision.error})"
    reason = decision.reason or "(no reason)"
    return Text("\n").join(
        [safe_text(action, limit=CELL_LIMIT), safe_text(reason, "italic dim", limit=CELL_LIMIT)]
    )


class CompareScreen(ArenaScreen):
    """Two episodes on one deal, step by step."""

    HELP_NAME = "compare"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "replay('a')", "Replay A"),
        Binding("b", "replay('b')", "Replay B"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, comparison: Comparison) -> None:
        super().__init__()
        self.comparison = comparison
        self.sub_title = f"compare episodes {comparison.a.id} and {comparison.b.id}"
        self.row_steps: list[int] = []
        """The step number of each table row."""

    def compose(self) -> Iterator[Widget]:
        """Build the widgets."""
        yield Header()
        yield Static(heading(self.comparison), id="compare-head")
        yield DataTable[Text](id="compare-table", cursor_type="row", zebra_stripes=True)
        yield SteadyFooter()

    def on_mount(self) -> None:
        """Fill the table and put the cursor on the first divergence."""
        table: DataTable[Text] = self.query_one("#compare-table", DataTable)
        for column in COLUMNS:
            table.add_column(column, key=column or "mark")
        first = self.comparison.first_divergence
        target = 0
        for step in self.comparison.steps:
            for pair in step.seats:
                if step.number == first and not target and not pair.same:
                    target = len(self.row_steps)
                style = "bold yellow" if step.number == first else ""
                table.add_row(
                    Text(str(step.number), style=style),
                    Text(pair.seat),
                    Text("" if pair.same else "≠", style="yellow"),
                    cell(pair.a),
                    cell(pair.b),
                    height=2,
                )
                self.row_steps.append(step.number)
        table.focus()
        if self.row_steps:
            table.move_cursor(row=target)

    @property
    def current_step(self) -> int:
        """The step of the row under the cursor."""
        table: DataTable[Text] = self.query_one("#compare-table", DataTable)
        return self.row_steps[table.cursor_row] if self.row_steps else 0

    def action_replay(self, side: str) -> None:
        """Open episode A's or B's replay at the step under the cursor."""
        chosen = self.comparison.a if side == "a" else self.comparison.b
        self.arena.open_replay(chosen.id, at_step=self.current_step)

    def action_back(self) -> None:
        """Back to the episode list."""
        self.arena.pop_or_home()
