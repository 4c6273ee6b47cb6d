"""The saved-episodes browser: filter by game, status and player; enter opens the replay.

Ctrl+t lists the stored tournaments, whose tables open from there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import DataTable, Footer, Header, Input, Select, Static

from arena.app.browse_model import COLUMNS, STATUSES, EpisodeFilter, episode_cells
from arena.app.safe import safe_text
from arena.app.screens.base import ArenaScreen
from arena.registry import game_names

if TYPE_CHECKING:
    pass

STATUS_STYLES = {"finished": "green", "running": "cyan", "aborted": "yellow"}


class EpisodesScreen(ArenaScreen):
    """Every saved episode, newest first."""

    HELP_NAME = "episodes"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_filter", "Filter", key_display="/"),
        Binding("f5", "reload", "Reload"),
        Binding("ctrl+t", "tournaments", "Tournaments", priority=True),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.filter = EpisodeFilter()
        self.sub_title = "episodes"

    def compose(self) -> ComposeResult:
        """Build the widgets."""
        yield Header()
        with Horizontal(id="episode-filters"):
            yield Select([(Text(n), n) for n in game_names()], prompt="any game", id="filter-game")
            yield Select([(Text(s), s) for s in STATUSES], prompt="any status", id="filter-status")
            yield Input(placeholder="player contains… (e.g. weather)", id="filter-player")
        yield Static(Text(""), id="episode-count")
        yield DataTable[Text](id="episodes", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        """Set up once the widgets exist."""
        table = self.query_one("#episodes", DataTable)
        for column in COLUMNS:
            table.add_column(column, key=column)
        self.action_reload()
        table.focus()

    def on_screen_resume(self) -> None:
        """Refresh when this screen comes back on top."""
        self.action_reload()

    def action_reload(self) -> None:
        """Query the database again with the current filters."""
        table: DataTable[Text] = self.query_one("#episodes", DataTable)
        rows = self.filter.query(self.arena.store)
        table.clear()
        for row in rows:
            cells = episode_cells(row)
            styled = [safe_text(cell, limit=80) for cell in cells]
            styled[3].stylize(STATUS_STYLES.get(cells[3], "red"))
            table.add_row(*styled, key=cells[0])
        count = f"{len(rows)} episode{'s' if len(rows) != 1 else ''} · {self.filter.describe()}"
        hint = " · enter: replay" if rows else " · none match: play a match from the home screen"
        hint += " · ctrl+t: tournaments"
        self.query_one("#episode-count", Static).update(safe_text(count + hint, "dim"))

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
        self.query_one("#episodes", DataTable).focus()

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

    def action_back(self) -> None:
        """Back to where you came from."""
        self.arena.pop_or_home()
