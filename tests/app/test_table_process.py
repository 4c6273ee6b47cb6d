"""The table process: tables and leaderboards computed in a child, its failures, its restarts."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest
from rich.table import Table

from arena.app.safe import prerender
from arena.app.table_process import TableProcess, TableProcessError, from_wire, render_console, to_wire
from arena.app.tournament_board import load_board
from arena.display.tables import render_table
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import run_tournament

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


async def test_the_child_computes_what_the_app_would_and_says_why_it_cannot(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    tournament = await played(db)
    tables = TableProcess()
    try:
        rendered = await tables.board(db, tournament, 50, 100)
        here = load_board(db, tournament, 50)
        assert rendered.board.table == here.table and rendered.board.scores == here.scores
        assert rendered.tables == prerender(render_table(here.table), render_console(100), 100)
        board = await tables.leaderboard(db, [tournament], 100)
        assert [row["player"] for row in board.board["players"]] != []
        with pytest.raises(TableProcessError, match="no tournament 999"):
            await tables.board(db, 999, 50, 100)
        again = await tables.board(db, tournament, 50, 100)
        assert again.board.table == here.table, "a failed request leaves the process answering"
        assert tables.requests == 4 and tables.in_thread == 0
    finally:
        await tables.close()
    assert not tables.running


async def test_a_child_that_dies_is_started_again_and_a_cancelled_caller_does_not_leave_its_answer(
    tmp_path: Path,
) -> None:
    db = tmp_path / "t.db"
    tournament = await played(db)
    tables = TableProcess()
    try:
        await tables.board(db, tournament, 20, 80)
        first = tables.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        with pytest.raises(TableProcessError, match="the table process ended"):
            await tables.board(db, tournament, 20, 80)
        rendered = await tables.board(db, tournament, 20, 80)
        assert tables.pid not in (None, first) and rendered.board.counted == 4
        # a caller cancelled mid-request: its answer is read by its own exchange, not the next caller
        waiting = asyncio.ensure_future(tables.board(db, tournament, 300, 80))
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        leaderboard = await tables.leaderboard(db, [tournament], 80)
        assert "leaderboard" in leaderboard.board, "the next request got its own answer"
    finally:
        await tables.close()


async def test_without_an_interpreter_to_start_the_tables_are_computed_in_a_thread(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    tournament = await played(db)
    tables = TableProcess(command=(str(tmp_path / "no-such-python"), "-m", "arena.app.table_process"))
    rendered = await tables.board(db, tournament, 20, 80)
    assert tables.in_thread == 1 and tables.requests == 0
    assert rendered.board.table == load_board(db, tournament, 20).table
    await tables.close()


def test_a_rendered_text_crosses_as_plain_data_and_comes_back_equal() -> None:
    table = Table(title="t")
    table.add_column("a", style="bold red")
    table.add_column("b", style="italic #336699 on #000000")
    table.add_row("1", "2")
    text = prerender(table, render_console(90), 90)
    wire = to_wire(text)
    assert all(isinstance(style, str) for _, _, style in wire[1])
    assert from_wire(wire) == text


def test_the_child_is_run_by_this_interpreter() -> None:
    assert TableProcess().command[0] == sys.executable
