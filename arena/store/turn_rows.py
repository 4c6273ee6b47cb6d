"""The JSON and digest turn rows are made of (the recorder's encoding, shared with the readers).

This module imports neither pydantic nor the rest of Arena, so the store opens without them.
"""

from __future__ import annotations

import hashlib
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
