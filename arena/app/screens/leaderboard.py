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

from arena.app.leaderboard_board import leaderboard_rows
from arena.app.safe import safe_text
from arena.app.screens.base import ArenaScreen
from arena.app.table_worker import RenderedLeaderboard
from arena.app.widgets.steady_footer import SteadyFooter
from arena.plugins.players import short_names
from arena.tournament.wording import groups_note, rough_note


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
        for column in ("#", "player", "rating", "95% interval", "episodes", *games):
            table.add_column(Text(column), key=f"col:{column}")
        groups = len({row.group for row in rows if row.group is not None})
        names = short_names(row.player for row in rows)  # as the CLI's leaderboard shows them
        for i, row in enumerate(rows):
            rank = "-" if row.rank is None else (f"{row.group}.{row.rank}" if groups > 1 else str(row.rank))
            table.add_row(
                Text(rank),
                safe_text(names[row.player], limit=60),
                safe_text(row.rating_label, "bold", limit=80),
                Text(row.interval_label),
                Text(str(row.episodes)),
                *(
                    safe_text(cell, limit=80) if cell else Text("not played", style="dim")
                    for cell in row.per_game
                ),
                key=str(i),
            )
        info = board["leaderboard"]
        head = f"{self.heading} · {len(games)} game{'s' if len(games) != 1 else ''}: " + ", ".join(
            f"{g['game']} ({g['episodes']} episodes, ×{g['weight']:.3g})" for g in info["games"]
        )
        self.query_one("#lb-head", Static).update(safe_text(head, "bold"))
        notes = [
            "Bradley-Terry, each game weighted equally; 95% intervals resample deal seeds within each game",
            *(n for n in (rough_note(board["ratings"]), groups_note(board["ratings"])) if n),
            info["per_game"],
        ]
        self.query_one("#lb-note", Static).update(safe_text(" · ".join(notes), "dim"))
        self.query_one("#lb-tables", Static).update(rendered.tables)

    def action_back(self) -> None:
        """Back to the tournament list."""
        self.arena.pop_or_home()
