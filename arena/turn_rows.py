"""Turn rows made where they are written: from a turn's values to the ``turns`` columns.

The recorder (:mod:`arena.recorder`) decides which of a :class:`arena.records.TurnRecord`'s
values a row holds and in what order; this module does the work of turning those values
into column values (JSON text, 0/1 flags, the state's digest). It is kept apart, and
imports neither pydantic nor the rest of Arena, because that work runs in the store's writer
process (:mod:`arena.background_writer`): the playing process hands over a
:class:`TurnRows` of plain values, and the writer's ``executemany`` builds the rows as it
inserts them. Encoding JSON and hashing were a quarter of what recording a scripted turn
cost the playing process, and the writer has time to spare while it waits for the next step.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any, NamedTuple

import orjson


def dumps(value: Any) -> str:
    """Compact JSON for a column (orjson: the recorder's hot path)."""
    return orjson.dumps(value, default=str).decode()


def dumps_bytes(value: Any) -> bytes:
    """The canonical JSON bytes a digest is taken over (the recorder's own encoding)."""
    return orjson.dumps(value, default=str)


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


class RowLayout(NamedTuple):
    """Where the values that need encoding sit in a payload's plain values (0-based)."""

    action: int
    reason: int
    valid: int
    fallback: int
    attempts: int
    sampling: int


TurnPayload = tuple[tuple[Any, ...], tuple[Any, ...], dict[str, Any]]
"""A turn as handed over: its plain values (attempts as dicts), its usage values, its state."""


def build_row(episode_id: int, payload: TurnPayload, layout: RowLayout) -> list[Any]:
    """The row of one turn: episode id, plain values, usage, NULL observation and state, the
    state's digest and whether the action's reason is the reason column (then stored once)."""
    plain, usage, state = payload
    action = plain[layout.action]
    reason = plain[layout.reason]
    reason_in_action = bool(reason) and action.get("reason") == reason
    if reason_in_action:
        action = {key: value for key, value in action.items() if key != "reason"}
    row = [episode_id, *plain, *usage, None, None, state_digest(dumps_bytes(state)), int(reason_in_action)]
    row[1 + layout.action] = dumps(action)
    row[1 + layout.valid] = int(plain[layout.valid])
    row[1 + layout.fallback] = int(plain[layout.fallback])
    attempts = plain[layout.attempts]
    row[1 + layout.attempts] = dumps(attempts) if attempts else "[]"
    sampling = plain[layout.sampling]
    if sampling is not None:
        row[1 + layout.sampling] = dumps(sampling)
    return row


class TurnRows:
    """One step's turn rows for ``executemany``, built as they are read (see the module doc).

    Pickles as its payloads, so building happens on whichever side of the pipe reads it.
    """

    __slots__ = ("episode_id", "layout", "payloads")

    def __init__(self, episode_id: int, payloads: list[TurnPayload], layout: RowLayout) -> None:
        self.episode_id = episode_id
        self.payloads = payloads
        self.layout = layout

    def __reduce__(self) -> tuple[type[TurnRows], tuple[int, list[TurnPayload], RowLayout]]:
        return (TurnRows, (self.episode_id, self.payloads, self.layout))

    def __iter__(self) -> Iterator[list[Any]]:
        episode_id, layout = self.episode_id, self.layout
        for payload in self.payloads:
            yield build_row(episode_id, payload, layout)

    def __len__(self) -> int:
        return len(self.payloads)
