"""Lists around tournaments: the stored tournaments, and one player's episodes in one.

Enter on a tournament opens its screen (tables, and resume for a stopped one); space marks
tournaments and l opens the leaderboard across the marked ones; enter on an episode opens
it in replay. Names and player specs are untrusted and shown literally.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.widgets import DataTable

from arena.app.safe import safe_line, safe_text
from arena.app.screens.lists import STATUS_STYLES, ListScreen
from arena.app.tournament_board import player_episodes, tournament_list
from arena.plugins.players import short_names

TOURNAMENT_COLUMNS = ("id", "name", "game", "players", "done/total", "status", "spend", "created")
EPISODE_COLUMNS = ("episode", "deal seed", "status", "seat", "score", "against", "their score")


class TournamentsScreen(ListScreen):
    """Every stored tournament, newest first."""

    HELP_NAME = "tournaments"
    TABLE_ID = "tournaments"
    HEAD_ID = "tournament-count"
    COLUMNS = TOURNAMENT_COLUMNS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+n", "new", "New tournament", priority=True),
        Binding("space", "mark", "Mark for a leaderboard"),
        Binding("l", "leaderboard", "Leaderboard of the marked"),
        Binding("f5", "reload", "Reload"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.sub_title = "tournaments"
        self.marked: list[int] = []

    def action_reload(self) -> None:
        """Read the list again."""
        table = self.table
        rows = tournament_list(self.arena.store)
        names = short_names(player for row in rows for player in row.player_ids)
        cursor = table.cursor_row
        table.clear()
        for row in rows:
            total = "?" if row.total is None else str(row.total)
            table.add_row(
                self._id_cell(row.tournament_id),
                safe_text(row.name, limit=50),
                Text(row.game),
                safe_text(" vs ".join(names[player] for player in row.player_ids), limit=80),
                Text(f"{row.done}/{total}"),
                Text(
                    row.status + (" ↻" if row.resumable else ""), style=STATUS_STYLES.get(row.status, "red")
                ),
                Text(f"${row.spend_usd:.4f}"),
                Text(row.created),
                key=str(row.tournament_id),
            )
        if rows:
            table.move_cursor(row=min(cursor, len(rows) - 1))
        hint = (
            " · enter: tables · ↻ resumable (enter, then c) · space: mark, l: leaderboard of the marked"
            " · ctrl+n: new tournament"
            if rows
            else ""
        )
        empty = "no tournaments yet · ctrl+n: set one up"
        count = f"{len(rows)} tournament{'s' if len(rows) != 1 else ''}{hint}" if rows else empty
        self.show_head(Text(count, style="dim"))

    @on(DataTable.RowSelected, "#tournaments")
    def _open(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.arena.open_tournament(int(event.row_key.value))

    def action_new(self) -> None:
        """Set up a new tournament."""
        self.arena.open_tournament_setup()

    def _id_cell(self, tournament_id: int) -> Text:
        mark = "✓" if tournament_id in self.marked else " "
        return Text(f"{mark} {tournament_id}", style="bold green" if mark != " " else "")

    def action_mark(self) -> None:
        """Mark (or unmark) the highlighted tournament for a leaderboard."""
        table = self.table
        if not table.row_count:
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        if key.value is None:
            return
        tournament_id = int(key.value)
        if tournament_id in self.marked:
            self.marked.remove(tournament_id)
        else:
            self.marked.append(tournament_id)
        table.update_cell(key, "id", self._id_cell(tournament_id))

    def action_leaderboard(self) -> None:
        """The leaderboard across the marked tournaments."""
        if not self.marked:
            self.notify("mark tournaments with space first, then press l", markup=False)
            return
        from arena.app.screens.leaderboard import LeaderboardScreen

        self.app.push_screen(LeaderboardScreen(sorted(self.marked)))


class PlayerEpisodesScreen(ListScreen):
    """One player's episodes in one tournament; enter opens the replay."""

    HELP_NAME = "player's episodes"
    TABLE_ID = "player-episodes"
    HEAD_ID = "player-episodes-head"
    COLUMNS = EPISODE_COLUMNS
    RELOAD_ON_RESUME = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f5", "reload", "Reload"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, tournament_id: int, player: str) -> None:
        super().__init__()
        self.tournament_id = tournament_id
        self.player = player
        self.sub_title = f"tournament {tournament_id}"

    def action_reload(self) -> None:
        """Read the episodes again (a running tournament adds more)."""
        table = self.table
        rows = player_episodes(self.arena.store, self.tournament_id, self.player)
        # Short names for the opponents; the head names this player in full (these are its details).
        names = short_names(player for row in rows for _, player in row.opponent_seats)
        table.clear()
        for row in rows:
            table.add_row(
                Text(str(row.episode_id)),
                Text(str(row.deal_seed)),
                Text(row.status, style=STATUS_STYLES.get(row.status, "red")),
                safe_text(row.seat),
                Text("-" if row.score is None else f"{row.score:.2f}"),
                safe_text(", ".join(f"{seat}={names[p]}" for seat, p in row.opponent_seats), limit=80),
                safe_text(row.opponent_scores),
                key=f"{row.episode_id}:{row.seat}",
            )
        head = safe_line(
            (f"tournament {self.tournament_id} · ", "bold"),
            (self.player, "cyan"),
            (f" · {len(rows)} episode{'s' if len(rows) != 1 else ''} · enter: replay", "dim"),
        )
        self.show_head(head)

    @on(DataTable.RowSelected, "#player-episodes")
    def _open(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.arena.open_replay(int(event.row_key.value.split(":")[0]))
