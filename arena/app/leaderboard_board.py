"""A leaderboard across tournaments for the screen, as plain rows (nothing here imports Textual).

:func:`load_leaderboard` reads it over a connection of its own, so the screen computes it off
the event loop (SQLite's WAL mode lets it read while the app's connection writes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.store.database import Store
from arena.tournament.leaderboard import leaderboard
from arena.tournament.wording import interval_text, rating_text


@dataclass(frozen=True)
class LeaderboardRow:
    """One player's line: the combined rating, then each game's own (``None``: not played there).

    ``player`` and the labels are untrusted text (names, and names inside bounds).
    """

    rank: int | None
    group: int | None
    player: str
    rating_label: str
    interval_label: str
    episodes: int
    per_game: tuple[str | None, ...]
    """Each game's rating and its interval, ``1012 (980 to 1040)``."""
    per_game_ratings: tuple[str | None, ...]
    """Each game's rating alone: for a terminal too narrow for the intervals."""


def leaderboard_rows(board: dict[str, Any]) -> tuple[list[str], list[LeaderboardRow]]:
    """The games (column order) and one :class:`LeaderboardRow` per player, in table order."""
    games = [game["game"] for game in board["leaderboard"]["games"]]
    rows = []
    for row in board["players"]:
        cells: list[str | None] = []
        ratings: list[str | None] = []
        for game in games:
            own = row["per_game"].get(game)
            interval = interval_text(own) if own is not None else "-"
            cells.append(
                None if own is None else rating_text(own) + ("" if interval == "-" else f" ({interval})")
            )
            ratings.append(None if own is None else rating_text(own))
        rows.append(
            LeaderboardRow(
                rank=row.get("rank"),
                group=row.get("group"),
                player=str(row["player"]),
                rating_label=rating_text(row),
                interval_label=interval_text(row),
                episodes=int(row["episodes"]),
                per_game=tuple(cells),
                per_game_ratings=tuple(ratings),
            )
        )
    return games, rows


def load_leaderboard(db_path: Path, tournament_ids: Sequence[int]) -> dict[str, Any]:
    """:func:`arena.tournament.leaderboard.leaderboard` over a connection of its own (safe in a thread)."""
    store = Store(db_path)
    try:
        return leaderboard(store, tournament_ids)
    finally:
        store.close()
