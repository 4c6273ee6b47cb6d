"""Episode ids known before the episode is written: reserved in blocks, given back at close.

The runner needs an episode's id before its first turn, and creating the episode is a
write the playing process should hand to its writer process (:mod:`arena.store.background_writer`)
like any other rather than commit itself. So a store reserves ids in blocks: one short
transaction raises the ``episodes`` table's AUTOINCREMENT high-water mark (its row in
``sqlite_sequence``) past the block; the block's ids are then given out from memory and
each episode is inserted with its id. Every other creator of episodes (another Arena
process, an older Arena still running on the file) gets its ids from AUTOINCREMENT, which
never goes at or below that mark, and a store reserving next starts above it: no two take
the same id.

A crash leaves no rows behind, only unused ids (at most a block). At close a store gives
its unused ids back by lowering the mark again, if nobody has taken ids since. Blocks grow
from one id to :data:`LARGEST_BLOCK` as a store keeps creating episodes: a single episode
reserves one id, a long run one block per 32 episodes. While two processes create episodes
at the same time their ids interleave by blocks, so id order is creation order only within
a process.
"""

from __future__ import annotations

import sqlite3
import threading

from arena.store.background_writer import begin_immediate, transaction

LARGEST_BLOCK = 32
"""Most ids reserved at once."""

_HIGH_WATER = (
    "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'episodes'), 0),"
    " coalesce((SELECT max(id) FROM episodes), 0))"
)
_SET_MARK = "UPDATE sqlite_sequence SET seq = ? WHERE name = 'episodes'"


class EpisodeIds:
    """The ids one store gives to the episodes it creates (thread-safe)."""

    def __init__(self) -> None:
        self._next = 1
        self._last = 0
        """The current block's last id: none is left when ``_next > _last``."""
        self._size = 1
        self._lock = threading.Lock()

    def take(self, conn: sqlite3.Connection) -> int:
        """The next id, reserving a block on ``conn`` first if none is left (a short write transaction).

        Inside the caller's open transaction only this one id is reserved, in that
        transaction: if it rolls back, no id is left over that others may also be given.
        """
        with self._lock:
            if self._next > self._last:
                self._reserve(conn)
            taken = self._next
            self._next += 1
            return taken

    def give_back(self, conn: sqlite3.Connection) -> None:
        """Lower the mark to the last id taken, if this store's block is still the newest reservation."""
        with self._lock:
            if self._next <= self._last:
                conn.execute(f"{_SET_MARK} AND seq = ?", (self._next - 1, self._last))
                self._last = self._next - 1

    def _reserve(self, conn: sqlite3.Connection) -> None:
        with transaction(conn, _begin_without_busy_wait) as outer:
            (top,) = conn.execute(_HIGH_WATER).fetchone()
            last = top + (self._size if outer else 1)
            if not conn.execute(_SET_MARK, (last,)).rowcount:  # no episode was ever inserted
                conn.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('episodes', ?)", (last,))
        self._next, self._last = top + 1, last
        self._size = min(2 * self._size, LARGEST_BLOCK)


def _begin_without_busy_wait(conn: sqlite3.Connection) -> None:
    """:func:`begin_immediate` on a connection whose own ``busy_timeout`` is put back after."""
    (timeout,) = conn.execute("PRAGMA busy_timeout").fetchone()
    conn.execute("PRAGMA busy_timeout=0")  # see begin_immediate
    try:
        begin_immediate(conn)
    finally:
        conn.execute(f"PRAGMA busy_timeout={int(timeout)}")
