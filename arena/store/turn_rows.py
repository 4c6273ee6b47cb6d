"""Turn rows finished where they are written, and the JSON and digest they are made of.

The recorder (:mod:`arena.engine.recorder`) turns a :class:`arena.contract.records.TurnRecord` into plain
column values in the playing process: everything a game or a player produced is encoded
there, at once, so a value that changes later or cannot be encoded fails the turn as it is
recorded. What is left, hashing the state's JSON into its digest and assembling the row,
runs in the store's writer process (:mod:`arena.store.background_writer`): the recorder hands
over a :class:`TurnRows` of plain values and the writer's ``executemany`` builds the rows
as it inserts them. This module imports neither pydantic nor the rest of Arena, so the
writer process starts fast and stays small.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import orjson


def dumps_bytes(value: Any) -> bytes:
    """The canonical JSON bytes a digest is taken over (the recorder's own encoding)."""
    return orjson.dumps(value, default=str)


def dumps(value: Any) -> str:
    """Compact JSON for a column, in the same encoding (orjson: the recorder's hot path)."""
    return dumps_bytes(value).decode()


def state_digest(state: bytes) -> int:
    """A signed 64-bit digest of a turn's state JSON (fits SQLite INTEGER): what rows store now."""
    return _digest(_STATE_ONLY + state)


def turn_digest(observation: bytes, state: bytes) -> int:
    """The digest of observation and state JSON that rows written before :func:`state_digest` hold."""
    return _digest(observation + b"\x1f" + state)


_STATE_ONLY = b"\x1e"
"""Starts what a state digest is taken over; an observation's JSON never starts with it."""


def _digest(data: bytes) -> int:
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big", signed=True)


TurnPayload = tuple[tuple[Any, ...], tuple[Any, ...], bytes, int]
"""A turn as handed over: its plain column values (JSON already encoded, flags as 0/1), its
usage values, its state's JSON and whether the action's reason is stored once."""


def build_row(episode_id: int, payload: TurnPayload) -> list[Any]:
    """The row of one turn: episode id, column values, usage, NULL observation and state, the
    state's digest and the reason flag."""
    plain, usage, state, reason_in_action = payload
    return [episode_id, *plain, *usage, None, None, state_digest(state), reason_in_action]


class TurnRows:
    """One step's turn rows for ``executemany``, built as they are read (see the module doc).

    Pickles as its payloads, so building happens on whichever side of the pipe reads it.
    """

    __slots__ = ("episode_id", "payloads")

    def __init__(self, episode_id: int, payloads: list[TurnPayload]) -> None:
        self.episode_id = episode_id
        self.payloads = payloads

    def __reduce__(self) -> tuple[type[TurnRows], tuple[int, list[TurnPayload]]]:
        return (TurnRows, (self.episode_id, self.payloads))

    def __iter__(self) -> Iterator[list[Any]]:
        episode_id = self.episode_id
        for payload in self.payloads:
            yield build_row(episode_id, payload)
