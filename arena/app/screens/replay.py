"""The replay screen: step through a saved episode turn by turn.

The state after each step is rebuilt by :class:`~arena.app.replay_data.ReplayData`;
this screen shows it with the game's own rendering, next to each seat's action, reason,
usage, prompt and raw reply, what the step changed (the full state's or the seat's view's
values, step to step) and the game's chart up to that step (cash by day, offers). For
hidden-information games ``v`` switches between the full view and each seat's own view.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer, VerticalScroll
from textual.widgets import Header, Input, Static, TabbedContent, TabPane

from arena.app.replay_data import ReplayData, ReplayTurn
from arena.app.safe import prerender, safe_line, safe_text
from arena.app.screens.base import ArenaScreen
from arena.app.screens.modals import JumpScreen
from arena.app.widgets.fitted_box import FittedTitleBox
from arena.app.widgets.in_place import TextUpdates
from arena.app.widgets.series_plot import SeriesPlot
from arena.app.widgets.steady_footer import SteadyFooter
from arena.display.values import metric_rows

if TYPE_CHECKING:
    pass

NAVIGATION = frozenset({"next", "previous", "first", "last", "page_forward", "page_back"})
PAGE = 10
TURNS_TITLES = ("decisions that led here", "decisions")
"""The turns box's title, fullest first: the longest that fits is shown."""
CHANGES_SHOWN = 200
"""Changes listed for one step (a step that rebuilds a board changes more)."""
BOARDS_KEPT = 64
"""Rendered boards kept (by step, view and width): stepping back over them renders nothing."""


def turn_summary(turn: ReplayTurn) -> Text:
    """One seat's decision in a step: action, flags, reason and usage."""
    head = safe_line((f"seat {turn.seat} ", "bold"), (turn.player, "cyan"))
    if turn.flags:
        head.append_text(safe_text(f"  {turn.flags}", "red" if turn.fallback else "yellow"))
    parts: list[Text] = [
        head,
        safe_line(("action: ", "dim"), turn.action_text),
        safe_line(("reason: ", "dim"), (turn.reason or "(none)", "italic")),
    ]
    if turn.error_detail:
        parts.append(safe_line(("problem: ", "dim"), (turn.error_detail, "yellow")))
    parts.append(safe_text(turn.usage_line(), "dim"))
    parts.append(Text(""))
    return Text("\n").join(parts)


def long_texts(turns: list[ReplayTurn], attr: str) -> Text:
    """Each seat's prompt or raw reply, literally, one after the other."""
    if not turns:
        return Text("no decision of this seat in this step", style="dim")
    parts: list[Text] = []
    for turn in turns:
        value = getattr(turn, attr)
        parts.append(Text(f"── seat {turn.seat} ──", style="bold"))
        if attr == "attempts":
            body = json.dumps(value, ensure_ascii=False, indent=1) if value else "(no failed attempts)"
        elif attr == "prompt":
            body = value or "(no prompt: scripted players and people do not read one)"
        else:
            body = value or "(empty reply)"
        if attr == "raw" and turn.thinking:
            # A reasoning model's thinking, apart from its reply (and from the reason it states);
            # in this tab rather than a sixth one, which would not fit the tab bar at 80 columns.
            parts.append(Text("thinking:", style="bold dim"))
            parts.append(safe_text(turn.thinking, "dim", keep_newlines=True))
            parts.append(Text("reply:", style="bold dim"))
        parts.append(safe_text(body, keep_newlines=True))
    return Text("\n").join(parts)


def changes_text(heading: str, lines: list[str]) -> Text:
    """What a step changed: a heading, then one line per change (values shown literally)."""
    parts = [Text(heading, style="bold")]
    parts += [
        safe_text(line, "green" if line[:1] == "+" else "red" if line[:1] == "-" else "")
        for line in lines[:CHANGES_SHOWN]
    ]
    if len(lines) > CHANGES_SHOWN:
        parts.append(Text(f"… and {len(lines) - CHANGES_SHOWN} more", style="dim"))
    return Text("\n").join(parts)


class ReplayScreen(ArenaScreen):
    """One saved episode, positioned after some step."""

    HELP_NAME = "replay"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l", "next", "Next", priority=True, key_display="→"),
        Binding("left,h", "previous", "Prev", priority=True, key_display="←"),
        Binding("home", "first", "Start", priority=True),
        Binding("end", "last", "End", priority=True),
        Binding("pagedown", "page_forward", f"+{PAGE}", show=False, priority=True),
        Binding("pageup", "page_back", f"-{PAGE}", show=False, priority=True),
        Binding("g", "jump", "Jump to"),
        Binding("v", "view", "Switch view"),
        Binding("t", "next_tab", "Next tab"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, data: ReplayData) -> None:
        super().__init__()
        self.data = data
        self.texts = TextUpdates()
        self.boards: dict[tuple[int, str | None, int], Text] = {}
        """Boards rendered so far, by step, view and width (oldest first)."""
        self._heading = 1
        self._board_width = 0
        episode = data.episode
        self.sub_title = f"episode {episode['id']} · {episode['game']} · seed {episode['seed']}"

    def compose(self) -> ComposeResult:
        """Build the widgets."""
        yield Header()
        yield Static(Text(""), id="replay-head")
        with ScrollableContainer(id="replay-board-box"):
            yield Static(Text(""), id="replay-board")
        with Horizontal(id="replay-bottom"):
            with FittedTitleBox(id="replay-turns-box"):
                yield Static(Text(""), id="replay-turns")
            with TabbedContent(id="replay-detail"):
                # The prompt wraps at the pane's width (a long word is folded), so all of it
                # reads by scrolling down, none of it cut at the pane's edge.
                with TabPane("prompt", id="tab-prompt"), VerticalScroll(id="replay-prompt-scroll"):
                    yield Static(Text(""), id="replay-prompt")
                with TabPane("raw reply", id="tab-raw"), VerticalScroll():
                    yield Static(Text(""), id="replay-raw")
                with TabPane("failed attempts", id="tab-attempts"), VerticalScroll():
                    yield Static(Text(""), id="replay-attempts")
                with TabPane("changes", id="tab-changes"), VerticalScroll(id="replay-changes-scroll"):
                    yield Static(Text(""), id="replay-changes")
                with TabPane("chart", id="tab-chart"):
                    yield SeriesPlot(id="replay-chart")
        yield SteadyFooter()

    def on_mount(self) -> None:
        """Set up once the widgets exist."""
        self.query_one("#replay-board-box").border_title = "state"
        self.query_one("#replay-turns-box", FittedTitleBox).word_title(*TURNS_TITLES)
        self.show()
        self.call_after_refresh(self._draw_ahead)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Arrow keys step the replay unless a text box has the cursor."""
        return not (action in NAVIGATION and isinstance(self.app.focused, Input))

    def show(self) -> None:
        """Draw the current step: only the texts that changed, laid out again only if they resize."""
        data = self.data
        episode = data.episode
        head = Text()
        head.append(f"{data.step_label()}", style="bold")
        head.append(f"  ·  {data.view_label()}  ·  {episode['status']}")
        seats = " ".join(f"{s['seat']}={s['player']}" for s in data.seat_rows)
        head.append_text(safe_text(f"  ·  {seats}", "dim", limit=160))
        for note in data.warnings():
            head.append_text(safe_text(f"\n⚠ {note}", "yellow"))
        put = self.texts.update
        put(self.query_one("#replay-head", Static), head)
        width = self._board_room()
        drawn = self._board(width)
        board = self.query_one("#replay-board", Static)
        widest = max(map(cell_len, drawn.plain.split("\n")))
        if widest > max(width, self._board_width):
            # The board's box keeps the width of the widest board shown: stepping back through
            # a board that shrinks by a column a step (a growing sparkline) lays nothing out.
            self._board_width = widest
            board.styles.min_width = widest
        put(board, drawn)
        turns = data.current_turns()
        if turns:
            summary = Text("\n").join(turn_summary(turn) for turn in turns)
        elif data.position == 0:
            summary = Text("the start of the episode: press → to see the first step", style="dim")
        else:
            summary = Text(f"seat {data.view} did not act in this step", style="dim")
        result_seats, rows = data.result_rows()
        shown = Group(summary, Text(""), results_table(result_seats, rows)) if rows else summary
        put(self.query_one("#replay-turns", Static), shown)
        prompt = long_texts(turns, "prompt")
        prompt.overflow = "fold"
        put(self.query_one("#replay-prompt", Static), prompt)
        put(self.query_one("#replay-raw", Static), long_texts(turns, "raw"))
        put(self.query_one("#replay-attempts", Static), long_texts(turns, "attempts"))
        put(self.query_one("#replay-changes", Static), changes_text(*data.changes()))
        self._sync_chart()

    def _sync_chart(self) -> None:
        """Plot the series up to this step, only while the chart's tab is open (stepping stays as fast)."""
        if self.query_one(TabbedContent).active != "tab-chart":
            return
        title, series = self.data.score_series()
        self.query_one("#replay-chart", SeriesPlot).show_series(series, title)

    @on(TabbedContent.TabActivated)
    def _tab_opened(self) -> None:
        self.texts.lay_out_shown()
        self.call_after_refresh(self.texts.lay_out_shown)  # if the pane was shown after this message
        self._sync_chart()

    def _board_room(self) -> int:
        box = self.query_one("#replay-board-box")
        return box.scrollable_content_region.width or self.app.size.width - 4

    def _board(self, width: int) -> Text:
        """The current step's board at ``width``: rendered once, then kept."""
        key = (self.data.position, self.data.view, width)
        drawn = self.boards.get(key)
        if drawn is None:
            drawn = prerender(self.data.render(), self.app.console, width)
            self.boards[key] = drawn
            if len(self.boards) > BOARDS_KEPT:
                del self.boards[next(iter(self.boards))]
        return drawn

    def _draw_ahead(self) -> None:
        """Once a step is painted, render the board one step on the way the last key went.

        Rendering a board and rebuilding the states its changes compare are most of a
        step's work (lemonade's 1,000-turn board: ~2 and ~3 of ~9 ms); done while nobody
        waits, the next key in that direction finds them ready. A key that comes meanwhile
        waits at most what was left of it, as long as it would have done that work itself.
        """
        data = self.data
        here, ahead = data.position, data.position + self._heading
        if not self.is_current or not 0 <= ahead <= data.total:
            return
        width = self._board_room()
        data.go(ahead)
        try:
            self._board(width)  # kept: a dictionary lookup
            data.prepare_changes()
        finally:
            data.go(here)

    def _move(self, position: int) -> None:
        if position != self.data.position:
            self._heading = 1 if position > self.data.position else -1
        self.data.go(position)
        self.texts.changed.clear()
        self.show()
        # a key held down or pressed quickly must not wait for the next frame
        self.paint_soon(self.texts.changed)
        self.call_after_refresh(self._draw_ahead)

    def action_next(self) -> None:
        """The state after the next step."""
        self._move(self.data.position + 1)

    def action_previous(self) -> None:
        """The state after the previous step."""
        self._move(self.data.position - 1)

    def action_first(self) -> None:
        """The start of the episode."""
        self._move(0)

    def action_last(self) -> None:
        """The end of the episode."""
        self._move(self.data.total)

    def action_page_forward(self) -> None:
        """Ten steps on."""
        self._move(self.data.position + PAGE)

    def action_page_back(self) -> None:
        """Ten steps back."""
        self._move(self.data.position - PAGE)

    def action_jump(self) -> None:
        """Ask for a step number and go there."""

        def jump(value: int | None) -> None:
            if value is not None:
                self._move(value)

        self.app.push_screen(JumpScreen(self.data.total), jump)

    def action_view(self) -> None:
        """Full view, then each seat's own view."""
        self.data.cycle_view()
        self.show()

    def action_next_tab(self) -> None:
        """Prompt, raw reply, failed attempts, changes, chart."""
        tabs = self.query_one(TabbedContent)
        order = ["tab-prompt", "tab-raw", "tab-attempts", "tab-changes", "tab-chart"]
        current = tabs.active if tabs.active in order else order[0]
        tabs.active = order[(order.index(current) + 1) % len(order)]

    def action_back(self) -> None:
        """Back to where you came from."""
        self.arena.pop_or_home()


def results_table(seats: list[str], rows: list[list[object]]) -> Table:
    """The episode's results, seats side by side (metric names as words, a dict metric as rows)."""
    table = Table(title="results", title_justify="left", box=None, pad_edge=False)
    table.add_column("")
    for seat in seats:
        table.add_column(Text(seat), justify="right")
    for name, *values in rows:
        for shown, cells in metric_rows(str(name), values):
            table.add_row(safe_text(shown), *(Text(cell) for cell in cells))
    return table
