"""Writer processes listed in the database, so nobody acts on a crash before its writes are in.

When a playing process dies, its writer process (:mod:`arena.store.background_writer`) still
commits everything it was handed: creations, turns and ends of episodes. Until it is done,
the database does not yet say what that process did, so a store opening the file must not
mark its episodes aborted nor let a tournament resume pick slots to play again. Each writer
therefore lists itself (its pid and its parent's) in the ``writers`` table while it runs;
a store opening the file waits for the writers whose parent is gone before it reaps.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

ORPHAN_WAIT_SECONDS = 10.0
"""Longest wait for an orphaned writer to finish (a pid taken over by another program is never done)."""

REGISTER = "INSERT OR REPLACE INTO writers (pid, parent) VALUES (?, ?)"
"""Run by a writer when it starts, with its pid and its parent's."""
UNREGISTER = "DELETE FROM writers WHERE pid = ?"
"""Run by a writer when it has committed everything and exits."""


def wait_for_orphans(conn: sqlite3.Connection) -> None:
    """Wait until every listed writer whose parent is gone has exited, then drop it from the list."""
    rows = conn.execute("SELECT pid, parent FROM writers").fetchall()
    deadline = time.monotonic() + ORPHAN_WAIT_SECONDS
    for pid, parent in rows:
        if parent == os.getpid() or process_alive(parent):
            continue
        while process_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.005)
        conn.execute("DELETE FROM writers WHERE pid = ? AND parent = ?", (pid, parent))


def process_alive(pid: int) -> bool:
    """Whether a process with this id runs (an exited one not yet reaped by its parent does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return not Path("/proc/self/stat").exists()  # gone meanwhile, or no /proc: the signal's answer
    except (OSError, IndexError):
        return True
    return state != "Z"
