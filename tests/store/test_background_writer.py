"""The writer process: turns committed off the playing process, in order, nothing lost."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from arena.engine.match import MatchConfig, play_match
from arena.engine.recorder import TURN_COLUMNS
from arena.store import background_writer
from arena.store.database import Store, StoreError
from arena.store.turn_rows import TurnRows
from tests.support.episodes import running_episode, turn_rows
from tests.support.processes import wait_until_gone
from tests.support.scripted import ScriptedPlayer, decision

SEATS = {"a": "baseline:weather", "b": "baseline:cost-plus"}


def unpicklable_rows(episode_id: int, step: int) -> list[list[object]]:
    """A step's turn rows holding a value that cannot be handed to the writer process."""
    rows = turn_rows(episode_id, step)
    rows[0][TURN_COLUMNS.index("raw")] = threading.Lock()
    return rows


def test_an_episode_is_recorded_through_a_writer_process(db_path: Path) -> None:
    store = Store(db_path)
    outcome = asyncio.run(play_match(MatchConfig("lemonade", SEATS, seed=3), store))
    assert store.writer_pid is not None and store.writer_pid != os.getpid()
    store.flush()  # after it, another connection sees the whole episode
    other = sqlite3.connect(db_path)
    count = other.execute("SELECT count(*) FROM turns WHERE episode_id=?", (outcome.episode_id,)).fetchone()
    assert count == (60,)
    assert other.execute("SELECT status, turns FROM episodes").fetchone() == ("finished", 60)
    other.close()
    store.close()


def test_the_same_episode_is_stored_the_same_with_or_without_the_writer(tmp_path: Path) -> None:
    tables = []
    for background in (True, False):
        store = Store(tmp_path / f"{background}.db", background=background)
        asyncio.run(play_match(MatchConfig("lemonade", SEATS, seed=5), store))
        assert (store.writer_pid is not None) is background
        cursor = store.conn.execute("SELECT * FROM turns ORDER BY idx")
        timed = [column[0] == "latency" for column in cursor.description]
        tables.append(
            [tuple(v for v, t in zip(row, timed, strict=True) if not t) for row in cursor]
        )  # all but latency
        store.close()
    assert tables[0] == tables[1] and len(tables[0]) == 60


def test_reads_wait_for_the_turns_sent_before_them(db_path: Path) -> None:
    store = Store(db_path)
    episode = running_episode(store)
    for step in range(200):
        store.add_turns(TURN_COLUMNS, turn_rows(episode, step))
    assert len(store.raw_turns(episode)) == 400
    store.close()


def test_a_write_that_fails_in_the_writer_is_reported_at_the_next_read(db_path: Path) -> None:
    store = Store(db_path)
    store.add_turns(TURN_COLUMNS, turn_rows(episode_id=999, step=0))  # no such episode
    with pytest.raises(StoreError, match="FOREIGN KEY"):
        store.list_episodes()
    episode = running_episode(store)  # the store goes on working
    store.add_turns(TURN_COLUMNS, turn_rows(episode, 0))
    assert len(store.raw_turns(episode)) == 2
    store.close()


def test_turns_inside_a_callers_transaction_join_it(db_path: Path) -> None:
    store = Store(db_path)
    episode = running_episode(store)
    with pytest.raises(RuntimeError), store.transaction():
        store.add_turns(TURN_COLUMNS, turn_rows(episode, 0))
        raise RuntimeError("undo")
    assert store.raw_turns(episode) == []
    store.close()


def test_the_environment_can_turn_the_writer_off(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_BACKGROUND_WRITER", "0")
    store = Store(db_path)
    asyncio.run(play_match(MatchConfig("lemonade", SEATS, seed=1), store))
    assert store.writer_pid is None
    assert store.episode(1)["turns"] == 60  # type: ignore[index]
    store.close()


def test_ctrl_c_at_the_terminal_does_not_reach_the_writer(db_path: Path) -> None:
    store = Store(db_path)
    episode = running_episode(store)
    store.add_turns(TURN_COLUMNS, turn_rows(episode, 0))
    assert len(store.raw_turns(episode)) == 2  # the writer is up and serving
    pid = store.writer_pid
    assert pid is not None
    assert os.getsid(pid) != os.getsid(0)  # its own session: the terminal's SIGINT goes elsewhere
    os.kill(pid, signal.SIGINT)  # and a stray one is ignored once it serves
    store.add_turns(TURN_COLUMNS, turn_rows(episode, 1))
    assert len(store.raw_turns(episode)) == 4
    store.close()


KILLED_MID_EPISODE = """
import os, signal, sys
sys.path.insert(0, {root!r})
from arena.store.database import Store
from tests.support.episodes import turn_rows
from tests.support.episodes import running_episode
from arena.engine.recorder import TURN_COLUMNS
store = Store({db!r})
episode = running_episode(store)
for step in range(500):
    store.add_turns(TURN_COLUMNS, turn_rows(episode, step))
print(store.writer_pid, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


KILLED_IN_AN_EVENT_LOOP = """
import asyncio, os, signal, sys
sys.path.insert(0, {root!r})
from arena.store.database import Store
from tests.support.episodes import turn_rows
from tests.support.episodes import running_episode
from arena.engine.recorder import TURN_COLUMNS
async def main():
    store = Store({db!r})
    episode = running_episode(store)
    for step in range(500):
        store.add_turns(TURN_COLUMNS, turn_rows(episode, step))
    await asyncio.sleep(0)  # the loop has control: the queue is sent
    for step in range(500, 503):
        store.add_turns(TURN_COLUMNS, turn_rows(episode, step))  # queued, not yet sent
    print(store.writer_pid, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
asyncio.run(main())
"""


@pytest.mark.parametrize("script", [KILLED_MID_EPISODE, KILLED_IN_AN_EVENT_LOOP], ids=["no-loop", "loop"])
def test_steps_sent_before_a_kill_9_are_still_committed(db_path: Path, script: str) -> None:
    # Without an event loop each step is sent at once; in one, when the loop next has
    # control: the three steps queued after that die with the process.
    root = str(Path(__file__).resolve().parents[2])
    code = script.format(root=root, db=str(db_path))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr
    wait_until_gone(int(done.stdout.strip()))
    store = Store(db_path)  # reaps the episode of the dead process
    episode = store.list_episodes()[0]
    assert episode["status"] == "aborted"
    assert len(store.raw_turns(episode["id"])) == 1000
    store.close()


def test_in_an_event_loop_writes_wait_for_the_loop_or_a_read(db_path: Path) -> None:
    store = Store(db_path)
    episode = running_episode(store)
    frames: list[int] = []

    async def play() -> None:
        writer = store._writer
        assert writer is not None
        send = writer._send

        def counted(data: bytes) -> None:
            frames.append(len(data))
            send(data)

        writer._send = counted  # type: ignore[method-assign]  # counts frames, sends them as ever
        for step in range(background_writer.BATCH_WRITES + 10):
            store.add_turns(TURN_COLUMNS, turn_rows(episode, step))
        assert len(frames) == 1  # the full batch went at once; ten wait in the queue
        await asyncio.sleep(0)
        assert len(frames) == 2  # the loop had control: sent
        store.add_turns(TURN_COLUMNS, turn_rows(episode, 100))
        assert len(store.raw_turns(episode)) == 2 * (background_writer.BATCH_WRITES + 11)  # a read sends it
        assert len(frames) == 3

    asyncio.run(play())
    store.close()


def test_a_writer_that_died_is_reported_after_the_loop_could_not_send_to_it(db_path: Path) -> None:
    store = Store(db_path)
    episode = running_episode(store)
    store.add_turns(TURN_COLUMNS, turn_rows(episode, 0))
    store.flush()
    pid = store.writer_pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    wait_until_gone(pid)  # dead, not yet reaped: its end of the pipe is closed
    loop_errors: list[dict[str, object]] = []

    async def play() -> None:
        asyncio.get_running_loop().set_exception_handler(lambda _loop, context: loop_errors.append(context))
        store.add_turns(TURN_COLUMNS, turn_rows(episode, 1))
        await asyncio.sleep(0)  # the flush finds the pipe broken and keeps the error
        with pytest.raises(StoreError, match="ended early"):
            store.add_turns(TURN_COLUMNS, turn_rows(episode, 2))

    asyncio.run(play())
    assert loop_errors == []
    with pytest.raises(StoreError, match="ended early"):
        store.close()


@pytest.mark.parametrize("interpreter", ["/nonexistent/python", "/bin/false"])
def test_without_a_working_writer_process_turns_are_written_here(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, interpreter: str
) -> None:
    monkeypatch.setattr(sys, "executable", interpreter)
    store = Store(db_path)
    outcome = asyncio.run(play_match(MatchConfig("lemonade", SEATS, seed=2), store))
    assert outcome.status == "finished"
    assert store.writer_pid is None and not store.background
    assert "database writer" in store.writer_problem
    assert store.episode(1)["turns"] == 60  # type: ignore[index]
    store.close()


def test_episodes_are_created_while_the_writer_commits_a_backlog(db_path: Path) -> None:
    store = Store(db_path)
    first = running_episode(store)
    for step in range(1000):
        store.add_turns(TURN_COLUMNS, turn_rows(first, step))
        if step % 100 == 0:
            running_episode(store)  # beside the writer, which holds the lock now and then
    assert len(store.raw_turns(first)) == 2000
    assert [row["id"] for row in store.list_episodes(limit=20)] == list(range(11, 0, -1))
    store.close()


def test_taking_the_lock_retries_until_the_other_writer_lets_go(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Store(db_path, background=False).close()
    holder = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    waiter = sqlite3.connect(db_path, isolation_level=None)
    waiter.execute("PRAGMA busy_timeout=0")
    monkeypatch.setattr(background_writer, "LOCK_WAIT_SECONDS", 0.05)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        background_writer.begin_immediate(waiter)  # never let go: gives up after the wait
    released = threading.Timer(0.02, holder.execute, ["COMMIT"])
    monkeypatch.setattr(background_writer, "LOCK_WAIT_SECONDS", 60.0)
    released.start()
    background_writer.begin_immediate(waiter)  # let go after a while: taken then
    assert waiter.in_transaction
    waiter.execute("COMMIT")
    released.join()
    holder.close()
    waiter.close()


def test_a_writer_that_cannot_start_says_why(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    broken = db_path.parent / "python"
    broken.write_text("#!/bin/sh\necho 'no module named arena' >&2\nexit 3\n")
    broken.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(broken))
    store = Store(db_path)
    episode = running_episode(store)
    store.add_turns(TURN_COLUMNS, turn_rows(episode, 0))
    assert store.writer_problem == "the database writer ended early: no module named arena"
    assert len(store.raw_turns(episode)) == 2  # written here instead
    store.close()


KILLED_WITH_A_BACKLOG = """
import os, signal, sys
sys.path.insert(0, {root!r})
from arena.store.database import Store
from tests.support.episodes import turn_rows
from tests.support.episodes import running_episode
from arena.engine.recorder import TURN_COLUMNS
store = Store({db!r})
episode = running_episode(store)
store.flush()
print("ready", flush=True)
sys.stdin.readline()
for step in range(500):
    store.add_turns(TURN_COLUMNS, turn_rows(episode, step))  # the writer waits for the lock meanwhile
print(store.writer_pid, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_opening_the_file_waits_for_a_dead_process_s_writer_to_commit_its_backlog(db_path: Path) -> None:
    root = str(Path(__file__).resolve().parents[2])
    code = KILLED_WITH_A_BACKLOG.format(root=root, db=str(db_path))
    player = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert player.stdin is not None and player.stdout is not None
    assert player.stdout.readline() == "ready\n"
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # nothing is committed while the 500 steps are handed over
    player.stdin.write("go\n")
    player.stdin.flush()
    writer = int(player.stdout.readline())
    assert player.wait() == -signal.SIGKILL
    holder.execute("COMMIT")
    holder.close()
    store = Store(db_path)  # the orphaned writer has 500 commits to go: opening waits for them
    episode = store.list_episodes()[0]
    assert len(store.raw_turns(episode["id"])) == 1000
    assert episode["status"] == "aborted"
    assert store.conn.execute("SELECT count(*) FROM writers").fetchone() == (0,)
    wait_until_gone(writer)
    store.close()


def test_a_writer_lists_itself_while_it_runs(db_path: Path) -> None:
    store = Store(db_path)
    running_episode(store)
    store.flush()
    listed = store.conn.execute("SELECT pid, parent FROM writers").fetchall()
    assert listed == [(store.writer_pid, os.getpid())]
    store.close()
    other = sqlite3.connect(db_path)
    assert other.execute("SELECT count(*) FROM writers").fetchone() == (0,)
    other.close()


def test_a_write_that_fails_in_the_writer_for_any_reason_is_reported_and_the_writer_goes_on(
    db_path: Path,
) -> None:
    store = Store(db_path)
    episode = running_episode(store)
    # A payload whose state is not JSON bytes: building the row fails in the writer process.
    broken = TurnRows(episode, [((), (), "not bytes", 0)])  # type: ignore[list-item]
    store.add_turns(TURN_COLUMNS, broken)
    with pytest.raises(StoreError, match="a write was not saved: TypeError"):
        store.flush()
    store.add_turns(TURN_COLUMNS, turn_rows(episode, 0))
    store.flush()
    assert store.conn.execute("SELECT count(*) FROM turns").fetchone()[0] == 2
    store.close()


def test_a_write_that_cannot_be_handed_over_is_reported_and_the_others_are_kept(db_path: Path) -> None:
    store = Store(db_path)
    episode = running_episode(store)

    async def play() -> None:
        store.add_turns(TURN_COLUMNS, turn_rows(episode, 0))
        store.add_turns(TURN_COLUMNS, unpicklable_rows(episode, 1))
        store.add_turns(TURN_COLUMNS, turn_rows(episode, 2))
        await asyncio.sleep(0)  # the loop sends the batch

    asyncio.run(play())
    with pytest.raises(StoreError, match="cannot pickle"):
        store.flush()
    store.flush()
    steps = [row[0] for row in store.conn.execute("SELECT DISTINCT step FROM turns ORDER BY step")]
    assert steps == [0, 2]
    store.close()


async def test_an_episode_with_a_model_seat_is_stored_before_its_first_decision(db_path: Path) -> None:
    store = Store(db_path)
    player = ScriptedPlayer([decision({"price": 2.0, "produce": 10, "promotion": "none"})])
    config = MatchConfig("lemonade", {"a": "baseline:weather"}, seed=1, options={"days": 1, "stands": 2})
    config.tournament_id = 4242  # no such tournament: the episode cannot be stored
    with pytest.raises(StoreError, match="FOREIGN KEY"):
        await play_match(config, store, players={"b": player})
    assert player.requests == [], "no decision was asked for"
    store.close()


def test_a_write_left_out_by_a_reads_own_hand_over_fails_that_read(db_path: Path) -> None:
    store = Store(db_path)
    episode = running_episode(store)

    async def play() -> None:
        store.add_turns(TURN_COLUMNS, turn_rows(episode, 0))
        store.add_turns(TURN_COLUMNS, unpicklable_rows(episode, 1))
        with pytest.raises(StoreError, match="cannot pickle"):  # the read sends the queue itself
            store.flush()

    asyncio.run(play())
    steps = [row[0] for row in store.conn.execute("SELECT DISTINCT step FROM turns")]
    assert steps == [0]
    store.close()
