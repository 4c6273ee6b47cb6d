"""Many stored episodes as flat rows: one per turn or one per seat of an episode.

The rows feed ``arena export`` (JSON Lines, CSV, Parquet: :mod:`arena.engine.export_formats`)
and the app's export key. Their columns are fixed and versioned (:data:`SCHEMA_VERSION`,
written in every row; docs/export.md lists them): a column is never renamed or given another
meaning without the version going up.

Episodes are read one at a time, oldest first, so an export of the whole database holds one
episode in memory. A turn row carries the turn's own state after its step (``state``), not
the seat's observation: in games whose observation holds the whole history (Cattle Trade)
the observation repeated on every turn makes an export grow with the square of the
episode's length. ``observations="changes"`` adds ``observation_changes``, the JSON Patch
from the seat's previous observation in the episode (the first one from ``{}``), so every
observed fact is written once; ``"full"`` writes each observation whole.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from arena.contract.game import GameDefinition
from arena.contract.usage import unpriced_seat
from arena.engine import json_patch
from arena.engine.export import refuse_secret
from arena.plugins.games import installed_game
from arena.store.database import CONTAINS, INT64_MAX, SECRET_DEAL, Store, contains_pattern, fits_sqlite

SCHEMA_VERSION = 2
"""Version of the export's column lists; goes up when a column changes name or meaning.

2: ``cost_usd`` is null, not 0, for a seat whose model has no price (its cost is unknown).
"""

Rows = Literal["turns", "seats"]
Observations = Literal["none", "changes", "full"]


@dataclass(frozen=True, slots=True)
class Column:
    """One exported column: its name, its type and what it holds."""

    name: str
    kind: Literal["int", "float", "bool", "str", "json"]
    """``json`` holds any JSON value: nested in JSON Lines, as JSON text in CSV and Parquet."""
    nullable: bool
    meaning: str


def _col(
    name: str, kind: Literal["int", "float", "bool", "str", "json"], meaning: str, *, null: bool = False
) -> Column:
    return Column(name, kind, null, meaning)


EPISODE_COLUMNS: tuple[Column, ...] = (
    _col("schema_version", "int", f"version of these column lists ({SCHEMA_VERSION})"),
    _col("episode_id", "int", "the episode's id"),
    _col("tournament_id", "int", "the tournament it belongs to", null=True),
    _col("game", "str", "game name"),
    _col("game_version", "str", "rules version it was played under"),
    _col("seed", "int", "the deal seed"),
    _col("status", "str", "finished, aborted, budget_exceeded, failed, player_failed, running"),
)
"""The columns that say which episode a row belongs to (first in both kinds of row)."""

TURN_COLUMNS: tuple[Column, ...] = (
    *EPISODE_COLUMNS,
    _col("idx", "int", "the turn's place in the episode (0-based)"),
    _col("step", "int", "decisions applied together share a step"),
    _col("seat", "str", "who decided"),
    _col("player", "str", "the seat's player spec"),
    _col("kind", "str", "baseline, human or model"),
    _col("action", "json", "the action applied (the fallback when fallback is true)"),
    _col("action_text", "str", "the action in words"),
    _col("reason", "str", "the stated reason"),
    _col("valid", "bool", "the first answer was legal"),
    _col("fallback", "bool", "the game's fallback replaced the answer"),
    _col("revised", "bool", "the reply held several different answers; its last was played"),
    _col(
        "system",
        "str",
        "the system message sent, on a seat's first model turn and when it changed",
        null=True,
    ),
    _col(
        "thinking",
        "str",
        "the thinking the model returned beside its reply (never sent to another seat)",
        null=True,
    ),
    _col("error", "str", "why the first answer was not used", null=True),
    _col("error_detail", "str", "details of that"),
    _col("input_tokens", "int", "input tokens of the decision, re-asks included"),
    _col("output_tokens", "int", "output tokens"),
    _col("cached_tokens", "int", "input tokens read from a prompt cache"),
    _col("cache_write_tokens", "int", "input tokens written to a prompt cache"),
    _col("reasoning_tokens", "int", "reasoning tokens (counted in output_tokens)"),
    _col("cost_usd", "float", "dollars (null: the model has no price)", null=True),
    _col("latency", "float", "seconds the decision took"),
    _col("state", "json", "the turn's state right after its step (the game's turn_state)", null=True),
    _col("rebuild_error", "str", "why state could not be rebuilt from the log", null=True),
)
"""``--rows turns``: one row per decision."""

OBSERVATION_COLUMNS: dict[str, Column] = {
    "changes": _col(
        "observation_changes",
        "json",
        "JSON Patch (RFC 6902) from the seat's previous observation in the episode ({} before its first)",
        null=True,
    ),
    "full": _col("observation", "json", "what the seat saw when it decided, whole", null=True),
}
"""The column ``--observations changes|full`` adds after the turn columns."""

SEAT_COLUMNS: tuple[Column, ...] = (
    *EPISODE_COLUMNS,
    _col("options", "json", "the game options it was played with"),
    _col("started_at", "str", "UTC ISO time it started"),
    _col("finished_at", "str", "UTC ISO time it ended", null=True),
    _col("turns", "int", "number of turns"),
    _col("seat", "str", "the seat"),
    _col("player", "str", "the seat's player spec"),
    _col("kind", "str", "baseline, human or model"),
    _col("config_hash", "str", "the player's configuration hash", null=True),
    _col("score", "float", "the seat's score (null: no score, e.g. player_failed)", null=True),
    _col("metrics", "json", "the game's per-seat metrics", null=True),
    _col("input_tokens", "int", "the seat's input tokens over the episode"),
    _col("output_tokens", "int", "output tokens"),
    _col("cached_tokens", "int", "input tokens read from a prompt cache"),
    _col("cache_write_tokens", "int", "input tokens written to a prompt cache"),
    _col("cost_usd", "float", "dollars (null: the model has no price)", null=True),
)
"""``--rows seats``: one row per seat of an episode."""


def columns(rows: Rows, observations: Observations = "none") -> tuple[Column, ...]:
    """The columns of one kind of row, in order."""
    if rows == "seats":
        return SEAT_COLUMNS
    extra = OBSERVATION_COLUMNS.get(observations)
    return (*TURN_COLUMNS, extra) if extra else TURN_COLUMNS


class NothingToExport(LookupError):
    """The selection names no episode (or a tournament that does not exist)."""


@dataclass(frozen=True, slots=True)
class Selection:
    """Which episodes to export: explicit ids, a tournament, or the filters of ``arena episodes``."""

    ids: tuple[int, ...] = ()
    tournament: int | None = None
    game: str | None = None
    status: str | None = None
    player: str | None = None
    limit: int | None = None
    thinking: str | None = None
    """Only episodes with a turn whose stored thinking contains this text."""

    def describe(self) -> str:
        """``tournament 3 · game bargain`` (for messages; player text is untrusted)."""
        parts = []
        if self.ids:
            parts.append("episodes " + ", ".join(map(str, self.ids)))
        for name in ("tournament", "game", "status", "player", "limit", "thinking"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name} {value}")
        return " · ".join(parts) or "every episode"


def episode_ids(store: Store, selection: Selection) -> list[int]:
    """The selected episodes' ids, oldest first (only ids: the rows are read one episode at a time)."""
    return select_episodes(store, selection)[0]


def select_episodes(store: Store, selection: Selection) -> tuple[list[int], int]:
    """:func:`episode_ids`, and how many selected episodes it left out as still secret.

    A person's episode that has not ended is left out of a filter (its export would show the
    hidden deal) and refused by id (:class:`~arena.engine.export.EpisodeSecret`).
    """
    if selection.tournament is not None and store.tournament(selection.tournament) is None:
        raise NothingToExport(f"no tournament {selection.tournament} in {store.path}")
    where: list[str] = []
    params: list[object] = []
    if selection.ids:
        held = [i for i in selection.ids if fits_sqlite(i)]  # a larger id names no episode
        where.append(f"e.id IN ({','.join('?' * len(held))})")
        params.extend(held)
    if selection.tournament is not None:
        where.append("e.tournament_id = ?")
        params.append(selection.tournament)
    if selection.game:
        where.append("e.game = ?")
        params.append(selection.game)
    if selection.status:
        where.append("e.status = ?")
        params.append(selection.status)
    if selection.player:
        where.append(f"EXISTS (SELECT 1 FROM seats s WHERE s.episode_id = e.id AND s.player {CONTAINS})")
        params.append(contains_pattern(selection.player))
    if selection.thinking:
        where.append(f"EXISTS (SELECT 1 FROM turns t WHERE t.episode_id = e.id AND t.thinking {CONTAINS})")
        params.append(contains_pattern(selection.thinking))
    clause = f"WHERE {' AND '.join(where)}" if where else ""
    limit = f" LIMIT {min(int(selection.limit), INT64_MAX)}" if selection.limit is not None else ""
    # The newest `limit` episodes (as arena episodes lists them), written oldest first.
    sql = (
        f"SELECT id, secret FROM (SELECT e.id, {SECRET_DEAL} AS secret FROM episodes e {clause}"
        f" ORDER BY e.id DESC{limit}) ORDER BY id"
    )
    found = [(int(row[0]), bool(row[1])) for row in store.conn.execute(sql, params)]
    missing = set(selection.ids) - {episode_id for episode_id, _ in found}
    if missing:
        raise NothingToExport(f"no episode {min(missing)} in {store.path}")
    if not found:
        if not where:
            raise NothingToExport(f"no episodes in {store.path} yet")
        raise NothingToExport(f"no episodes match {selection.describe()} in {store.path}")
    secret = [episode_id for episode_id, hidden in found if hidden]
    if secret and selection.ids:  # asked for by id: say why, as arena export ID does
        episode = store.episode(secret[0])
        assert episode is not None
        refuse_secret(store, episode, "export")
    ids = [episode_id for episode_id, hidden in found if not hidden]
    if not ids:
        raise NothingToExport(
            f"every episode matching {selection.describe()} ({len(secret)}) has a person's seat and has"
            " not ended: their deals stay secret until they end"
        )
    return ids, len(secret)


class _Games:
    """Installed games looked up once per export (``None``: not installed; its rows say so)."""

    def __init__(self) -> None:
        self._found: dict[str, GameDefinition | None] = {}

    def get(self, name: str) -> GameDefinition | None:
        if name not in self._found:
            self._found[name] = installed_game(name)
        return self._found[name]


def _episode_part(episode: dict[str, Any]) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "episode_id": episode["id"],
        "tournament_id": episode["tournament_id"],
        "game": episode["game"],
        "game_version": episode["game_version"],
        "seed": episode["seed"],
        "status": episode["status"],
    }


def turn_rows(
    store: Store, ids: list[int], observations: Observations = "none"
) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """Per episode (in ``ids`` order): its id and its turn rows, keyed as :func:`columns` says."""
    games = _Games()
    for episode_id in ids:
        episode = store.episode(episode_id)
        if episode is None:  # deleted meanwhile
            continue
        seats = {row["seat"]: row for row in store.seats(episode_id)}
        # Without observations only the states are rebuilt: the observations cost a third more.
        turns = store.turns(episode_id, games.get(episode["game"]), observations=observations != "none")
        head = _episode_part(episode)
        seen: dict[str, Any] = {}
        rows = []
        for turn in turns:
            seat = seats.get(turn["seat"], {})
            row = {
                **head,
                "idx": turn["idx"],
                "step": turn["step"],
                "seat": turn["seat"],
                "player": seat.get("player"),
                "kind": seat.get("kind"),
                "action": turn["action"],
                "action_text": turn["action_text"] or "",
                "reason": turn["reason"] or "",
                "valid": bool(turn["valid"]),
                "fallback": bool(turn["fallback"]),
                "revised": bool(turn.get("revised")),
                "system": turn.get("system"),
                "thinking": turn.get("thinking"),
                "error": turn["error"],
                "error_detail": turn["error_detail"] or "",
                "input_tokens": turn["input_tokens"],
                "output_tokens": turn["output_tokens"],
                "cached_tokens": turn["cached_tokens"],
                "cache_write_tokens": turn["cache_write_tokens"],
                "reasoning_tokens": turn["reasoning_tokens"],
                "cost_usd": None if unpriced_seat(seat.get("config")) else turn["cost_usd"],
                "latency": turn["latency"],
                "state": turn["state"],
                "rebuild_error": turn.get("rebuild_error"),
            }
            observation = turn["observation"]
            if observations == "full":
                row["observation"] = observation
            elif observations == "changes":
                if observation is None:
                    row["observation_changes"] = None
                else:
                    row["observation_changes"] = json_patch.diff(seen.get(turn["seat"], {}), observation)
                    seen[turn["seat"]] = observation
            rows.append(row)
        yield episode_id, rows


_CACHED_BY_SEAT = "SELECT seat, sum(cached_tokens) FROM turns WHERE episode_id = ? GROUP BY seat"


def seat_rows(store: Store, ids: list[int]) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """Per episode (in ``ids`` order): its id and one row per seat, keyed as :data:`SEAT_COLUMNS`."""
    conn = store.conn
    for episode_id in ids:
        episode = store.episode(episode_id)
        if episode is None:
            continue
        head = {
            **_episode_part(episode),
            "options": episode["options"],
            "started_at": episode["started_at"],
            "finished_at": episode["finished_at"],
            "turns": episode["turns"],
        }
        cached = dict(conn.execute(_CACHED_BY_SEAT, (episode_id,)).fetchall())
        rows = [
            {
                **head,
                "seat": seat["seat"],
                "player": seat["player"],
                "kind": seat["kind"],
                "config_hash": seat["config_hash"],
                "score": seat["score"],
                "metrics": seat["metrics"],
                "input_tokens": seat["input_tokens"],
                "output_tokens": seat["output_tokens"],
                "cached_tokens": int(cached.get(seat["seat"]) or 0),
                "cache_write_tokens": seat["cache_write_tokens"],
                "cost_usd": None if unpriced_seat(seat["config"]) else seat["cost_usd"],
            }
            for seat in store.seats(episode_id)
        ]
        yield episode_id, rows


def rows_of(
    store: Store, ids: list[int], rows: Rows, observations: Observations = "none"
) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """The rows of the chosen kind, one episode at a time."""
    return seat_rows(store, ids) if rows == "seats" else turn_rows(store, ids, observations)
