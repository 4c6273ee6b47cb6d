"""One tournament: its progress and live leaderboard while it plays, its tables once it ends.

The run belongs to the app (:class:`~arena.app.tournament_job.TournamentManager`); this
screen only reads it, so leaving it leaves the tournament playing. A timer redraws the
progress four times a second; the tables are recomputed in a worker thread
(:mod:`arena.app.table_worker`, never on the event loop) by
:class:`~arena.app.tournament_board.RefreshPolicy`'s rules (never two at once, at most
every half second, fewer bootstrap resamples while it runs, the full 1,000 once it has
ended). Enter on a leaderboard row lists that player's episodes, each of which opens in replay.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer
from textual.widgets import DataTable, Header, ProgressBar, Static, TabbedContent, TabPane

from arena.app.board_layout import (
    BoardCells,
    bar_width,
    narrow_columns,
    room_for_bar,
    table_width,
    wide_columns,
    with_bar,
    wrapped_for_bar,
)
from arena.app.safe import safe_line, safe_text
from arena.app.screens.base import ArenaScreen
from arena.app.table_worker import RenderedBoard
from arena.app.tournament_board import (
    FULL_RESAMPLES,
    LIVE_RESAMPLES,
    Board,
    LeaderRow,
    RefreshPolicy,
    finished_count,
)
from arena.app.tournament_charts import (
    BAR_WIDTH,
    axis_label,
    heat_map,
    interval_bar,
    rank_style,
    rating_axis,
    score_histograms,
)
from arena.app.tournament_job import TournamentJob, progress_line
from arena.app.widgets.in_place import TextUpdates
from arena.app.widgets.steady_footer import SteadyFooter
from arena.app.widgets.table_in_place import fill_table
from arena.plugins.games import get_game
from arena.plugins.players import short_names
from arena.tournament.wording import groups_note, rough_note

REFRESH_SECONDS = 0.25


def _rank_label(row: LeaderRow, groups: int) -> str:
    """``2``, or ``2.1`` (group 2's first) when the pool split into groups that never met."""
    if row.group is None:
        return "-"
    if groups <= 1:
        return str(row.rank)
    return f"{row.group}.{row.rank}"


def result_line(rows: list[LeaderRow], status: str, names: Mapping[str, str] | None = None) -> Text | None:
    """The finished tournament's result in words: who came first, and whether the data separate it.

    ``None`` while it plays, or when nobody was rated. ``names`` maps a player to the name
    shown (its short name). Two groups that never met have no one
    winner; a first whose 95% interval overlaps the second's is named as first, not as certain.
    """
    if status != "finished":
        return None
    rated = [row for row in rows if row.group is not None]
    if not rated:
        return None
    if len({row.group for row in rated}) > 1:
        return Text(
            "finished: the players split into groups that never met, so there is no one winner", "bold"
        )
    first, *rest = rated
    second = rest[0] if rest else None
    apart = second is None or (first.low is not None and second.high is not None and first.low > second.high)
    # "winner" only where the intervals separate the first from the second; else "first".
    text = Text("winner: " if apart else "first: ", style="bold")
    shown = names or {}
    text.append_text(safe_text(shown.get(first.player, first.player), "bold green", limit=60))
    if second is not None:
        text.append(" (ahead of " if apart else " (its 95% interval overlaps ", style="dim")
        text.append_text(safe_text(shown.get(second.player, second.player), "dim", limit=60))
        text.append(")" if apart else "'s: not separated)", style="dim")
    return text


def shown_names(table: Mapping[str, Any], scores: Iterable[str] = ()) -> dict[str, str]:
    """Every player of a tournament table to the name its widgets show: the short name
    (:func:`arena.plugins.players.short_names`, as the CLI's tables), the full id where two
    short ones would look alike."""
    matrix = table.get("win_matrix") or {}
    players = [row["player"] for row in table.get("players") or ()]
    return short_names([*players, *(matrix.get("players") or ()), *scores])


class TournamentScreen(ArenaScreen):
    """Watch a tournament play and read its tables; stop and resume it."""

    HELP_NAME = "tournament"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "stop", "Stop"),
        Binding("c", "resume", "Resume"),
        Binding("e", "episodes", "Player's episodes"),
        Binding("t", "next_tab", "Next tab"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, tournament_id: int) -> None:
        super().__init__()
        self.tournament_id = tournament_id
        self.sub_title = f"tournament {tournament_id}"
        self.board: Board | None = None
        self.policy = RefreshPolicy()
        self._shown_status: tuple[object, ...] | None = None
        self._binding_state: tuple[object, ...] | None = None
        self._stored = ""
        self._made_by_old_suite = False
        self._players: list[str] = []
        self.texts = TextUpdates()
        """The texts shown, to redraw only what changed (and lay out only when a size can change)."""
        self.board_updates_in_place = 0
        """Leaderboards shown by updating the table's cells rather than rebuilding it (read by tests)."""

    @property
    def job(self) -> TournamentJob | None:
        """This session's latest run of the tournament, if any."""
        return self.arena.tournaments.job_for(self.tournament_id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Stop only while it runs; resume only when stopped with slots left."""
        job = self.job
        running = job is not None and job.running
        if action == "stop":
            return running
        if action == "resume":
            return not running and not self._made_by_old_suite and self._stored not in ("finished", "running")
        return True

    def compose(self) -> ComposeResult:
        """Build the widgets."""
        yield Header()
        yield Static(Text(""), id="t-head")
        yield ProgressBar(total=None, show_eta=False, id="t-progress")
        yield Static(Text(""), id="t-status")
        with TabbedContent(id="t-tabs"):
            with TabPane("leaderboard", id="tab-board"):
                yield DataTable[Text](id="t-board", cursor_type="row", zebra_stripes=True)
                yield Static(Text(""), id="t-board-note")
            with TabPane("win matrix", id="tab-heat"), ScrollableContainer():
                yield Static(Text(""), id="t-heat")
            with TabPane("scores", id="tab-hist"), ScrollableContainer():
                yield Static(Text(""), id="t-hist")
            with TabPane("all tables", id="tab-tables"), ScrollableContainer():
                yield Static(Text(""), id="t-tables")
        yield SteadyFooter()

    def on_mount(self) -> None:
        """Set up once the widgets exist."""
        self.query_one("#t-board", DataTable).focus()
        self._show_head()
        self.set_interval(REFRESH_SECONDS, self.sync)
        self.sync()

    def on_screen_resume(self) -> None:
        """Refresh when this screen comes back on top."""
        self.sync()

    def _stored_status(self) -> str:
        row = self.arena.store.tournament(self.tournament_id) or {}
        return str(row.get("status") or "")

    def _show_head(self) -> None:
        row = self.arena.store.tournament(self.tournament_id) or {}
        config = row.get("config") or {}
        self._made_by_old_suite = config.get("kind") != "tournament"
        players = config.get("players") or []
        options = ", ".join(f"{k}={v}" for k, v in (config.get("options") or {}).items())
        try:
            definition = get_game(str(row.get("game")))
            seats = ", ".join(
                definition.create(0, definition.resolve_options(config.get("options") or {})).seats
            )
        except Exception:  # a game no longer registered still shows its stored tables
            seats = "?"
        game = str(row.get("game", "?"))
        name = str(row.get("name") or "")
        # The default name begins with the game ("bargain: a vs b"): the head names the game once.
        name = name.removeprefix(f"{game}: ")
        head = safe_line((f"tournament {self.tournament_id} · {game}: ", "bold"), (name, "cyan"))
        head.append("\n")
        head.append_text(
            safe_text(
                f"{len(players)} players · seats {seats} · {config.get('seeds', '?')} deal seeds "
                f"from master seed {config.get('seed', 0)} · {config.get('total', '?')} episodes · "
                f"{config.get('concurrency', '?')} at once" + (f" · options: {options}" if options else ""),
                "dim",
            )
        )
        self.query_one("#t-head", Static).update(head)

    # -- live state ---------------------------------------------------------------------
    def sync(self) -> None:
        """Redraw the progress; recompute the tables when due."""
        if not self.is_attached:
            return
        job = self.job
        running = job is not None and job.running
        if not running:
            self._stored = self._stored_status()
        # The footer is rebuilt on every refresh_bindings: only when what is allowed changes.
        allowed = (job.key if job else None, running, self._stored)
        if allowed != self._binding_state:
            self._binding_state = allowed
            self.refresh_bindings()
        if job is not None:
            state: tuple[object, ...] = (job.key, job.status, job.changes, running)
            if state != self._shown_status:
                self._shown_status = state
                self._show_progress(job)
            key: tuple[object, ...] = (job.key, job.status, job.progress.done, running)
        else:
            stored = self._stored
            if self._shown_status != ("stored", stored):
                self._shown_status = ("stored", stored)
                self._show_stored(stored)
            key = ("stored", stored)
        if not self._made_by_old_suite and self.policy.due(key, time.perf_counter()):
            resamples = LIVE_RESAMPLES if running else FULL_RESAMPLES
            self.policy.started(key, time.perf_counter())
            self.run_worker(self._load(resamples), group="board", exit_on_error=False)

    def _show_progress(self, job: TournamentJob) -> None:
        progress = job.progress
        self.query_one(ProgressBar).update(
            total=progress.total or None, progress=progress.done + progress.given_up
        )
        status = Text(progress_line(job.status, progress), style="bold")
        if job.running:
            status.append("  ·  s: stop (resumable) · esc: back (it keeps playing)", style="dim")
        elif job.status != "finished":
            status.append("  ·  c: resume", style="dim")
        message = job.error or job.message
        if message:
            status.append("  ·  ")
            status.append_text(safe_text(message, "red" if job.error else "yellow", limit=400))
        # Four times a second while it plays: a layout only when the line's size can change.
        self.texts.update(self.query_one("#t-status", Static), status)

    def _show_stored(self, stored: str) -> None:
        row = self.arena.store.tournament(self.tournament_id) or {}
        total = (row.get("config") or {}).get("total")
        done = finished_count(self.arena.store, self.tournament_id)
        self.query_one(ProgressBar).update(total=total or done or None, progress=done)
        status = Text(f"{stored} · {done}/{total or '?'} episodes", style="bold")
        if stored not in ("finished", "running"):
            status.append(f"  ·  c: resume (or: arena tournament resume {self.tournament_id})", style="dim")
        if row.get("message"):
            status.append("  ·  ")
            status.append_text(safe_text(row["message"], "yellow", limit=400))
        self.texts.update(self.query_one("#t-status", Static), status)
        if self._made_by_old_suite:
            note = "made by arena suite: no tournament tables; its episodes are in the episode browser"
            self.query_one("#t-board-note", Static).update(Text(note, style="yellow"))

    async def _load(self, resamples: int) -> None:
        started = time.perf_counter()
        width = max(60, self.app.size.width - 6)
        try:
            board = await self.arena.tables.board(self.arena.store.path, self.tournament_id, resamples, width)
        except Exception as exc:  # a table that cannot be computed must not take the screen down
            self.policy.failed()
            if self.is_attached:
                self.query_one("#t-board-note", Static).update(safe_text(f"tables unavailable: {exc}", "red"))
            return
        self.policy.finished(time.perf_counter() - started)
        if self.is_attached:
            self.show_board(board)

    # -- tables -------------------------------------------------------------------------
    def show_board(self, rendered: RenderedBoard) -> None:
        """Show the leaderboard, the charts and the full tables of ``rendered``.

        Only what changed is redrawn, and laid out only when its size can change: the
        leaderboard is updated in place while its columns keep their widths, a tab not
        shown gets its new content without a layout (it is laid out when it is shown).
        """
        board = rendered.board
        self.board = board
        rows = board.rows
        self._players = [row.player for row in rows]  # full ids: a player's episodes are found by them
        names = shown_names(board.table, board.scores)
        columns, cells = self._board_cells(rows, names)
        if fill_table(self.query_one("#t-board", DataTable), columns, cells):
            self.board_updates_in_place += 1
        info = board.table["tournament"]
        kind = "live, " if board.resamples < FULL_RESAMPLES else ""
        ratings = board.table.get("ratings")
        method = "Plackett-Luce" if ratings and ratings.get("method") == "plackett-luce" else "Bradley-Terry"
        notes = [n for n in (rough_note(ratings), groups_note(ratings)) if n]
        note = (
            f"{info['counted']}/{info['slots']} episodes counted · {method} ratings, 95% intervals from "
            f"{kind}{board.resamples} deal-seed bootstrap resamples · enter: this player's episodes"
        ) + "".join(f" · {n}" for n in notes)
        if board.table.get("outcome_rule"):
            note += f"\nwins, draws and losses: {board.table['outcome_rule']}"
        shown = Text(note, style="dim")
        result = result_line(rows, info.get("status", ""), names)
        if result is not None:
            shown = Text.assemble(result, "\n", shown)
        self.texts.update(self.query_one("#t-board-note", Static), shown)
        order = [row.player for row in rows]
        self._show_in_tab("tab-heat", "#t-heat", heat_map(board.table.get("win_matrix"), order, names))
        self._show_in_tab("tab-hist", "#t-hist", score_histograms(board.scores, order, names=names))
        self._show_in_tab("tab-tables", "#t-tables", rendered.tables)

    def _board_cells(
        self, rows: list[LeaderRow], names: Mapping[str, str]
    ) -> tuple[list[tuple[str, Text]], list[tuple[str, list[Text]]]]:
        """The leaderboard's columns and rows for the screen's width (:mod:`arena.app.board_layout`)."""
        axis = rating_axis(rows)
        groups = len({row.group for row in rows if row.group is not None})
        texts = [
            BoardCells(
                rank=Text(_rank_label(row, groups), style=rank_style(row.rank)),
                player=safe_text(names.get(row.player, row.player), limit=60),
                rating=safe_text(row.rating_label or "-", "bold", limit=80),
                interval=Text(row.interval_label or "-"),
                wins=row.wins,
                draws=row.draws,
                losses=row.losses,
                episodes=row.episodes,
                dollars=row.dollars_text(),
                fallback=row.fallback_text(),
            )
            for row in rows
        ]
        width = max(40, self.app.size.width - 2)  # the table's own scroll bar takes two columns
        bar = bar_width(texts, width, BAR_WIDTH)
        if not bar:  # two lines of a long rating leave room for its bar
            texts, bar = wrapped_for_bar(texts, width, BAR_WIDTH)
        if bar:
            labels, table = wide_columns(texts, bar, [interval_bar(row, axis, bar) for row in rows])
        elif table_width(*wide_columns(texts, 0)) <= width:
            labels, table = wide_columns(texts, 0)
        else:
            labels, table = narrow_columns(texts, width)
            bar = room_for_bar(labels, table, width, BAR_WIDTH)
            if bar:
                labels, table = with_bar(labels, table, [interval_bar(row, axis, bar) for row in rows])
        columns = [(label, axis_label(axis, bar) if label == "bar" else Text(label)) for label in labels]
        return columns, [(str(row.rank - 1), cells) for row, cells in zip(rows, table, strict=True)]

    def _show_in_tab(self, pane: str, selector: str, content: RenderableType) -> None:
        """Show ``content`` in a tab's Static: laid out now if the tab is shown, else once it is."""
        static = self.query_one(selector, Static)
        if self.query_one(TabbedContent).active == pane:
            self.texts.update(static, content)
            return
        # A layout now would measure a text nobody sees (the "all tables" tab: hundreds of
        # lines) and lay out the screen shown: the tab's switch lays it out when it is shown.
        self.texts.forget(static)
        static.update(content, layout=False)
        static.clear_cached_dimensions()

    # -- actions ------------------------------------------------------------------------
    @on(DataTable.RowSelected, "#t-board")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self._open_player(int(event.row_key.value))

    def _open_player(self, index: int) -> None:
        if 0 <= index < len(self._players):
            from arena.app.screens.tournament_lists import PlayerEpisodesScreen

            self.app.push_screen(PlayerEpisodesScreen(self.tournament_id, self._players[index]))

    def action_episodes(self) -> None:
        """List the highlighted player's episodes."""
        self._open_player(self.query_one("#t-board", DataTable).cursor_row)

    def action_stop(self) -> None:
        """Stop now; the episodes in play and the tournament are recorded as aborted."""
        job = self.job
        if job is not None and job.running:
            job.stop()
            self.notify(f"{job.title}: stopping (resumable)", markup=False)

    def action_resume(self) -> None:
        """Play the slots this tournament is missing."""
        self.arena.resume_tournament(self.tournament_id)
        self._shown_status = None
        self.sync()

    def action_next_tab(self) -> None:
        """Show the next tab."""
        tabs = self.query_one(TabbedContent)
        panes = [pane.id for pane in self.query(TabPane) if pane.id]
        if tabs.active in panes:
            tabs.active = panes[(panes.index(tabs.active) + 1) % len(panes)]

    @on(TabbedContent.TabActivated, "#t-tabs")
    def _tab_shown(self, event: TabbedContent.TabActivated) -> None:
        self.texts.lay_out_shown()
        self.call_after_refresh(self.texts.lay_out_shown)  # if the pane was shown after this message
        # Hiding the leaderboard's tab took its focus: back on it, enter opens a player's episodes again.
        if event.pane.id == "tab-board":
            self.query_one("#t-board", DataTable).focus()

    def action_back(self) -> None:
        """Back to where you came from; the tournament keeps playing."""
        self.arena.pop_or_home()
