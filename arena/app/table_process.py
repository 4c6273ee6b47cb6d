"""Tournament tables computed in a child process, so the app's interpreter never holds them.

A tournament's tables (:func:`arena.tournament.standings.tournament_table`) are mostly pure
Python: for 1,800 bargain episodes about half a second, of which the rating fit is a few
per cent and each player's metrics the rest. In a thread that half second holds the
interpreter lock against the event loop: measured with ``bench/app_latency.py``'s
tournament, a key opening the help box took median 83 ms instead of 36 ms while a thread
recomputed. This child process computes them on the other core instead, and also renders
the "all tables" tab (50-60 ms of Rich layout that used to run on the loop when a table
arrived).

:class:`TableProcess` starts ``python -m arena.app.table_process`` on its first request and
keeps it for the app's life. Requests go one at a time over its stdin/stdout as
length-prefixed pickles (both ends are this module; nothing else writes to those pipes):
the name of a job in :data:`JOBS` and its arguments. A request whose caller is cancelled
still reads its answer, so the next request never reads a stale one. A process that dies
is started again at the next request; one that cannot be started at all gives way to a
thread. Nothing here imports Textual.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import pickle
import struct
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from rich.console import Console
from rich.style import Style
from rich.text import Text

from arena.app.leaderboard_board import load_leaderboard
from arena.app.safe import prerender
from arena.app.tournament_board import Board, load_board
from arena.display.tables import render_leaderboard, render_table

HEADER = struct.Struct(">Q")
"""Every message is its length (8 bytes, big-endian) and then that many bytes of pickle."""


class TableProcessError(RuntimeError):
    """The table process failed a request or ended (the message says why, on one line)."""


@dataclass(frozen=True)
class RenderedBoard:
    """A tournament's tables with the "all tables" tab already rendered at ``width``."""

    board: Board
    tables: Text


@dataclass(frozen=True)
class RenderedLeaderboard:
    """A leaderboard across tournaments with its full tables rendered at ``width``."""

    board: dict[str, Any]
    tables: Text


def render_console(width: int) -> Console:
    """A console that renders as the app's does (Textual's settings), at ``width`` columns."""
    return Console(
        color_system="truecolor",
        file=io.StringIO(),
        markup=True,
        highlight=False,
        emoji=False,
        legacy_windows=False,
        force_terminal=True,
        safe_box=False,
        soft_wrap=False,
        width=width,
    )


WireText = tuple[str, tuple[tuple[int, int, str], ...]]
"""A rendered text as plain data: its characters and its spans' styles written out.

Rich styles cache their hash, and a pickled style keeps the hash of the process that made
it (string hashes differ between processes): unpickled, ``Style(bold=True)`` was not equal
to the app's own ``Style(bold=True)``. So styles cross as their definitions and are parsed
again here (:meth:`~rich.style.Style.parse` is cached).
"""


def to_wire(text: Text) -> WireText:
    """``text`` as plain data (links and meta are gone already: :func:`prerender` drops them)."""
    return text.plain, tuple((span.start, span.end, str(span.style)) for span in text.spans)


def from_wire(wire: WireText) -> Text:
    """The ``Text`` :func:`to_wire` wrote, as :func:`prerender` makes it."""
    plain, spans = wire
    text = Text(plain, no_wrap=True, overflow="ignore", end="")
    for start, end, style in spans:
        text.stylize(Style.parse(style), start, end)
    return text


def board_job(db_path: Path, tournament_id: int, resamples: int, width: int) -> tuple[Board, WireText]:
    """The tables of ``tournament_id`` and their full text at ``width`` (what the child runs)."""
    board = load_board(db_path, tournament_id, resamples)
    return board, to_wire(prerender(render_table(board.table), render_console(width), width))


def leaderboard_job(
    db_path: Path, tournament_ids: Sequence[int], width: int
) -> tuple[dict[str, Any], WireText]:
    """The leaderboard of ``tournament_ids`` and its full text at ``width``."""
    board = load_leaderboard(db_path, tournament_ids)
    return board, to_wire(prerender(render_leaderboard(board), render_console(width), width))


JOBS: dict[str, Callable[..., Any]] = {"board": board_job, "leaderboard": leaderboard_job}


class TableProcess:
    """One child process computing tables for the app, one request at a time."""

    def __init__(self, command: Sequence[str] = (sys.executable, "-m", "arena.app.table_process")) -> None:
        self.command = tuple(command)
        self._child: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()
        self.requests = 0
        """Requests answered by the child (read by tests)."""
        self.in_thread = 0
        """Requests computed in a thread because the child could not be started."""

    @property
    def running(self) -> bool:
        """True while the child process is alive."""
        return self._child is not None and self._child.returncode is None

    @property
    def pid(self) -> int | None:
        """The child's process id, while it runs."""
        return self._child.pid if self._child is not None and self.running else None

    async def board(self, db_path: Path, tournament_id: int, resamples: int, width: int) -> RenderedBoard:
        """:func:`board_job`, computed in the child."""
        board, tables = await self.call("board", db_path, tournament_id, resamples, width)
        assert isinstance(board, Board)
        return RenderedBoard(board, from_wire(tables))

    async def leaderboard(
        self, db_path: Path, tournament_ids: Sequence[int], width: int
    ) -> RenderedLeaderboard:
        """:func:`leaderboard_job`, computed in the child."""
        board, tables = await self.call("leaderboard", db_path, tuple(tournament_ids), width)
        assert isinstance(board, dict)
        return RenderedLeaderboard(board, from_wire(tables))

    async def call(self, job: str, *args: Any) -> Any:
        """Run ``JOBS[job](*args)`` in the child; what the job raised comes as :class:`TableProcessError`."""
        if job not in JOBS:
            raise ValueError(f"no table job {job!r}")
        # Shielded: a caller that is cancelled (its screen closed) must not leave an answer
        # unread in the pipe for the next request; the exchange finishes on its own.
        exchange = asyncio.ensure_future(self._exchange(job, args))
        exchange.add_done_callback(_consume)
        return await asyncio.shield(exchange)

    async def _exchange(self, job: str, args: tuple[Any, ...]) -> Any:
        async with self._lock:
            try:
                child = await self._started()
            except OSError:  # no interpreter to start: compute here, off the loop at least
                self.in_thread += 1
                return await asyncio.to_thread(JOBS[job], *args)
            assert child.stdin is not None and child.stdout is not None
            payload = pickle.dumps((job, args))
            try:
                child.stdin.write(HEADER.pack(len(payload)) + payload)
                await child.stdin.drain()
                size = HEADER.unpack(await child.stdout.readexactly(HEADER.size))[0]
                status, value = pickle.loads(await child.stdout.readexactly(size))
            except (OSError, EOFError, asyncio.IncompleteReadError) as exc:
                detail = await self._ended()
                raise TableProcessError(f"the table process ended ({detail or type(exc).__name__})") from None
            self.requests += 1
            if status != "ok":
                raise TableProcessError(str(value))
            return value

    async def _started(self) -> asyncio.subprocess.Process:
        if self._child is None or self._child.returncode is not None:
            self._child = await asyncio.create_subprocess_exec(
                *self.command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
        return self._child

    async def _ended(self) -> str:
        """Wait for a child that broke its pipe; the last line it wrote to stderr."""
        child, self._child = self._child, None
        if child is None:
            return ""
        with contextlib.suppress(ProcessLookupError):
            child.kill()
        _, err = await child.communicate()
        lines = err.decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else f"exit status {child.returncode}"

    async def close(self) -> None:
        """End the child (it also ends by itself when the app's end of its pipe closes)."""
        async with self._lock:
            child, self._child = self._child, None
            if child is None or child.returncode is not None:
                return
            assert child.stdin is not None
            child.stdin.close()
            try:
                await asyncio.wait_for(child.wait(), timeout=5)
            except TimeoutError:
                child.kill()
                await child.wait()


def _consume(task: asyncio.Future[Any]) -> None:
    """Retrieve the outcome of an exchange whose caller went away (no "never retrieved" warning)."""
    if not task.cancelled():
        task.exception()


def serve(requests: BinaryIO, answers: BinaryIO) -> None:
    """The child's loop: answer each request on ``requests`` until it closes."""
    while True:
        header = requests.read(HEADER.size)
        if len(header) < HEADER.size:
            return
        job, args = pickle.loads(requests.read(HEADER.unpack(header)[0]))
        try:
            answer: tuple[str, Any] = ("ok", JOBS[job](*args))
        except Exception as exc:  # the app shows the reason where the tables would be
            answer = ("error", f"{type(exc).__name__}: {exc}")
        payload = pickle.dumps(answer)
        answers.write(HEADER.pack(len(payload)) + payload)
        answers.flush()


BACKGROUND_NICENESS = 10
"""The child gives way to the app for the processor: tables may wait, a key should not."""


def main() -> None:
    """Serve on stdin/stdout; anything else printed goes to stderr, never into the answers."""
    with contextlib.suppress(OSError, AttributeError):  # not on every platform
        os.nice(BACKGROUND_NICENESS)
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    # Run as the imported module, not as ``__main__``: answers pickle its classes by their
    # importable name (``arena.app.table_process.RenderedBoard``), which the app can load.
    from arena.app import table_process

    table_process.main()
