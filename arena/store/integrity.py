"""Telling a damaged database from a sound one, and saying in one line how to recover it.

A damaged file (flipped bytes, a torn copy) can still answer queries: the rows SQLite can reach
come back, the rest are silently missing (a tournament table built from 16 of 1,200 episodes
exited 0). The reading commands that build a table, a report or an export therefore run
``PRAGMA quick_check`` first (O(size of the file), without the index-content cross-checks of
``integrity_check``; ``bench/quick_check_cost.py`` measures it) and refuse a damaged file.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

DAMAGE_MARKERS = (
    "malformed",
    "not a database",
    "corrupt",
    "disk i/o error",
    "out of order",
    "missing from index",
)
"""Words of SQLite's errors that mean the file itself is damaged, not the query."""


class DamagedDatabase(Exception):
    """The database file is damaged; the message says how to recover what is readable."""


def recover_hint(path: Path) -> str:
    """How to copy what SQLite can still read into a new file, and use it."""
    new = path.with_name(f"{path.stem}-recovered{path.suffix or '.db'}")
    return (
        f"recover what is readable into a new file: sqlite3 {path} .recover | sqlite3 {new},"
        f" then use --db {new}"
    )


def damaged(path: Path, problem: str) -> DamagedDatabase:
    """The one-line error for a damaged ``path``."""
    return DamagedDatabase(f"the database {path} is damaged ({problem[:120]}); {recover_hint(path)}")


def looks_damaged(error: BaseException) -> bool:
    """Whether an SQLite error says the file is damaged."""
    return isinstance(error, sqlite3.DatabaseError) and any(
        marker in str(error).lower() for marker in DAMAGE_MARKERS
    )


def check_integrity(conn: sqlite3.Connection, path: Path) -> None:
    """Run ``PRAGMA quick_check`` on ``conn``; :class:`DamagedDatabase` unless it answers ``ok``."""
    try:
        rows = conn.execute("PRAGMA quick_check(1)").fetchall()
    except sqlite3.DatabaseError as exc:
        raise damaged(path, str(exc)) from None
    if rows != [("ok",)]:
        raise damaged(path, str(rows[0][0]) if rows else "no answer from quick_check")
