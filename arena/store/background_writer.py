"""A child process that commits a store's episode writes while the episode plays on.

Recording a step is one SQLite transaction. Run in the playing process, its commit is
time the episode waits for; Python threads cannot overlap it (the writer thread would need
the GIL back after every SQLite call). So :class:`arena.store.database.Store` hands each step's turn
rows and each episode's end to this writer process over a pipe and goes on playing; the
child runs each as one transaction, in the order sent, on its own connection to the same
file (WAL lets both connections read while one writes).

The hand-over is batched, the commits are not: the parent queues writes and sends the
queue as one frame (one pickle, one ``os.write``) when its event loop next gets control
(a flush scheduled with ``call_soon`` on the first queued write), when anything waits for
the child (:meth:`BackgroundWriter.sync`, hence every read and other write of the store,
and closing), when :data:`BATCH_WRITES` are queued, and at once when no event loop runs.

The playing process never waits for the child while it plays: episodes are created by
the child too, with ids the store reserved beforehand (:mod:`arena.store.episode_ids`), so the
runner knows an episode's id at once. Anything else that touches the database first waits
until the child has committed all it was sent, so every read sees every write before it. If the
parent dies (even by ``kill -9``), the child reads end-of-file after the last frame sent,
commits it and exits: a crash loses nothing the parent had handed over (and a store opening
the file meanwhile waits for that, see :mod:`arena.store.orphan_writers`). It can lose what
was still queued: at most the writes made since the event loop last had control (a
scripted episode yields every 2 ms, a model player at every call). The child polls for work
briefly and then naps (see :class:`arena.store.writer_frames.FrameReader`), so an idle writer
costs next to nothing.

Wire format, both ways: a 4-byte little-endian length, then the frame. Parent to child: one
byte saying whether a reply is wanted, then a pickled list of :data:`Write` (each one
transaction, in order; one pickle shares their repeated SQL text). A write that fails in
the child, for whatever reason, is reported in the next reply; the child goes on. Child to
parent, only when asked: the UTF-8 text of the first error since the last reply ("" when
all went well).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from arena.store import orphan_writers
from arena.store.writer_frames import LENGTH, FrameReader, new_doorbell

if TYPE_CHECKING:
    import asyncio

_REPLY, _NO_REPLY = b"\x01", b"\x00"
"""A frame's first byte: whether the parent waits for a reply (outside the pickle, so a frame
that cannot be unpickled is still answered)."""
PIPE_BYTES = 1 << 20
"""Pipe capacity asked for (Linux): room for about a thousand steps before the parent waits."""
LOCK_WAIT_SECONDS = 5.0
"""How long a writer waits for the database's write lock (as ``busy_timeout`` does elsewhere)."""
BATCH_WRITES = 64
"""Queued writes that are sent at once, without waiting for the event loop."""
EXIT_WAIT_SECONDS = 60.0
"""How long closing waits for the child to commit what it was sent before killing it."""

Op = tuple[str, Iterable[Sequence[Any]]]
"""``executemany(sql, rows)``; ``rows`` may be built as they are read.

See :class:`arena.store.turn_rows.TurnRows`."""
Write = tuple[Op, ...]
"""One transaction: its statements in order."""


class WriterError(Exception):
    """The writer process could not start, ended early, or failed to commit a write."""


def begin_immediate(conn: sqlite3.Connection) -> None:
    """Take the database's write lock, retrying every 50 microseconds for :data:`LOCK_WAIT_SECONDS`.

    For connections whose ``busy_timeout`` is 0: SQLite's own busy handler sleeps a whole
    millisecond at the first conflict, and the two writers of one store (the writer process
    committing a step, the playing process reserving episode ids) hold the lock for tens of
    microseconds at a time.
    """
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            conn.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                raise
            time.sleep(0.00005)


@contextlib.contextmanager
def transaction(
    conn: sqlite3.Connection, begin: str | Callable[[sqlite3.Connection], object] = "BEGIN"
) -> Iterator[bool]:
    """One transaction on ``conn``: committed when the block ends, rolled back if it raises.

    Inside the caller's open transaction the block is part of that one instead. ``begin``
    opens it: a statement, or a function such as :func:`begin_immediate`. Yields whether
    the transaction is the block's own.
    """
    outer = not conn.in_transaction
    if outer:
        if isinstance(begin, str):
            conn.execute(begin)
        else:
            begin(conn)
    try:
        yield outer
        if outer:
            conn.execute("COMMIT")
    except BaseException:
        if outer and conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def run_write(conn: sqlite3.Connection, write: Write, *, retry_lock: bool = False) -> None:
    """Apply ``write`` as one transaction (or inside the caller's).

    ``retry_lock``: take the lock with :func:`begin_immediate` (the connection's
    ``busy_timeout`` is 0).
    """
    with transaction(conn, begin_immediate if retry_lock else "BEGIN"):
        for sql, rows in write:
            conn.executemany(sql, rows)


class BackgroundWriter:
    """The parent's handle on one writer process for one database file (thread-safe)."""

    def __init__(self, path: Path) -> None:
        """Start the writer for ``path`` and wait until it serves (so no step is sent into a void)."""
        # The child imports this module from wherever the parent found it, installed or not.
        source_root = str(Path(__file__).resolve().parents[1])
        env = dict(
            os.environ, PYTHONPATH=os.pathsep.join(filter(None, [source_root, os.environ.get("PYTHONPATH")]))
        )
        # A file, not a pipe: a child that wrote more than a pipe holds would block forever.
        self._errors = tempfile.TemporaryFile()  # noqa: SIM115 - open for the child's life; close()
        self._doorbell = new_doorbell()
        doorbell_arg = [str(self._doorbell)] if self._doorbell is not None else []
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "arena.store.background_writer", str(path), *doorbell_arg],
                pass_fds=() if self._doorbell is None else (self._doorbell,),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._errors,
                env=env,
                start_new_session=True,  # Ctrl-C at the terminal stops the parent, which then closes us
            )
        except OSError as exc:
            self._errors.close()
            if self._doorbell is not None:
                os.close(self._doorbell)
            raise WriterError(f"cannot start the database writer: {exc}") from None
        assert self._process.stdin is not None and self._process.stdout is not None
        self._to_child = self._process.stdin.fileno()
        self._replies = FrameReader(self._process.stdout.fileno())
        with contextlib.suppress(OSError, AttributeError):
            import fcntl

            fcntl.fcntl(self._to_child, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        self._lock = threading.Lock()
        self._queue: list[Write] = []
        self._flush_loop: asyncio.AbstractEventLoop | None = None
        """The event loop a flush of the queue is scheduled on, if any."""
        self._failure: WriterError | None = None
        """Why a scheduled flush could not send (raised by the next submit or sync)."""
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
        """Writes queued or sent since the last reply from the child."""
        return self._unsynced

    def submit(self, write: Write) -> None:
        """Queue ``write``; returns before it is sent or committed (errors come with the next reply).

        The queue goes to the child when the running event loop next gets control, when it
        holds :data:`BATCH_WRITES`, or at once when no event loop runs in this thread.
        """
        with self._lock:
            if self._failure is not None:
                self._raise_failure()
            self._queue.append(write)
            self._unsynced += 1
            if len(self._queue) >= BATCH_WRITES:
                self._send_queue(wants_reply=False)
                return
            import asyncio  # loaded by then in any process that plays; a plain reader never needs it

            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                self._send_queue(wants_reply=False)
                return
            if self._flush_loop is not loop:
                self._flush_loop = loop
                loop.call_soon(self._flush_soon)

    def sync(self) -> None:
        """Wait until every queued write is committed; raise :class:`WriterError` if one failed."""
        if not self._unsynced:
            return
        with self._lock:
            self._raise_failure()
            self._send_queue(wants_reply=True)
            if self._doorbell is not None:
                os.eventfd_write(self._doorbell, 1)  # we wait for it: wake it now
            reply = self._replies.next()
            if reply is None:
                raise WriterError(f"the database writer ended early{self._stderr_tail()}")
            self._unsynced = 0
            # Sending this very queue may have left out a write that could not be pickled.
            problems = [str(self._failure)] if self._failure is not None else []
            self._failure = None
        if reply:
            problems.append(f"a write was not saved: {reply.decode()}")
        if problems:
            raise WriterError("; ".join(problems))

    def close(self) -> None:
        """Send what is queued, let the child commit it, then wait for it to exit (idempotent)."""
        with self._lock:
            if self._closed:
                return
            if self._queue:
                with contextlib.suppress(WriterError):
                    self._send_queue(wants_reply=False)
            self._closed = True
            with contextlib.suppress(OSError):
                os.close(self._to_child)
            self._process.stdin = None  # closed above; Popen must not close it again
            try:
                self._process.wait(EXIT_WAIT_SECONDS)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            if self._process.stdout is not None:
                self._process.stdout.close()
            self._errors.close()
            if self._doorbell is not None:
                os.close(self._doorbell)

    def _flush_soon(self) -> None:
        """The event loop's turn: send the queue (a failure is raised by the next submit or sync)."""
        with self._lock:
            self._flush_loop = None
            if self._queue and not self._closed:
                try:
                    self._send_queue(wants_reply=False)
                except WriterError as exc:
                    self._failure = exc

    def _raise_failure(self) -> None:
        failure, self._failure = self._failure, None
        if failure is not None:
            raise failure

    def _send_queue(self, *, wants_reply: bool) -> None:
        """Send the queued writes (and the request for a reply) as one frame; the caller holds the lock."""
        try:
            frame = pickle.dumps(self._queue, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # a value that cannot travel: say so, send the rest
            frame = self._without_unpicklable(exc)
        self._queue = []
        flag = _REPLY if wants_reply else _NO_REPLY
        self._send(LENGTH.pack(len(frame) + 1) + flag + frame)

    def _without_unpicklable(self, error: Exception) -> bytes:
        """The queue pickled without the writes that cannot be pickled; the first such problem
        becomes the failure the next store call raises."""
        kept = []
        for write in self._queue:
            try:
                pickle.dumps(write, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as exc:
                if self._failure is None:
                    self._failure = WriterError(f"a write was not saved: {type(exc).__name__}: {exc}")
                continue
            kept.append(write)
        if self._failure is None:
            self._failure = WriterError(f"a write was not saved: {type(error).__name__}: {error}")
        return pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL)

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
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(1.0)  # it closed its end: it is exiting, let it finish writing
        if self._process.poll() is None or self._errors.closed:
            return ""
        self._errors.seek(0)
        lines = self._errors.read().decode(errors="replace").strip().splitlines()
        return f": {lines[-1]}" if lines else f" (exit status {self._process.returncode})"


def serve(path: str, source: int, replies: BinaryIO, doorbell: int | None = None) -> None:
    """The child's loop: commit each received write in order until the parent hangs up."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=0")  # see begin_immediate
    conn.execute("PRAGMA foreign_keys=ON")
    problem = ""
    try:  # listed before the first reply: from then on the parent's writes are ours to commit
        run_write(conn, ((orphan_writers.REGISTER, [(os.getpid(), os.getppid())]),), retry_lock=True)
    except sqlite3.Error as exc:
        problem = f"cannot list the writer process: {exc}"
    for frame in FrameReader(source, doorbell):
        wants_reply = frame[:1] == _REPLY
        try:
            writes = pickle.loads(frame[1:])
        except Exception as exc:  # e.g. a class this process cannot import: say so, go on
            problem = problem or f"a batch of writes could not be read: {type(exc).__name__}: {exc}"
            writes = []
        for write in writes:
            try:
                run_write(conn, write, retry_lock=True)
            except Exception as exc:  # a row that cannot be built or stored: report it, go on
                problem = problem or f"{type(exc).__name__}: {exc}"
        if wants_reply:
            reply = problem.encode()
            replies.write(LENGTH.pack(len(reply)) + reply)
            replies.flush()
            problem = ""
    with contextlib.suppress(sqlite3.Error):  # all committed: nobody need wait for us any more
        run_write(conn, ((orphan_writers.UNREGISTER, [(os.getpid(),)]),), retry_lock=True)
    conn.close()


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when we stop: end of input
    serve(sys.argv[1], sys.stdin.fileno(), sys.stdout.buffer, int(sys.argv[2]) if sys.argv[2:] else None)
