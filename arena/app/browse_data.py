"""Browsing saved episodes: filters and table cells as plain data."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.contract.records import EpisodeStatus
from arena.store.database import SCORES_HIDDEN, Store

STATUSES: tuple[str, ...] = (
    EpisodeStatus.FINISHED,
    EpisodeStatus.RUNNING,
    EpisodeStatus.ABORTED,
    EpisodeStatus.BUDGET_EXCEEDED,
    EpisodeStatus.FAILED,
    EpisodeStatus.PLAYER_FAILED,
    EpisodeStatus.LOST,
)
COLUMNS: tuple[str, ...] = ("id", "game", "seed", "status", "turns", "started", "players", "scores")


@dataclass
class EpisodeFilter:
    """Which episodes to list: by game, by status and by (part of) a player spec."""

    game: str | None = None
    status: str | None = None
    player: str = ""
    limit: int = 500

    def query(self, store: Store) -> list[dict[str, Any]]:
        """Matching episodes, newest first."""
        return store.list_episodes(
            game=self.game or None,
            status=self.status or None,
            player=self.player.strip() or None,
            limit=self.limit,
        )

    def describe(self) -> str:
        """``lemonade · finished · player ~ weather`` or ``all episodes``."""
        parts = [part for part in (self.game, self.status) if part]
        if self.player.strip():
            parts.append(f"player ~ {self.player.strip()}")
        return " · ".join(parts) or "all episodes"


def episode_cells(row: dict[str, Any], players: str | None = None) -> tuple[str, ...]:
    """One episode as table cells, in :data:`COLUMNS` order (players may be untrusted).

    ``players`` is the players cell to show (short names, :func:`arena.display.names.seat_cells`);
    without it, the stored ``players`` column with full ids.
    """
    started = str(row.get("started_at") or "")
    return (
        str(row["id"]),
        str(row["game"]),
        "secret" if row["seed"] is None else str(row["seed"]),  # a person's episode not yet ended
        str(row["status"]),
        str(row["turns"]),
        started[:19].replace("T", " "),
        str(row.get("players") or "") if players is None else players,
        SCORES_HIDDEN if row["seed"] is None else str(row.get("scores") or ""),
    )


def narrow_cells(cells: Sequence[str], players: Sequence[str] | None = None) -> list[list[str]]:
    """:func:`episode_cells` for a screen too narrow for them on one line: each cell as its lines.

    The start is its day over its minute (``12-03`` then ``19:50``, no year or seconds);
    players and scores put one seat a line (``players``: the parts of the players cell,
    :func:`arena.display.names.seat_parts`). A lemonade episode of two baselines took 118
    columns on one line, and takes 76 so.
    """
    lines = [[cell] for cell in cells]
    started = COLUMNS.index("started")
    lines[started] = [cells[started][5:10], cells[started][11:16]] if cells[started] else [""]
    if players:
        lines[COLUMNS.index("players")] = list(players)
    scores = cells[COLUMNS.index("scores")]
    lines[COLUMNS.index("scores")] = scores.split(" ") if scores else [""]
    return lines
