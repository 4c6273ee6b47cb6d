"""A leaderboard across tournaments: one Bradley-Terry table, each game's own rating beside.

Opened from the tournament list with the tournaments marked there (space, then l). The
table is computed and rendered in a worker thread (:mod:`arena.app.table_worker`);
a set of tournaments that cannot make a leaderboard (no shared players, one without
finished episodes) says why in the note line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer
from textual.widgets import DataTable, Header, Static

from arena.app.board_layout import table_width
from arena.app.leaderboard_board import leaderboard_rows
from arena.app.safe import safe_text
from arena.app.screens.base import ArenaScreen
from arena.app.table_worker import RenderedLeaderboard
from arena.app.widgets.steady_footer import SteadyFooter
from arena.plugins.players import short_names
from arena.tournament.wording import groups_note, rough_note

PER_GAME_WHOLE, PER_GAME_RATINGS, PER_GAME_NONE = "whole", "ratings", "none"
"""What each game's column shows: rating and interval, the rating alone, no column at all."""
PER_GAME_NOTES = {
    PER_GAME_RATINGS: "each game's column shows its rating alone (its interval: in the tables below)",
    PER_GAME_NONE: "each game's own ratings are in the tables below (too narrow for their columns here)",
}


def game_cell(cell: str | None) -> Text:
    """One game's cell: its rating (untrusted text), or "not played"."""
    return safe_text(cell, limit=80) if cell else Text("not played", style="dim")


class LeaderboardScreen(ArenaScreen):
    """The leaderboard of the tournaments ``tournament_ids``."""

    HELP_NAME = "leaderboard"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back")]

    def __init__(self, tournament_ids: Sequence[int]) -> None:
        super().__init__()
        self.tournament_ids = tuple(tournament_ids)
        self.heading = "leaderboard of tournaments " + ", ".join(map(str, self.tournament_ids))
        self.sub_title = self.heading
        self.board: dict[str, Any] | None = None
        self.error = ""
        self.per_game = PER_GAME_WHOLE
        """What the games' columns show: as much as the terminal's width holds."""

    def compose(self) -> ComposeResult:
        """Build the widgets."""
        yield Header()
        yield Static(Text(f"{self.heading} · computing…", style="bold"), id="lb-head")
        yield DataTable[Text](id="lb-board", cursor_type="row", zebra_stripes=True)
        yield Static(Text(""), id="lb-note")
        with ScrollableContainer(id="lb-scroll"):
            yield Static(Text(""), id="lb-tables")
        yield SteadyFooter()

    def on_mount(self) -> None:
        """Compute the leaderboard off the event loop."""
        self.query_one("#lb-board", DataTable).focus()
        self.run_worker(self._load(), group="leaderboard", exit_on_error=False)

    async def _load(self) -> None:
        width = max(60, self.app.size.width - 6)
        try:
            board = await self.arena.tables.leaderboard(self.arena.store.path, self.tournament_ids, width)
        except Exception as exc:  # a set that cannot make a leaderboard says why; the screen stays
            self.error = str(exc)
            if self.is_attached:
                self.query_one("#lb-head", Static).update(Text(self.heading, style="bold"))
                self.query_one("#lb-note", Static).update(
                    safe_text(f"no leaderboard: {exc}", "red", limit=400)
                )
            return
        if self.is_attached:
            self.show(board)

    def show(self, rendered: RenderedLeaderboard) -> None:
        """Fill the table, the notes and the full tables from ``rendered``."""
        board = rendered.board
        self.board = board
        games, rows = leaderboard_rows(board)
        table: DataTable[Text] = self.query_one("#lb-board", DataTable)
        table.clear(columns=True)
        groups = len({row.group for row in rows if row.group is not None})
        names = short_names(row.player for row in rows)  # as the CLI's leaderboard shows them
        cells = [
            [
                Text(
                    "-" if row.rank is None else (f"{row.group}.{row.rank}" if groups > 1 else str(row.rank))
                ),
                safe_text(names[row.player], limit=60),
                safe_text(row.rating_label, "bold", limit=80),
                Text(row.interval_label),
                Text(str(row.episodes)),
            ]
            for row in rows
        ]
        room = max(table.size.width, self.app.size.width - 2)
        labels = ["#", "player", "rating", "95% interval", "episodes"]
        # Each game's column as much as fits: rating and interval, the rating alone, or none
        # (the full tables below always hold every game's ratings, fitted to the width).
        choices = [
            (PER_GAME_WHOLE, [[game_cell(cell) for cell in row.per_game] for row in rows]),
            (PER_GAME_RATINGS, [[game_cell(cell) for cell in row.per_game_ratings] for row in rows]),
        ]
        per_game: list[list[Text]] = [[] for _ in rows]
        self.per_game = PER_GAME_NONE
        for shown, game_cells in choices:
            if (
                table_width([*labels, *games], [a + b for a, b in zip(cells, game_cells, strict=True)])
                <= room
            ):
                self.per_game, per_game = shown, game_cells
                break
        if self.per_game != PER_GAME_NONE:
            labels += games
        for label in labels:
            table.add_column(Text(label), key=f"col:{label}")
        for i, (own, games_cells) in enumerate(zip(cells, per_game, strict=True)):
            table.add_row(*own, *games_cells, key=str(i))
        info = board["leaderboard"]
        head = f"{self.heading} · {len(games)} game{'s' if len(games) != 1 else ''}: " + ", ".join(
            f"{g['game']} ({g['episodes']} episodes, ×{g['weight']:.3g})" for g in info["games"]
        )
        self.query_one("#lb-head", Static).update(safe_text(head, "bold"))
        notes = [
            "Bradley-Terry, each game weighted equally; 95% intervals resample deal seeds within each game",
            *(n for n in (rough_note(board["ratings"]), groups_note(board["ratings"])) if n),
            info["per_game"],
            *([PER_GAME_NOTES[self.per_game]] if self.per_game != PER_GAME_WHOLE else []),
        ]
        self.query_one("#lb-note", Static).update(safe_text(" · ".join(notes), "dim"))
        self.query_one("#lb-tables", Static).update(rendered.tables)

    def action_back(self) -> None:
        """Back to the tournament list."""
        self.arena.pop_or_home()
