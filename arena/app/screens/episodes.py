"""The saved-episodes browser: filter by game, status and player; enter opens the replay.

``r`` resumes the episode under the cursor if it was interrupted (aborted or failed, not a
tournament's): it goes on from its last recorded step on the match screen. Space marks an
episode; ``c`` compares the two marked (or the marked one and the one under the cursor) side by
side; ``x`` exports the marked episodes, or every one the filters let through, as rows (JSON
Lines, CSV or Parquet, by the file's suffix). Ctrl+t lists the stored tournaments, whose tables
open from there.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import DataTable, Input, Select
from textual.worker import Worker, WorkerState

from arena.app.board_layout import table_width
from arena.app.browse_data import COLUMNS as BROWSE_COLUMNS
from arena.app.browse_data import STATUSES, EpisodeFilter, episode_cells, narrow_cells
from arena.app.safe import safe_text
from arena.app.screens.lists import STATUS_STYLES, ListScreen
from arena.app.widgets.fitted_input import FittedPlaceholderInput
from arena.display.names import seat_parts
from arena.plugins.games import game_names

if TYPE_CHECKING:
    from arena.engine.bulk_export import Selection

PLAYER_FILTER_HINTS = ("player contains… (e.g. weather)", "player contains…")
"""The player filter's placeholder, fullest first: the one that fits is shown."""


class EpisodesScreen(ListScreen):
    """Every saved episode, newest first."""

    HELP_NAME = "episodes"
    TABLE_ID = "episodes"
    HEAD_ID = "episode-count"
    COLUMNS = BROWSE_COLUMNS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_filter", "Filter", key_display="/"),
        Binding("space", "mark", "Mark"),
        Binding("c", "compare", "Compare"),
        Binding("r", "resume", "Resume"),
        Binding("x", "export", "Export"),
        Binding("f5", "reload", "Reload"),
        Binding("ctrl+t", "tournaments", "Tournaments", priority=True),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.filter = EpisodeFilter()
        self.sub_title = "episodes"
        self.last_export = ""
        """How the latest export ended ("" until one has)."""
        self.marked: list[int] = []
        """Episodes marked with space, in the order they were marked."""
        self._listed: tuple[list[dict[str, Any]], dict[int, list[str]]] = ([], {})
        """The episodes the filters let through, and each one's seats as shown."""
        self._narrow: bool | None = None
        """Whether the rows are shown a seat a line (``None``: not shown yet)."""

    def compose_filters(self) -> Iterator[Widget]:
        """The game, status and player filters."""
        yield Horizontal(
            Select([(Text(n), n) for n in game_names()], prompt="any game", id="filter-game"),
            Select([(Text(s), s) for s in STATUSES], prompt="any status", id="filter-status"),
            FittedPlaceholderInput(PLAYER_FILTER_HINTS, id="filter-player"),
            id="episode-filters",
        )

    def action_reload(self) -> None:
        """Query the database again with the current filters."""
        rows = self.filter.query(self.arena.store)
        self._listed = rows, seat_parts(self.arena.store.seat_players([row["id"] for row in rows]))
        self._narrow = None
        self._fill()
        count = f"{len(rows)} episode{'s' if len(rows) != 1 else ''} · {self.filter.describe()}"
        hint = (
            " · enter: replay · r: resume · space: mark · c: compare · x: export"
            if rows
            else (" · none match: play a match from the home screen")
        )
        if self.marked:
            hint += f" · marked: {', '.join(map(str, self.marked))}"
        hint += " · ctrl+t: tournaments"
        self.show_head(safe_text(count + hint, "dim"))

    def _fill(self) -> None:
        """The listed episodes, one line each where that fits the width, else a seat a line."""
        rows, parts = self._listed
        whole: list[list[Text]] = []
        narrow: list[list[Text]] = []
        for row in rows:
            players = parts.get(row["id"])
            cells = episode_cells(row, None if players is None else " ".join(players))
            whole.append([safe_text(cell, limit=80) for cell in cells])
            narrow.append(
                [
                    Text("\n").join(safe_text(line, limit=40) for line in lines)
                    for lines in narrow_cells(cells, players)
                ]
            )
        table = self.table
        room = (table.size.width or self.app.size.width) - table.styles.scrollbar_size_vertical
        is_narrow = table_width(self.COLUMNS, whole) > room
        if is_narrow == self._narrow:
            return
        self._narrow = is_narrow
        table.clear(columns=True)  # a column keeps the width of its widest cell until removed
        for column in self.COLUMNS:
            table.add_column(column, key=column)
        status = BROWSE_COLUMNS.index("status")
        for shown in narrow if is_narrow else whole:
            key = shown[0].plain
            if int(key) in self.marked:
                shown[0] = Text(f"• {key}", style="bold magenta")
            shown[status].stylize(STATUS_STYLES.get(shown[status].plain, "red"))
            table.add_row(*shown, key=key, height=None if is_narrow else 1)

    def on_resize(self) -> None:
        """Lay the rows out again if the other layout (one line, a seat a line) suits the new width."""
        if self._narrow is not None:  # listed already (a screen is resized once before it mounts)
            self._fill()

    @on(Select.Changed, "#filter-game")
    def _game_filter(self, event: Select.Changed) -> None:
        self.filter.game = None if event.value is Select.NULL else str(event.value)
        self.action_reload()

    @on(Select.Changed, "#filter-status")
    def _status_filter(self, event: Select.Changed) -> None:
        self.filter.status = None if event.value is Select.NULL else str(event.value)
        self.action_reload()

    @on(Input.Changed, "#filter-player")
    def _player_filter(self, event: Input.Changed) -> None:
        self.filter.player = event.value
        self.action_reload()

    @on(Input.Submitted, "#filter-player")
    def _player_done(self) -> None:
        self.table.focus()

    @on(DataTable.RowSelected, "#episodes")
    def _open(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.arena.open_replay(int(event.row_key.value))

    def action_focus_filter(self) -> None:
        """Put the cursor in the player filter."""
        self.query_one("#filter-player", Input).focus()

    def action_tournaments(self) -> None:
        """The stored tournaments; enter opens one's tables."""
        self.arena.open_tournaments()

    def _cursor_episode(self) -> int | None:
        table = self.table
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return int(key) if key is not None else None

    def action_resume(self) -> None:
        """Continue the interrupted episode under the cursor from its last recorded step."""
        episode = self._cursor_episode()
        if episode is not None:
            self.arena.resume_episode(episode)

    def action_mark(self) -> None:
        """Mark (or unmark) the episode under the cursor."""
        episode = self._cursor_episode()
        if episode is None:
            return
        if episode in self.marked:
            self.marked.remove(episode)
        else:
            self.marked.append(episode)
        row = self.table.cursor_row
        self.action_reload()
        self.table.move_cursor(row=row)

    def action_compare(self) -> None:
        """Compare the two marked episodes (or the one marked and the one under the cursor)."""
        from arena.engine.compare import NotComparable, compare_episodes

        chosen = self.marked[-2:]
        cursor = self._cursor_episode()
        if len(chosen) < 2 and cursor is not None and cursor not in chosen:
            chosen = [*chosen, cursor]
        if len(chosen) != 2:
            self.notify("mark two episodes of one deal with space, then press c", severity="warning")
            return
        try:
            comparison = compare_episodes(self.arena.store, chosen[0], chosen[1])
        except (NotComparable, LookupError) as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        from arena.app.screens.compare import CompareScreen

        self.app.push_screen(CompareScreen(comparison))

    def action_export(self) -> None:
        """Ask for a file, then write the marked episodes (or all the filters let through) as rows."""
        from arena.app.screens.modals import ExportScreen
        from arena.engine.bulk_export import Selection

        if self.marked:
            selection = Selection(ids=tuple(self.marked))
            what = f"{len(self.marked)} marked episode{'s' if len(self.marked) != 1 else ''}"
        else:
            player = self.filter.player.strip() or None
            selection = Selection(game=self.filter.game, status=self.filter.status, player=player)
            what = f"every episode of {self.filter.describe()}"
        stamp = time.strftime("%Y%m%d-%H%M%S")

        def chosen(answer: tuple[Path, str] | None) -> None:
            if answer is not None:
                self._export(selection, answer[0], answer[1])

        self.app.push_screen(
            ExportScreen(what, self.arena.store.path.parent, f"export-{stamp}.jsonl"), chosen
        )

    def _export(self, selection: Selection, target: Path, rows: str) -> None:
        from arena.engine import export_formats

        try:
            fmt = export_formats.format_for(str(target), None)
        except ValueError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        database = self.arena.store.path
        self.arena.store.flush()  # the export reads through its own connection, in a thread

        def work() -> str:
            from arena.engine import bulk_export
            from arena.store.database import Store

            store = Store(database)  # a store is used from one thread: this one opens its own
            try:
                ids = bulk_export.episode_ids(store, selection)
                kind: bulk_export.Rows = "seats" if rows == "seats" else "turns"
                written = export_formats.write_export(store, ids, kind, "none", fmt, target)
            finally:
                store.close()
            return f"wrote {written:,} rows of {len(ids):,} episodes to {target}"

        self.run_worker(work, thread=True, group="export", exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Say how an export ended."""
        worker = event.worker
        if worker.group != "export":
            return
        if event.state == WorkerState.SUCCESS:
            self.last_export = str(worker.result)
            self.notify(self.last_export, markup=False, timeout=10)
        elif event.state == WorkerState.ERROR:
            self.last_export = f"export failed: {worker.error}"
            self.notify(self.last_export, severity="error", markup=False)
