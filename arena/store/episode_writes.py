"""The writes that record an episode, as data: each is one transaction for the store to run.

:class:`arena.store.database.Store` runs them in this process or hands them to its writer process
(:mod:`arena.store.background_writer`), which is why they are values (SQL and rows) and not
calls on a connection.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, NotRequired, TypedDict, Unpack

from arena.contract.playerconfig import config_hash
from arena.store.background_writer import Write
from arena.store.turn_rows import dumps


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
    config: dict[str, Any]
    seats: list[tuple[str, str, str]]
    """(seat, player spec, player kind) for each seat."""
    tournament_id: NotRequired[int | None]
    slot_key: NotRequired[str | None]
    configs: NotRequired[dict[str, dict[str, Any]] | None]
    """Seat -> its player's resolved configuration (stored once per distinct one)."""


def create_episode(episode_id: int, **episode: Unpack[NewEpisode]) -> Write:
    """A running episode with the id reserved for it, its seats and their configurations."""
    configs = episode.get("configs") or {}
    hashes = {seat: config_hash(config) for seat, config in configs.items()}
    started = now()
    player_configs = [
        (hashes[seat], str(config.get("name", "")), str(config.get("kind", "")), dumps(config), started)
        for seat, config in configs.items()
    ]
    row = (
        episode_id,
        episode["game"],
        episode["game_version"],
        episode["prompt_version"],
        episode["arena_version"],
        episode["seed"],
        dumps(episode["config"]),
        "running",
        started,
        os.getpid(),
        episode.get("tournament_id"),
        episode.get("slot_key"),
    )
    return (
        (
            "INSERT OR IGNORE INTO player_configs (hash, name, kind, config, created_at) VALUES (?,?,?,?,?)",
            player_configs,
        ),
        (
            "INSERT INTO episodes (id, game, game_version, prompt_version, arena_version, seed, config,"
            " status, started_at, pid, tournament_id, slot_key) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (row,),
        ),
        (
            "INSERT INTO seats (episode_id, seat, player, kind, config_hash) VALUES (?,?,?,?,?)",
            [(episode_id, seat, player, kind, hashes.get(seat)) for seat, player, kind in episode["seats"]],
        ),
    )


def add_turns(columns: tuple[str, ...], rows: Iterable[Sequence[Any]]) -> Write:
    """One step's turn rows (see :func:`arena.engine.recorder.turn_row`).

    A :class:`arena.store.turn_rows.TurnRows` is built into rows where the write runs."""
    return ((_insert_turns(columns), rows),)


def finish_episode(episode_id: int, status: str, message: str, seats: dict[str, dict[str, Any]]) -> Write:
    """The final status (and turn count) and each seat's score, metrics and usage."""
    seat_rows = [
        (
            v["score"],
            dumps(v["metrics"]),
            v["input_tokens"],
            v["output_tokens"],
            v["cost_usd"],
            v["cache_write_tokens"],
            episode_id,
            seat,
        )
        for seat, v in seats.items()
    ]
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
