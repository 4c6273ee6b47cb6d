"""When the store commits: costly turns at once, scripted steps grouped, nothing finished lost."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from arena.contract.player import Decision, DecisionRequest
from arena.engine.match import MatchConfig, play_match
from arena.engine.recorder import TURN_COLUMNS
from arena.store import database
from arena.store.database import Store, StoreError
from tests.support.episodes import running_episode, turn_rows
from tests.support.processes import OUR_ENV
from tests.support.scripted import ScriptedPlayer

SEATS = {"a": "baseline:weather", "b": "baseline:cost-plus"}
ROOT = str(Path(__file__).resolve().parents[2])


def turns_seen_elsewhere(db: Path) -> int:
    """Turn rows another connection sees: what is committed."""
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("SELECT count(*) FROM turns").fetchone()[0])
    finally:
        conn.close()


@pytest.fixture
def hold_scripted_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Grouped writes wait for anything but the clock: what is committed no longer depends on timing."""
    monkeypatch.setattr(database, "GROUP_SECONDS", 3600.0)


@pytest.mark.usefixtures("hold_scripted_steps")
async def test_a_model_seat_s_turns_are_committed_before_the_next_decision(db_path: Path) -> None:
    store = Store(db_path)
    seen: list[int] = []

    def answer(request: DecisionRequest) -> Decision:
        seen.append(turns_seen_elsewhere(db_path))
        return Decision({"price": 2.0, "produce": 10, "promotion": "none"})

    config = MatchConfig("lemonade", {"a": "baseline:weather"}, seed=1, options={"days": 5})
    await play_match(config, store, players={"b": ScriptedPlayer([answer])})
    assert seen == [0, 2, 4, 6, 8]  # each day's two turns, before the model is asked again
    store.close()


@pytest.mark.usefixtures("hold_scripted_steps")
async def test_a_scripted_episode_is_committed_at_its_start_and_end_only(db_path: Path) -> None:
    store = Store(db_path)
    commits: list[str] = []
    store.conn.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
    outcome = await play_match(MatchConfig("lemonade", SEATS, seed=3), store)
    assert commits == ["COMMIT", "COMMIT"]  # created, then 30 steps and the end together
    other = sqlite3.connect(db_path)  # the episode is stored whole as soon as it ended
    stored = other.execute("SELECT status, turns FROM episodes WHERE id = ?", (outcome.episode_id,))
    assert stored.fetchone() == ("finished", 60)
    other.close()
    store.close()


@pytest.mark.usefixtures("hold_scripted_steps")
def test_grouped_steps_wait_for_a_read_through_the_store(db_path: Path) -> None:
    store = Store(db_path)
    episode = running_episode(store)
    for step in range(3):
        store.add_turns(TURN_COLUMNS, turn_rows(episode, step), group=True)
    assert turns_seen_elsewhere(db_path) == 0
    assert len(store.raw_turns(episode)) == 6  # a read commits what is held first
    assert turns_seen_elsewhere(db_path) == 6
    store.close()


def test_grouped_steps_are_committed_once_the_group_time_has_passed(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(db_path)
    episode = running_episode(store)
    monkeypatch.setattr(database, "GROUP_SECONDS", 3600.0)
    store.add_turns(TURN_COLUMNS, turn_rows(episode, 0), group=True)
    store.add_turns(TURN_COLUMNS, turn_rows(episode, 1), group=True)
    assert turns_seen_elsewhere(db_path) == 0
    monkeypatch.setattr(database, "GROUP_SECONDS", 0.0)  # as if that long had passed since the last commit
    store.add_turns(TURN_COLUMNS, turn_rows(episode, 2), group=True)
    assert turns_seen_elsewhere(db_path) == 6
    store.close()


@pytest.mark.usefixtures("hold_scripted_steps")
def test_closing_commits_what_is_held(db_path: Path) -> None:
    store = Store(db_path)
    episode = running_episode(store)
    store.add_turns(TURN_COLUMNS, turn_rows(episode, 0), group=True)
    store.close()
    assert turns_seen_elsewhere(db_path) == 2


def test_turns_inside_a_callers_transaction_join_it(db_path: Path) -> None:
    store = Store(db_path)
    episode = running_episode(store)
    with pytest.raises(RuntimeError), store.transaction():
        store.add_turns(TURN_COLUMNS, turn_rows(episode, 0))
        store.add_turns(TURN_COLUMNS, turn_rows(episode, 1), group=True)
        raise RuntimeError("undo")
    assert store.raw_turns(episode) == []
    store.close()


@pytest.mark.usefixtures("hold_scripted_steps")
def test_a_refused_write_is_reported_and_the_rest_of_its_group_is_kept(db_path: Path) -> None:
    store = Store(db_path)
    episode = running_episode(store)
    store.add_turns(TURN_COLUMNS, turn_rows(episode, 0), group=True)
    store.add_turns(TURN_COLUMNS, turn_rows(episode_id=999, step=1), group=True)  # no such episode
    unbindable = turn_rows(episode, 2)
    unbindable[0][TURN_COLUMNS.index("raw")] = threading.Lock()  # SQLite cannot hold it
    store.add_turns(TURN_COLUMNS, unbindable, group=True)
    store.add_turns(TURN_COLUMNS, turn_rows(episode, 3), group=True)
    with pytest.raises(StoreError, match=r"2 of 4 writes to .* were not saved: FOREIGN KEY"):
        store.list_episodes()
    assert [row["step"] for row in store.raw_turns(episode)] == [0, 0, 3, 3]
    assert running_episode(store) == episode + 1  # the store goes on working
    store.close()


def test_a_write_waits_for_another_process_s_lock(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 600_000)  # a guard against hanging, not a limit
    store = Store(db_path)
    episode = running_episode(store)
    holder = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    released = threading.Timer(0.05, holder.execute, ["COMMIT"])
    released.start()
    store.add_turns(TURN_COLUMNS, turn_rows(episode, 0))  # waits until the holder lets go
    released.join()
    assert turns_seen_elsewhere(db_path) == 2
    holder.close()
    store.close()


def test_a_lock_held_past_the_busy_timeout_fails_in_one_line_and_the_writes_are_kept(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 50)
    store = Store(db_path)
    episode = running_episode(store)
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer that does not let go in time
    try:
        with pytest.raises(StoreError, match=r"^cannot create an episode in .*: database is locked$"):
            running_episode(store)
        with pytest.raises(StoreError, match=r"^a write to .* was not saved: database is locked$"):
            store.add_turns(TURN_COLUMNS, turn_rows(episode, 0))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert len(store.raw_turns(episode)) == 2  # kept, and committed by the next write or read
    assert running_episode(store) == episode + 1
    store.close()


PLAYS_THEN_DIES = """
import asyncio, os, signal, sys
sys.path.insert(0, {root!r})
from arena.contract.records import CallbackObserver, TurnsRecorded
from arena.engine.match import MatchConfig, play_match
from arena.store import database
from arena.store.database import Store
database.GROUP_SECONDS = 3600.0  # steps wait for the episode's end, however slow the machine
die_at = {die_at!r}

def die(event):
    if isinstance(event, TurnsRecorded) and event.step == die_at:
        os.kill(os.getpid(), signal.SIGKILL)

store = Store({db!r})
seats = {{"a": "baseline:weather", "b": "baseline:cost-plus"}}
asyncio.run(play_match(MatchConfig("lemonade", seats, seed=3), store, [CallbackObserver(die)]))
os.kill(os.getpid(), signal.SIGKILL)  # the moment the episode ended
"""


def play_then_die(db: Path, die_at: int | None) -> None:
    code = PLAYS_THEN_DIES.format(root=ROOT, db=str(db), die_at=die_at)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr


def test_an_episode_that_ended_is_stored_whole_though_the_process_dies_right_after(db_path: Path) -> None:
    play_then_die(db_path, die_at=None)
    store = Store(db_path)
    episode = store.list_episodes()[0]
    assert (episode["status"], episode["turns"]) == ("finished", 60)
    assert [row["idx"] for row in store.raw_turns(episode["id"])] == list(range(60))
    assert all(seat["score"] is not None for seat in store.seats(episode["id"]))
    store.close()


def test_a_crash_mid_episode_leaves_it_marked_unfinished_with_the_steps_before(db_path: Path) -> None:
    play_then_die(db_path, die_at=10)
    store = Store(db_path)  # opening marks the dead process's episode
    episode = store.list_episodes()[0]
    assert episode["status"] == "aborted"
    assert store.episode(episode["id"])["message"] == "process ended while the episode was running"  # type: ignore[index]
    stored = [row["idx"] for row in store.raw_turns(episode["id"])]
    assert stored == list(range(len(stored))) and len(stored) % 2 == 0  # whole steps, from the first
    assert len(stored) < 22
    store.close()


def test_a_person_s_move_is_committed_before_the_next_one_is_asked_for(db_path: Path) -> None:
    argv = [sys.executable, "-m", "arena.cli.main", "--db", str(db_path), "play", "lemonade"]
    argv += ["--seat", "a=human", "--seat", "b=baseline:weather", "--option", "days=3"]
    # Unbuffered, so each prompt is read as it is shown (a user's terminal shows it at once too).
    process = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=OUR_ENV
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("3\n20\n\n\n")  # day 1: price, cups, promotion and reason as offered
    process.stdin.flush()
    asked = 0
    while asked < 2:
        line = process.stdout.readline()
        assert line, "the console ended before asking for day 2"
        asked += "your move" in line
    committed = turns_seen_elsewhere(db_path)  # while day 2's move is being asked for
    process.kill()
    process.communicate()
    assert committed == 2
    store = Store(db_path)
    episode = store.list_episodes()[0]
    assert (episode["status"], episode["turns"]) == ("aborted", 2)
    store.close()


async def test_an_episode_with_a_model_seat_is_stored_before_its_first_decision(db_path: Path) -> None:
    store = Store(db_path)
    player = ScriptedPlayer([Decision({"price": 2.0, "produce": 10, "promotion": "none"})])
    config = MatchConfig("lemonade", {"a": "baseline:weather"}, seed=1, options={"days": 1, "stands": 2})
    config.tournament_id = 4242  # no such tournament: the episode cannot be stored
    with pytest.raises(StoreError, match="FOREIGN KEY"):
        await play_match(config, store, players={"b": player})
    assert player.requests == [], "no decision was asked for"
    store.close()


def test_episodes_recorded_side_by_side_in_one_store_keep_their_own_turns(db_path: Path) -> None:
    store = Store(db_path)

    async def both() -> list[int | None]:
        outcomes = await asyncio.gather(
            *(play_match(MatchConfig("lemonade", SEATS, seed=seed), store) for seed in (1, 2, 3))
        )
        return [outcome.episode_id for outcome in outcomes]

    ids = asyncio.run(both())
    assert ids == [1, 2, 3]
    for episode_id in ids:
        assert [row["idx"] for row in store.raw_turns(episode_id or 0)] == list(range(60))
    store.close()


def test_two_tournaments_in_two_processes_write_one_file_at_once(db_path: Path) -> None:
    Store(db_path).close()
    argv = [sys.executable, "-m", "arena.cli.main", "--db", str(db_path), "tournament", "run", "lemonade"]
    argv += ["--player", "baseline:weather", "--player", "baseline:cost-plus", "--seeds", "8"]
    runs = [
        subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for _ in range(2)
    ]
    for run in runs:
        _, err = run.communicate()
        assert run.returncode == 0, err
    store = Store(db_path)
    assert [row["status"] for row in store.list_tournaments()] == ["finished", "finished"]
    rows = store.conn.execute("SELECT id, tournament_id, status, turns FROM episodes ORDER BY id").fetchall()
    assert [row[0] for row in rows] == list(range(1, 33))  # 2 x 16 slots, no id skipped
    assert {(row[1], row[2], row[3]) for row in rows} == {(1, "finished", 60), (2, "finished", 60)}
    assert store.conn.execute("SELECT count(*) FROM turns").fetchone() == (32 * 60,)
    store.close()
