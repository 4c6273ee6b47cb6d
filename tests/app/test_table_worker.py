"""The table worker: tables and leaderboards computed in a thread, their failures, a caller gone away."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from arena.app.safe import prerender
from arena.app.table_worker import (
    RenderedBoard,
    TableWorker,
    in_thread,
    render_console,
    rendered_board,
    rendered_leaderboard,
)
from arena.app.tournament_board import load_board
from arena.display.tables import render_table
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import TournamentNotFound, run_tournament
from tests.support.held import Held

PLAYERS = ("baseline:honest", "baseline:bluffing")


async def played(db: Path, seeds: int = 2) -> int:
    """A finished bargain tournament in ``db``; returns its id."""
    store = Store(db)
    try:
        return (
            await run_tournament(store, build_config(game="bargain", players=PLAYERS, seeds=seeds))
        ).tournament_id
    finally:
        store.close()


async def test_the_worker_computes_what_the_app_would_and_says_why_it_cannot(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    tournament = await played(db)
    tables = TableWorker()
    rendered = await tables.board(db, tournament, 50, 100)
    here = load_board(db, tournament, 50)
    assert rendered.board.table == here.table and rendered.board.scores == here.scores
    assert rendered.tables == prerender(render_table(here.table), render_console(100), 100, fit=True)
    board = await tables.leaderboard(db, [tournament], 100)
    assert [row["player"] for row in board.board["players"]] != []
    with pytest.raises(TournamentNotFound, match="no tournament 999"):
        await tables.board(db, 999, 50, 100)
    again = await tables.board(db, tournament, 50, 100)
    assert again.board.table == here.table, "a failed request leaves the worker answering"


async def test_the_loop_runs_while_a_table_is_computed_and_a_caller_that_left_gets_nothing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "t.db"
    tournament = await played(db)
    board = Held(rendered_board)
    leaderboard = Held(rendered_leaderboard)
    tables = TableWorker(board=board, leaderboard=leaderboard)
    with board.holding(), leaderboard.holding():
        waiting = asyncio.ensure_future(tables.board(db, tournament, 20, 80))
        while board.started == 0:  # the loop turns while the thread waits
            await asyncio.sleep(0)
        assert not waiting.done()
        waiting.cancel()  # its screen closed
        with pytest.raises(asyncio.CancelledError):
            await waiting
    # let go: the cancelled computation ends in its thread and its answer goes nowhere
    rendered = await tables.board(db, tournament, 20, 80)
    assert rendered.board.counted == 4
    leaders = await tables.leaderboard(db, [tournament], 80)
    assert "leaderboard" in leaders.board, "the next request got its own answer"
    assert board.started == 2 and leaderboard.started == 1


async def test_a_computation_runs_in_a_daemon_thread_so_quitting_never_waits_for_it(tmp_path: Path) -> None:
    seen: list[threading.Thread] = []

    def where(db: Path, tournament_id: int, resamples: int, width: int) -> RenderedBoard:
        seen.append(threading.current_thread())
        raise TournamentNotFound(f"no tournament {tournament_id}")

    with pytest.raises(TournamentNotFound):
        await TableWorker(board=where).board(tmp_path / "t.db", 1, 20, 80)
    assert seen[0] is not threading.main_thread() and seen[0].daemon


def test_an_answer_after_its_loop_closed_goes_nowhere(monkeypatch: pytest.MonkeyPatch) -> None:
    raised: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", raised.append)
    gate = Held(lambda: "late")

    async def leave() -> None:
        task = asyncio.ensure_future(in_thread(gate))
        while gate.started == 0:
            await asyncio.sleep(0)
        task.cancel()

    asyncio.run(leave())  # returns with the computation still held: nothing joins its thread
    gate.release()
    gate.threads[0].join()
    assert gate.finished == 1 and raised == [], "its answer found the loop closed and went nowhere"
