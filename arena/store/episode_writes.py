"""What recording an episode writes: its creation, its turn rows and its end.

Creating an episode runs at once on the store's connection (the id comes from SQLite);
turn rows and the end are values (statements and their rows) that
:class:`arena.store.database.Store` commits at once or groups with the writes after them.
"""

from __future__ import annotations

import functools
import os
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, NotRequired, TypedDict, Unpack

from arena.contract.playerconfig import config_hash
from arena.contract.usage import Usage
from arena.store.turn_rows import dumps

Op = tuple[str, Sequence[Sequence[Any]]]
"""``executemany(sql, rows)``."""
Write = tuple[Op, ...]
"""One write: its statements, applied together or not at all."""


def now() -> str:
    """UTC timestamp in ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


SET_STATUS = (
    "UPDATE episodes SET status=?, message=?, finished_at=?,"
    " turns=(SELECT count(*) FROM turns WHERE episode_id=?) WHERE id=?"
)


class NewEpisode(TypedDict):
    """What creating an episode records (``Store.create_episode`` takes these as keywords)."""

    game: str
    game_version: str
    prompt_version: str
    arena_version: str
    seed: int
    options: dict[str, Any]
    """The game options the episode is played with."""
    seats: list[tuple[str, str, str]]
    """(seat, player spec, player kind) for each seat."""
    tournament_id: NotRequired[int | None]
    slot_key: NotRequired[str | None]
    configs: NotRequired[dict[str, dict[str, Any]] | None]
    """Seat -> its player's resolved configuration (stored once per distinct one)."""


def create_episode(conn: sqlite3.Connection, **episode: Unpack[NewEpisode]) -> int:
    """Insert a running episode, its seats and their configurations; returns the new id.

    The id is SQLite's (``AUTOINCREMENT``): the next above every id ever given, so ids
    follow the order in which episodes are created, whichever process creates them.
    """
    configs = episode.get("configs") or {}
    hashes = {seat: config_hash(config) for seat, config in configs.items()}
    started = now()
    conn.executemany(
        "INSERT OR IGNORE INTO player_configs (hash, name, kind, config, created_at) VALUES (?,?,?,?,?)",
        [
            (hashes[seat], str(config.get("name", "")), str(config.get("kind", "")), dumps(config), started)
            for seat, config in configs.items()
        ],
    )
    cursor = conn.execute(
        "INSERT INTO episodes (game, game_version, prompt_version, arena_version, seed, options,"
        " status, started_at, pid, tournament_id, slot_key) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        (
            episode["game"],
            episode["game_version"],
            episode["prompt_version"],
            episode["arena_version"],
            episode["seed"],
            dumps(episode["options"]),
            "running",
            started,
            os.getpid(),
            episode.get("tournament_id"),
            episode.get("slot_key"),
        ),
    )
    episode_id = int(cursor.lastrowid or 0)
    conn.executemany(
        "INSERT INTO seats (episode_id, seat, player, kind, config_hash) VALUES (?,?,?,?,?)",
        [(episode_id, seat, player, kind, hashes.get(seat)) for seat, player, kind in episode["seats"]],
    )
    return episode_id


def add_turns(columns: tuple[str, ...], rows: Sequence[Sequence[Any]]) -> Write:
    """One step's turn rows (see :func:`arena.engine.recorder.turn_row`)."""
    return ((_insert_turns(columns), rows),)


def finish_episode(episode_id: int, status: str, message: str, seats: dict[str, dict[str, Any]]) -> Write:
    """The final status (and turn count) and each seat's ``score``, ``metrics`` and ``usage`` (a
    :class:`~arena.contract.usage.Usage`; the seat's cached and reasoning tokens stay in its turns)."""
    seat_rows = []
    for seat, v in seats.items():
        usage: Usage = v["usage"]
        seat_rows.append(
            (
                v["score"],
                dumps(v["metrics"]),
                usage.input_tokens,
                usage.output_tokens,
                usage.cost_usd,
                usage.cache_write_tokens,
                episode_id,
                seat,
            )
        )
    return (
        (SET_STATUS, [(status, message, now(), episode_id, episode_id)]),
        (
            "UPDATE seats SET score=?, metrics=?, input_tokens=?, output_tokens=?, cost_usd=?,"
            " cache_write_tokens=? WHERE episode_id=? AND seat=?",
            seat_rows,
        ),
    )


@functools.cache
def _insert_turns(columns: tuple[str, ...]) -> str:
    return f"INSERT INTO turns ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
