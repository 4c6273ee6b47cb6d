"""Tournament tables computed and rendered in a worker thread, never on the app's event loop.

A tournament's tables (:func:`arena.tournament.standings.tournament_table`) take up to a
couple of seconds for a few thousand episodes, and rendering the "all tables" tab another
50-60 ms of Rich layout. On the event loop that held every key for as long; in a thread
the loop runs between the thread's slices of the interpreter lock. Measured with
``bench/app_latency.py``'s tournament, a thread answers keys as quickly as a child process
did (which needed a pipe protocol, pickling and restarts), so a thread it is.

Each request runs in a daemon thread of its own: quitting the app never waits for a
computation nobody will read, and the screens already ask for one at a time
(:class:`~arena.app.tournament_board.RefreshPolicy`). Nothing here imports Textual.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from rich.text import Text

from arena.app.leaderboard_board import load_leaderboard
from arena.app.safe import prerender
from arena.app.tournament_board import Board, load_board
from arena.display.tables import render_leaderboard, render_table

T = TypeVar("T")


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
    """A console that renders as the app's does (Textual's settings), at ``width`` columns.

    Each computation makes its own: the app's console is the event loop's to use.
    """
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


def rendered_board(db_path: Path, tournament_id: int, resamples: int, width: int) -> RenderedBoard:
    """The tables of ``tournament_id`` and their full text at ``width``."""
    board = load_board(db_path, tournament_id, resamples)
    return RenderedBoard(board, prerender(render_table(board.table), render_console(width), width, fit=True))


def rendered_leaderboard(db_path: Path, tournament_ids: Sequence[int], width: int) -> RenderedLeaderboard:
    """The leaderboard of ``tournament_ids`` and its full text at ``width``."""
    board = load_leaderboard(db_path, tournament_ids)
    tables = prerender(render_leaderboard(board), render_console(width), width, fit=True)
    return RenderedLeaderboard(board, tables)


async def in_thread(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` in a daemon thread; what it returns or raises, awaited on this loop.

    Not ``asyncio.to_thread``: the loop's executor threads are joined when the loop
    closes, so quitting would wait for a table still being computed.
    """
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[T] = loop.create_future()

    def deliver(settle: Callable[[Any], None], outcome: Any) -> None:
        def on_loop() -> None:
            if not answer.done():  # done: its caller went away (a screen closed meanwhile)
                settle(outcome)

        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody is waiting
            loop.call_soon_threadsafe(on_loop)

    def run() -> None:
        try:
            value = function(*args)
        except BaseException as exc:  # handed to the caller, which shows why
            deliver(answer.set_exception, exc)
        else:
            deliver(answer.set_result, value)

    threading.Thread(target=run, name="arena-tables", daemon=True).start()
    return await answer


class TableWorker:
    """Where the app's screens get their tables: each computed in a thread of its own.

    ``board`` and ``leaderboard`` are what computes them (the functions above unless a
    caller passes others, e.g. a test holding a computation until it has checked the
    app answers meanwhile).
    """

    def __init__(
        self,
        board: Callable[[Path, int, int, int], RenderedBoard] = rendered_board,
        leaderboard: Callable[[Path, Sequence[int], int], RenderedLeaderboard] = rendered_leaderboard,
    ) -> None:
        self._board = board
        self._leaderboard = leaderboard

    async def board(self, db_path: Path, tournament_id: int, resamples: int, width: int) -> RenderedBoard:
        """The tables of ``tournament_id`` with ``resamples`` bootstrap resamples, rendered at ``width``."""
        return await in_thread(self._board, db_path, tournament_id, resamples, width)

    async def leaderboard(
        self, db_path: Path, tournament_ids: Sequence[int], width: int
    ) -> RenderedLeaderboard:
        """The leaderboard of ``tournament_ids``, rendered at ``width``."""
        return await in_thread(self._leaderboard, db_path, tuple(tournament_ids), width)
