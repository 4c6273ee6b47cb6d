"""The match screen: the game's own board, the history, the messages, each seat's reasons, the score.

The screen only reads the match's :class:`~arena.app.match_data.MatchData`; a timer
redraws what changed a few times a second, so a fast episode never floods the screen and
a slow model never freezes it (the episode runs as a task owned by the app). Leaving the
screen leaves the match running. While a person's move is due the run controls are off
(a stray space must not pause the match behind the form), and while a person plays the
replay stays closed: it shows the full view, hidden numbers and private reasons included.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, ScrollableContainer, Vertical
from textual.widgets import DataTable, Header, Static

from arena.app.home_data import reflow
from arena.app.live import LiveMatch
from arena.app.match_data import HIDDEN_VIEW, HistoryRow
from arena.app.safe import one_line, prerender, safe_text
from arena.app.screens.base import ArenaScreen
from arena.app.screens.modals import TextScreen
from arena.app.widgets.human_form import HumanForm
from arena.app.widgets.panels import MessagesPane, ResultsTable, ScoreChart, SeatPane
from arena.app.widgets.steady_footer import SteadyFooter
from arena.display.board import board
from arena.engine.action_form import ActionForm
from arena.engine.deal_seed import has_human_seat
from arena.plugins.players import SpecError

if TYPE_CHECKING:
    pass

REFRESH_SECONDS = 0.1
MAX_PANE_COLUMNS = 4
HISTORY_WIDTHS = {"step": 4, "seat": 6, "action": 34, "reason": 56, "flags": 28}
"""Column widths of the history table; longer cells are cut there with an ellipsis."""
RUN_CONTROLS = frozenset({"toggle_pause", "step", "faster", "slower"})
STATUS_STYLES = {"running": "bold green", "finished": "bold cyan", "starting": "bold"}


def history_cells(row: HistoryRow) -> tuple[Text, ...]:
    """A history row as table cells, shown literally."""
    flag_style = "red" if row.flags.startswith("FALLBACK") else "yellow"
    return (
        Text(str(row.step + 1), justify="right"),
        safe_text(row.seat, "bold"),
        safe_text(one_line(row.action_text, HISTORY_WIDTHS["action"])),
        safe_text(one_line(row.reason, HISTORY_WIDTHS["reason"]), "italic"),
        safe_text(one_line(row.flags, HISTORY_WIDTHS["flags"]), flag_style),
    )


class BoardScroll(ScrollableContainer):
    """The board's box: focusable (Tab from a person's form reaches it), arrows and page keys scroll it.

    Tab and shift+Tab here go back into the open form; with no form open they move on as anywhere.
    """

    # Priority, as the form's own: the app then handles them as the key arrives, before the
    # keys queued behind it; a plain binding runs later in the board's queue, so a fast typist's
    # next key would still reach the board and be lost.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "leave(1)", "Next field", show=False, priority=True),
        Binding("shift+tab", "leave(-1)", "Previous field", show=False, priority=True),
    ]

    def action_leave(self, step: int) -> None:
        """Back to the form's first (Tab) or last (shift+Tab) stop, else the next focusable widget."""
        forms = self.screen.query(HumanForm)
        if forms:
            forms.first().move_from_board(step)
        elif step > 0:
            self.screen.focus_next()
        else:
            self.screen.focus_previous()


WIDE_ENOUGH_FOR_PLAYERS = 100
"""From this many columns (the app's "-medium" breakpoint) the results name the players."""


class MatchScreen(ArenaScreen):
    """Watch (or play in) one match."""

    HELP_NAME = "match"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_pause", "Pause/resume"),
        Binding("n", "step", "Step"),
        Binding("plus,equals_sign", "faster", "Faster", key_display="+"),
        Binding("minus", "slower", "Slower", key_display="-"),
        # f2, not a letter: a letter would reach the screen from a focused form button.
        Binding("f2", "rules", "Rules", priority=True),
        Binding("r", "replay", "Replay"),
        Binding("m", "rematch", "Rematch (same seed)"),
        Binding("w", "swap", "Swap seats"),
        Binding("escape", "home", "Home"),
    ]

    def __init__(self, match: LiveMatch) -> None:
        super().__init__()
        self.match = match
        self._revision = -1
        self._history_index = 0
        self._follow_history = True
        self._secret: bool | None = None
        self._form_turn: object | None = None
        self._results_shown = False
        self._syncing = False
        self._binding_state: tuple[bool, int | None, bool, bool] = (False, None, False, False)
        self._board_key: tuple[int, str, str | None] = (-1, "", None)
        self.sub_title = match.title

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the run controls once the episode is over, and replay until it is saved."""
        data = self.match.data
        if action in RUN_CONTROLS:
            return not data.over and self.match.desk.active() is None
        if action == "replay":
            return data.episode_id is not None and not data.secret
        if action in ("rematch", "swap"):
            return data.over
        return True

    def compose(self) -> ComposeResult:
        """Build the widgets."""
        data = self.match.data
        yield Header()
        with Vertical(id="match-top"), BoardScroll(id="board-scroll"):
            yield Static(Text("waiting for the players…", style="dim"), id="board")
        with Horizontal(id="match-middle"):
            with Grid(id="seat-panes"):
                for index, seat in enumerate(data.seats):
                    yield SeatPane(seat, data.players.get(seat, "?"), index)
            yield ScoreChart()
            yield ResultsTable()
        with Horizontal(id="match-log"):
            yield DataTable[Text](id="history", cursor_type="row", zebra_stripes=True)
            yield MessagesPane()
        yield Static(Text(""), id="match-status")
        yield Vertical(id="form-host")
        yield SteadyFooter()

    def on_mount(self) -> None:
        """Set up once the widgets exist."""
        table = self.query_one("#history", DataTable)
        table.border_title = "history"
        for label, width in HISTORY_WIDTHS.items():
            table.add_column(label, width=width, key=label)
        self.watch(table, "virtual_size", self._history_resized, init=False)
        columns = min(len(self.match.data.seats), MAX_PANE_COLUMNS)
        self.query_one("#seat-panes", Grid).styles.grid_size_columns = max(1, columns)
        board_box = self.query_one("#board-scroll", BoardScroll)
        board_box.border_title = "board"
        self.watch(board_box, "virtual_size", self._board_resized, init=False)
        self.watch(board_box, "size", self._board_resized, init=False)
        self.query_one("#results", ResultsTable).display = False
        self.query_one("#form-host").display = False
        self.query_one(MessagesPane).display = False
        self.set_interval(REFRESH_SECONDS, self.sync)
        self.call_after_refresh(self.sync)

    async def on_screen_resume(self) -> None:
        """Refresh when this screen comes back on top."""
        await self.sync()

    async def sync(self) -> None:
        """Redraw whatever changed since the last call (one redraw at a time)."""
        if self._syncing or not self.is_attached or self.app.screen is not self:
            return
        self._syncing = True
        try:
            if self.match.data.revision == self._revision and self.match.data.waiting_line():
                self._sync_status()  # the waiting time and spinner move on between events
            while self.match.data.revision != self._revision and self.is_attached:
                await self._redraw()
        finally:
            self._syncing = False

    async def _redraw(self) -> None:
        match = self.match
        data = match.data
        self._revision = data.revision
        state = (data.over, data.episode_id, data.secret, match.desk.active() is not None)
        if state != self._binding_state:
            self._binding_state = state
            self.refresh_bindings()
        self.sub_title = match.title
        if data.secret != self._secret:
            self._secret = data.secret
            self.set_class(data.secret, "-secret")
            self._reset_history()
        await self._sync_form()
        self._sync_board()
        self._sync_history()
        self._sync_messages()
        self._sync_panes()
        title = data.game.definition.view.score_series_title if data.game is not None else "score"
        await self.query_one(ScoreChart).update_series(data.score_series(), title)
        self._sync_results()
        self._sync_status()

    def _board(self) -> Text:
        data = self.match.data
        turn = self.match.desk.active()
        viewer = data.board_viewer(turn.seat if turn else None)
        if viewer == HIDDEN_VIEW:
            return Text("several people share this screen: the board shows when a seat's form is open", "dim")
        if data.game is None:
            return Text(data.message or "waiting for the players…", style="dim")
        caption = Text("full view\n" if viewer is None else f"what seat {viewer} sees\n", style="dim")
        box = self.query_one("#board-scroll")
        width = box.scrollable_content_region.width or self.app.size.width - 4
        return caption + prerender(board(data.game, viewer), self.app.console, width)

    def _sync_board(self) -> None:
        turn = self.match.desk.active()
        data = self.match.data
        key = (data.state_revision, data.status, turn.seat if turn else None)
        if key == self._board_key:
            return
        new_state = key[0] != self._board_key[0]
        self._board_key = key
        self.query_one("#board", Static).update(self._board())
        if new_state:
            # The newest part (today's line, the puzzle being answered, the last offer) is at
            # the board's end: follow it on each new step, as the history does. The scroll waits
            # for the board to be laid out at its new height.
            self.call_after_refresh(self._show_board_end)

    def _board_resized(self, size: object) -> None:
        """The board's content or its box changed size (a form opened): keep its end in view."""
        self.call_after_refresh(self._show_board_end)

    def _show_board_end(self) -> None:
        if not self.is_attached:
            return
        box = self.query_one("#board-scroll", BoardScroll)
        box.scroll_to(y=box.max_scroll_y, animate=False, immediate=True)
        if box.show_vertical_scrollbar:
            box.vertical_scrollbar.position = box.scroll_y  # as in _show_history_end

    def _reset_history(self) -> None:
        self.query_one("#history", DataTable).clear()
        self._history_index = 0

    def _sync_history(self) -> None:
        data = self.match.data
        table: DataTable[Text] = self.query_one("#history", DataTable)
        rows = data.visible_history(self._history_index)
        self._history_index = len(data.history)
        if not rows:
            return
        follow = table.cursor_row >= table.row_count - 1
        table.add_rows(history_cells(row) for row in rows)
        self._follow_history = follow
        if follow:
            table.move_cursor(row=table.row_count - 1, animate=False, scroll=False)

    def _history_resized(self, size: object) -> None:
        """The history laid out new rows: show the last one if the cursor follows them.

        The table sizes new rows when it is next idle, so a scroll asked for when they were
        added (or after the next refresh) could stop where the last row was before: under
        load it sometimes did, and the same match showed its history at two positions.
        Its virtual size changes once the rows have their size; the scroll waits for the
        refresh after that, when a scroll bar that appeared has taken its room.
        """
        if self._follow_history:
            self.call_after_refresh(self._show_history_end)

    def _show_history_end(self) -> None:
        table: DataTable[Text] = self.query_one("#history", DataTable)
        table.scroll_to(y=table.max_scroll_y, animate=False, immediate=True)
        if table.show_vertical_scrollbar:
            # A scroll bar shown after the view was scrolled keeps its thumb at the top until
            # the view moves again (Textual moves the thumb only when the position changes).
            table.vertical_scrollbar.position = table.scroll_y

    def _sync_messages(self) -> None:
        data = self.match.data
        pane = self.query_one(MessagesPane)
        pane.display = data.has_messages
        if data.has_messages:
            pane.update_chat(data.chat, data.human_seats)

    def _sync_panes(self) -> None:
        data = self.match.data
        visible = set(data.visible_seats())
        for pane in self.query(SeatPane):
            pane.update_pane(
                data.stats[pane.seat],
                data.reasons.get(pane.seat, []),
                hidden=pane.seat not in visible,
                deciding=pane.seat in data.deciding,
            )

    def _sync_results(self) -> None:
        data = self.match.data
        if self._results_shown or not data.results:
            return
        seats, rows = data.result_rows()
        table = self.query_one("#results", ResultsTable)
        table.show(seats, data.players, rows, with_players=self._room_for_players())
        table.display = True
        # The final score is in the table: it takes the chart's place beside the reasons,
        # and the board keeps the full width.
        self.query_one(ScoreChart).display = False
        self._results_shown = True

    def on_resize(self) -> None:
        """Fit the results table to the width, once the screen has its new size class."""
        self.call_after_refresh(self._fit_results)

    def _fit_results(self) -> None:
        for table in self.query(ResultsTable):  # none yet if resized before it was built
            table.fit(with_players=self._room_for_players())

    def _room_for_players(self) -> bool:
        # The terminal's width, not the screen's "-narrow" class: a short match can end before
        # the screen's first layout has given it its size classes.
        return self.app.size.width >= WIDE_ENOUGH_FOR_PLAYERS

    def _sync_status(self) -> None:
        data = self.match.data
        line = Text(data.status_line(), style=STATUS_STYLES.get(data.status, "bold red"))
        if not data.over:
            line.append(f"  ·  {self.match.control_line()}", style="dim")
        if data.message:
            line.append("  ·  ")
            line.append_text(safe_text(data.message, limit=300))
        if data.over and data.episode_id is not None:
            line.append(
                f"  ·  saved as episode {data.episode_id} (r: replay, m: rematch, w: swap seats)",
                style="dim",
            )
        self.query_one("#match-status", Static).update(line)

    async def _sync_form(self) -> None:
        turn = self.match.desk.active()
        if turn is self._form_turn:
            return
        self._form_turn = turn
        host = self.query_one("#form-host", Vertical)
        await host.remove_children()
        host.display = turn is not None
        self.set_class(turn is not None, "-form")
        if turn is None:
            return
        form = turn.draft if isinstance(turn.draft, ActionForm) else None
        if form is None:
            form = ActionForm(turn.request, self.match.desk.last_entries.get(turn.seat))
            turn.draft = form
        board = self.query_one("#board-scroll", BoardScroll)
        await host.mount(HumanForm(turn, form, self.match.desk.last_entries, board=board))

    @on(HumanForm.Submitted)
    async def _submitted(self, event: HumanForm.Submitted) -> None:
        self.match.data.touch()
        await self.sync()

    # -- actions ------------------------------------------------------------------------
    async def action_toggle_pause(self) -> None:
        """Pause before the next step, or play on."""
        if not self.match.data.over:
            self.match.toggle_pause()
            await self.sync()

    async def action_step(self) -> None:
        """Play exactly one more step, then pause."""
        if not self.match.data.over:
            self.match.step_once()
            await self.sync()

    async def action_faster(self) -> None:
        """Shorter pause between steps."""
        self.match.change_speed(slower=False)
        await self.sync()

    async def action_slower(self) -> None:
        """Longer pause between steps."""
        self.match.change_speed(slower=True)
        await self.sync()

    def action_home(self) -> None:
        """Back to the home screen; the match keeps running."""
        self.arena.go_home()

    def action_replay(self) -> None:
        """Open this episode in the replay screen."""
        episode_id = self.match.data.episode_id
        if episode_id is None:
            self.notify("the episode has not been saved yet", severity="warning", markup=False)
            return
        self.arena.open_replay(episode_id)

    def action_rematch(self) -> None:
        """Play the same match again: same seed, options and seats."""
        self._start_again(swap=False)

    def action_swap(self) -> None:
        """Play it again with every player moved one seat on (same seed and options)."""
        self._start_again(swap=True)

    def _start_again(self, *, swap: bool) -> None:
        config = self.match.config
        seats = dict(config.seats)
        if swap:
            names = list(seats)
            specs = [seats[name] for name in names]
            seats = dict(zip(names, specs[-1:] + specs[:-1], strict=True))
        again = replace(config, seats=seats, tournament_id=None, slot_key=None, resume=None)
        try:
            self.arena.start_match(again)
        except (SpecError, ValueError) as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        if config.seed is None and has_human_seat(seats):
            # The person has seen the last deal's numbers: the same seed would give it away.
            self.notify("a new secret deal: a person plays and no seed was given", markup=False)

    def action_rules(self) -> None:
        """Show the rules each seat is told."""
        data = self.match.data
        game = data.game
        if game is None:
            return
        seats = data.human_seats or data.seats
        parts: list[RenderableType] = []
        for seat in seats:
            parts.append(Text(f"seat {seat}", style="bold"))
            # joined into paragraphs, as on the home screen: the rules are hard-wrapped for a
            # prompt, and wrapped again at the box's width they read in ragged half lines
            parts.append(safe_text(reflow(game.definition.rules(game.options, seat)), keep_newlines=True))
            parts.append(Text(""))
        # Not part of any prompt: what people may know besides (a demand formula), and what a
        # win means for the tournament tables.
        notes = game.definition.rules_notes
        if notes:
            also = safe_text(reflow(notes), keep_newlines=True)
            parts += [Text("also known", style="bold"), also, Text("")]
        parts.append(Text("wins, draws and losses in tournaments", style="bold"))
        parts.append(safe_text(game.definition.outcome_rule))
        self.app.push_screen(TextScreen("rules", Group(*parts)))
