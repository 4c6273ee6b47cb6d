"""A tournament's tables for the screen, as plain objects: leaderboard rows, scores, episodes.

The tables come from :func:`arena.tournament.standings.tournament_table`, which reads the
database and bootstraps the ratings: tens of milliseconds for a small tournament, about a
second for a few thousand episodes. The screen therefore computes them off the event loop
(:func:`load_board` opens its own connection, which SQLite's WAL mode lets read while the
app's connection writes), at most every :data:`MIN_INTERVAL` seconds and never more than
one at a time, with :data:`LIVE_RESAMPLES` bootstrap resamples while the tournament runs
and :data:`FULL_RESAMPLES` once it has ended. Nothing here imports Textual.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.display.tables import usd_cell
from arena.store.database import Store
from arena.tournament.chart_data import drawn_interval
from arena.tournament.standings import fallback_cell, tournament_table
from arena.tournament.wording import interval_text, rating_text

MIN_INTERVAL = 0.5
LIVE_RESAMPLES = 200
FULL_RESAMPLES = 1000
BUSY_SHARE = 0.25
"""At most this share of wall time goes to recomputing live tables (slow tables wait longer)."""


@dataclass(frozen=True)
class LeaderRow:
    """One player's line of the leaderboard (``player`` is untrusted text)."""

    rank: int
    player: str
    rating: float | None
    low: float | None
    high: float | None
    episodes: int
    wins: int
    draws: int
    losses: int
    usd_per_episode: float | None
    unpriced: bool = False
    """A model with no price: its dollars are unknown (shown ``unpriced``, never $0)."""
    group: int | None = 1
    rating_label: str = ""
    """How the rating reads (a number, ``1000 (reference)`` or a one-sided bound); untrusted (names)."""
    interval_label: str = ""
    free: bool = False
    """A player that made no model call (a baseline): its dollars read ``free``, never $0."""
    fallback_share: float | None = None
    """The share of its decisions the game's fallback made (``None``: not known)."""

    def dollars_text(self) -> str:
        """``0.0012`` dollars per episode, ``unpriced`` for a model with no price, ``free`` for a
        player that made no model call, ``-`` when none: the CLI table's cell."""
        return usd_cell(
            {"unpriced": self.unpriced, "free": self.free, "usd_per_episode": self.usd_per_episode}
        )

    def fallback_text(self) -> str:
        """The share of its decisions made by the game's fallback (``12%``), ``-`` when not known."""
        return fallback_cell({"fallback_share": self.fallback_share})


@dataclass
class Board:
    """What the tournament screen shows: the tables and every player's scores."""

    table: dict[str, Any]
    scores: dict[str, list[float]]
    resamples: int
    seconds: float = 0.0

    @property
    def rows(self) -> list[LeaderRow]:
        """The leaderboard group by group, best first (players with no finished game last)."""
        return leader_rows(self.table)

    @property
    def counted(self) -> int:
        """Finished episodes the tables rest on."""
        return int(self.table["tournament"]["counted"])


def leader_rows(table: dict[str, Any]) -> list[LeaderRow]:
    """The ``players`` section of a tournament table as leaderboard rows."""
    rows = []
    ratings = {row["player"]: row.get("rating") for row in table["players"]}
    for position, row in enumerate(table["players"], 1):
        low, high = drawn_interval(row, ratings)
        rows.append(
            LeaderRow(
                rank=row.get("rank") or position,
                player=str(row["player"]),
                rating=row.get("rating"),
                low=low,
                high=high,
                episodes=int(row.get("episodes", 0)),
                wins=int(row.get("wins", 0)),
                draws=int(row.get("draws", 0)),
                losses=int(row.get("losses", 0)),
                usd_per_episode=row.get("usd_per_episode"),
                unpriced=bool(row.get("unpriced")),
                group=row.get("group"),
                # Marked like the CLI's table: over a tenth of its decisions were the game's fallback.
                rating_label=rating_text(row) + (" !" if row.get("fallback_heavy") else ""),
                interval_label=interval_text(row),
                free=bool(row.get("free")),
                fallback_share=row.get("fallback_share"),
            )
        )
    return rows


def player_scores(store: Store, tournament_id: int) -> dict[str, list[float]]:
    """Every player's scores over the tournament's finished episodes (one per seat held)."""
    rows = store.conn.execute(
        "SELECT s.player, s.score FROM seats s JOIN episodes e ON e.id = s.episode_id"
        " WHERE e.tournament_id = ? AND e.status = 'finished' AND s.score IS NOT NULL ORDER BY e.id",
        (tournament_id,),
    )
    scores: dict[str, list[float]] = {}
    for player, score in rows:
        scores.setdefault(str(player), []).append(float(score))
    return scores


def finished_count(store: Store, tournament_id: int) -> int:
    """How many of the tournament's episodes finished (the ones its tables count)."""
    row = store.conn.execute(
        "SELECT count(*) FROM episodes WHERE tournament_id = ? AND status = 'finished'", (tournament_id,)
    ).fetchone()
    return int(row[0])


def board_from_store(store: Store, tournament_id: int, resamples: int) -> Board:
    """The tables and scores of ``tournament_id`` read through ``store``."""
    started = time.perf_counter()
    table = tournament_table(store, tournament_id, resamples=max(1, resamples))
    scores = player_scores(store, tournament_id)
    return Board(table, scores, resamples, time.perf_counter() - started)


def load_board(db_path: Path, tournament_id: int, resamples: int) -> Board:
    """:func:`board_from_store` over a connection of its own (safe to call from a thread)."""
    store = Store(db_path)
    try:
        return board_from_store(store, tournament_id, resamples)
    finally:
        store.close()


class RefreshPolicy:
    """When to recompute the live tables: something changed, none in flight, not too often."""

    def __init__(self, min_interval: float = MIN_INTERVAL) -> None:
        self.min_interval = min_interval
        self.in_flight = False
        self.last_started: float | None = None
        self.last_seconds = 0.0
        self.shown_key: tuple[object, ...] | None = None

    def interval(self) -> float:
        """Seconds to wait between recomputations (longer when one takes long)."""
        return max(self.min_interval, self.last_seconds / BUSY_SHARE)

    def due(self, key: tuple[object, ...], now: float) -> bool:
        """True if tables for state ``key`` (e.g. status and episodes done) should be computed now."""
        if self.in_flight or key == self.shown_key:
            return False
        return self.last_started is None or now - self.last_started >= self.interval()

    def started(self, key: tuple[object, ...], now: float) -> None:
        """A recomputation for ``key`` began."""
        self.in_flight = True
        self.last_started = now
        self.shown_key = key

    def finished(self, seconds: float) -> None:
        """The recomputation ended after ``seconds``."""
        self.in_flight = False
        self.last_seconds = seconds

    def failed(self) -> None:
        """The recomputation failed: try again once the state changes."""
        self.in_flight = False


@dataclass(frozen=True)
class EpisodeRow:
    """One episode of a player in a tournament (``player``/``opponents`` are untrusted)."""

    episode_id: int
    deal_seed: int
    status: str
    seat: str
    score: float | None
    opponents: str
    opponent_scores: str
    opponent_seats: tuple[tuple[str, str], ...] = ()
    """The other seats as ``(seat, player)`` with full ids (``opponents`` is them as one text)."""


def player_episodes(store: Store, tournament_id: int, player: str) -> list[EpisodeRow]:
    """Every episode of ``tournament_id`` in which ``player`` held a seat, oldest first."""
    rows = store.conn.execute(
        "SELECT e.id, e.seed, e.status, s.seat, s.player, s.score FROM episodes e"
        " JOIN seats s ON s.episode_id = e.id"
        " WHERE e.tournament_id = ? AND e.id IN"
        " (SELECT episode_id FROM seats WHERE player = ?) ORDER BY e.id, s.rowid",
        (tournament_id, player),
    ).fetchall()
    by_episode: dict[int, list[tuple[Any, ...]]] = {}
    for row in rows:
        by_episode.setdefault(int(row[0]), []).append(row)
    found = []
    for episode_id, seats in by_episode.items():
        mine = [seat for seat in seats if seat[4] == player]
        others = [seat for seat in seats if seat[4] != player]
        for _, seed, status, seat, _, score in mine:
            found.append(
                EpisodeRow(
                    episode_id=episode_id,
                    deal_seed=int(seed),
                    status=str(status),
                    seat=str(seat),
                    score=None if score is None else float(score),
                    opponents=", ".join(f"{o[3]}={o[4]}" for o in others),
                    opponent_scores=", ".join("-" if o[5] is None else f"{float(o[5]):.2f}" for o in others),
                    opponent_seats=tuple((str(o[3]), str(o[4])) for o in others),
                )
            )
    return found


@dataclass(frozen=True)
class TournamentListRow:
    """One stored tournament for the list (``name`` and ``players`` are untrusted)."""

    tournament_id: int
    name: str
    game: str
    players: str
    done: int
    total: int | None
    status: str
    spend_usd: float
    created: str
    resumable: bool
    player_ids: tuple[str, ...] = ()
    """The players' full ids, in order (``players`` is them joined by " vs ")."""


def tournament_list(store: Store, limit: int = 500) -> list[TournamentListRow]:
    """Stored tournaments, newest first (suites made before tournaments existed included)."""
    found = []
    for row in store.list_tournaments(limit=limit):
        config = row.get("config") or {}
        players = config.get("players") or []
        if isinstance(players, dict):  # a suite: seat -> player
            players = list(players.values())
        total = config.get("total")
        found.append(
            TournamentListRow(
                tournament_id=int(row["id"]),
                name=str(row.get("name") or ""),
                game=str(row.get("game") or ""),
                players=" vs ".join(str(p) for p in players),
                done=int(row.get("finished") or 0),
                total=int(total) if isinstance(total, int) else None,
                status=str(row.get("status") or ""),
                spend_usd=float(row.get("spend_usd") or 0.0),
                created=str(row.get("created_at") or "")[:19].replace("T", " "),
                resumable=config.get("kind") == "tournament" and row.get("status") != "finished",
                player_ids=tuple(str(p) for p in players),
            )
        )
    return found
