"""The saved-episodes browser: filter by game, status and player; enter opens the replay.

Ctrl+t lists the stored tournaments, whose tables open from there.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import DataTable, Input, Select

from arena.app.browse_data import COLUMNS as BROWSE_COLUMNS
from arena.app.browse_data import STATUSES, EpisodeFilter, episode_cells
from arena.app.safe import safe_text
from arena.app.screens.lists import STATUS_STYLES, ListScreen
from arena.plugins.games import game_names


class EpisodesScreen(ListScreen):
    """Every saved episode, newest first."""

    HELP_NAME = "episodes"
    TABLE_ID = "episodes"
    HEAD_ID = "episode-count"
    COLUMNS = BROWSE_COLUMNS
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

    def compose_filters(self) -> Iterator[Widget]:
        """The game, status and player filters."""
        yield Horizontal(
            Select([(Text(n), n) for n in game_names()], prompt="any game", id="filter-game"),
            Select([(Text(s), s) for s in STATUSES], prompt="any status", id="filter-status"),
            Input(placeholder="player contains… (e.g. weather)", id="filter-player"),
            id="episode-filters",
        )

    def action_reload(self) -> None:
        """Query the database again with the current filters."""
        table = self.table
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
        self.show_head(safe_text(count + hint, "dim"))

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
