"""One line for what the machine refused: a full disk, a read-only or damaged database, a file
that cannot be written. These end a command, but they are not Arena's bugs: no traceback."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

from arena.store.integrity import looks_damaged, recover_hint

FULL = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))
READ_ONLY = (errno.EROFS, errno.EACCES, errno.EPERM)


DISK_FULL_HINT = (
    "; free some space: a stopped tournament goes on with arena tournament resume ID,"
    " an episode with arena resume ID"
)


def with_hint(message: str) -> str:
    """``message``, with what to do next when it says the disk is full."""
    return (
        message + DISK_FULL_HINT
        if "disk is full" in message and "free some space" not in message
        else message
    )


def failure_line(error: BaseException, database: Path | None) -> str | None:
    """The one line for ``error``, or ``None`` if it is none of these (then it is a bug to show)."""
    where = f" {database}" if database is not None else ""
    if isinstance(error, sqlite3.Error):
        text = str(error)
        if "disk is full" in text:
            return f"the disk holding the database{where} is full ({text}){DISK_FULL_HINT}"
        if "readonly" in text or "read-only" in text:
            return f"the database{where} is read-only ({text}): give a file you may write with --db"
        if looks_damaged(error) and database is not None:
            return f"the database{where} is damaged ({text}); {recover_hint(database)}"
        return f"the database{where} failed: {text}"
    if isinstance(error, OSError) and error.errno is not None:
        name = f" {error.filename}" if error.filename else ""
        if error.errno in FULL:
            return f"the disk is full: cannot write{name} ({error.strerror})"
        if error.errno in READ_ONLY:
            return f"cannot write{name}: {error.strerror}"
        return f"cannot read or write{name}: {error.strerror or error}"
    return None
