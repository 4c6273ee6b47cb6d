"""A child process that commits a store's turn rows while the episode plays on.

Recording a step is one SQLite transaction. Run in the playing process, its commit is
time the episode waits for; Python threads cannot overlap it (the writer thread would need
the GIL back after every SQLite call). So :class:`arena.store.Store` hands each step's rows
to this writer process over a pipe and goes on playing; the child runs one transaction per
step, in the order sent, on its own connection to the same file (WAL lets both connections
read while one writes).

The parent waits for the child (:meth:`BackgroundWriter.sync`) before anything else touches
the database, so every other read or write sees all the turns sent before it, and a
finished episode is on disk when ``finish_episode`` returns. If the parent dies (even by
``kill -9``), the child reads end-of-file after the last step sent, commits it and exits:
a crash loses no step the game had already played.

Wire format, both ways: a 4-byte little-endian length, then that many bytes. Parent to
child: a pickled ``(sql, rows)`` pair to run with ``executemany`` in one transaction, or an
empty frame asking for a sync. Child to parent, only after a sync request: the UTF-8 text
of the first error since the last sync ("" when all went well).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sqlite3
import struct
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any, BinaryIO

_LENGTH = struct.Struct("<I")
PIPE_BYTES = 1 << 20
"""Pipe capacity asked for (Linux): room for about a thousand steps before the parent waits."""
EXIT_WAIT_SECONDS = 60.0
"""How long closing waits for the child to commit what it was sent before killing it."""


class WriterError(Exception):
    """The writer process could not start, ended early, or failed to commit a write."""


class BackgroundWriter:
    """The parent's handle on one writer process for one database file (thread-safe)."""

    def __init__(self, path: Path) -> None:
        """Start the writer for ``path`` and wait until it serves (so no step is sent into a void)."""
        # The child imports this module from wherever the parent found it, installed or not.
        source_root = str(Path(__file__).resolve().parents[1])
        env = dict(
            os.environ, PYTHONPATH=os.pathsep.join(filter(None, [source_root, os.environ.get("PYTHONPATH")]))
        )
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "arena.background_writer", str(path)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                start_new_session=True,  # Ctrl-C at the terminal stops the parent, which then closes us
            )
        except OSError as exc:
            raise WriterError(f"cannot start the database writer: {exc}") from None
        assert self._process.stdin is not None and self._process.stdout is not None
        self._to_child = self._process.stdin.fileno()
        self._from_child: IO[bytes] = self._process.stdout
        with contextlib.suppress(OSError, AttributeError):
            import fcntl

            fcntl.fcntl(self._to_child, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        self._lock = threading.Lock()
        self._unsynced = 1  # the first sync below is the handshake
        self._closed = False
        try:
            self.sync()
        except WriterError:
            self.close()
            raise

    @property
    def pid(self) -> int:
        """The writer process's id."""
        return self._process.pid

    @property
    def unsynced(self) -> int:
        """Writes sent since the last :meth:`sync`."""
        return self._unsynced

    def write_many(self, sql: str, rows: list[Any]) -> None:
        """Queue ``executemany(sql, rows)`` as one transaction; returns before it is committed."""
        frame = pickle.dumps((sql, rows), protocol=pickle.HIGHEST_PROTOCOL)
        with self._lock:
            self._send(_LENGTH.pack(len(frame)) + frame)
            self._unsynced += 1

    def sync(self) -> None:
        """Wait until every queued write is committed; raise :class:`WriterError` if one failed."""
        with self._lock:
            if not self._unsynced:
                return
            self._send(_LENGTH.pack(0))
            head = self._from_child.read(_LENGTH.size)
            if len(head) < _LENGTH.size:
                raise WriterError(f"the database writer ended early{self._stderr_tail()}")
            (size,) = _LENGTH.unpack(head)
            problem = self._from_child.read(size).decode() if size else ""
            self._unsynced = 0
        if problem:
            raise WriterError(f"a step was not saved: {problem}")

    def close(self) -> None:
        """Let the child commit what it was sent, then wait for it to exit (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            with contextlib.suppress(OSError):
                os.close(self._to_child)
            self._process.stdin = None  # closed above; Popen must not close it again
            try:
                self._process.wait(EXIT_WAIT_SECONDS)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            for stream in (self._process.stdout, self._process.stderr):
                if stream is not None:
                    stream.close()

    def _send(self, data: bytes) -> None:
        if self._closed:
            raise WriterError("the database writer is closed")
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._to_child, view) :]
        except BrokenPipeError:
            raise WriterError(f"the database writer ended early{self._stderr_tail()}") from None

    def _stderr_tail(self) -> str:
        if self._process.poll() is None or self._process.stderr is None:
            return ""
        lines = self._process.stderr.read().decode(errors="replace").strip().splitlines()
        return f": {lines[-1]}" if lines else f" (exit status {self._process.returncode})"


def serve(path: str, source: BinaryIO, replies: BinaryIO) -> None:
    """The child's loop: commit each received write in order until the parent hangs up."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=5000")
    conn.execute("PRAGMA foreign_keys=ON")
    problem = ""
    while True:
        head = source.read(_LENGTH.size)
        if len(head) < _LENGTH.size:
            break
        (size,) = _LENGTH.unpack(head)
        if size == 0:
            reply = problem.encode()
            replies.write(_LENGTH.pack(len(reply)) + reply)
            replies.flush()
            problem = ""
            continue
        frame = source.read(size)
        if len(frame) < size:
            break  # the parent died while sending: that step was never complete
        sql, rows = pickle.loads(frame)
        try:
            conn.execute("BEGIN")
            conn.executemany(sql, rows)
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            problem = problem or f"{type(exc).__name__}: {exc}"
    conn.close()


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when we stop: end of input
    serve(sys.argv[1], sys.stdin.buffer, sys.stdout.buffer)
