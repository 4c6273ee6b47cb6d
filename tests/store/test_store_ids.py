"""Episode ids: in creation order, whichever store or process creates them, without gaps."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.store.database import Store
from arena.store.migrations import MIGRATIONS
from tests.support.episodes import running_episode

ROOT = str(Path(__file__).resolve().parents[2])


def old_arena_insert(db: Path) -> int:
    """An episode inserted as an older Arena does: the id left to SQLite."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA busy_timeout=5000")
    cursor = conn.execute(
        "INSERT INTO episodes (game, game_version, prompt_version, arena_version, seed, status, started_at)"
        " VALUES ('lemonade', '1', 'p', 'old', 1, 'finished', 'now')"
    )
    conn.close()
    return int(cursor.lastrowid or 0)


def episode_ids(db: Path) -> list[int]:
    conn = sqlite3.connect(db)
    ids = [row[0] for row in conn.execute("SELECT id FROM episodes ORDER BY id")]
    conn.close()
    return ids


def test_ids_follow_creation_order_across_stores_and_are_listed_newest_first(db_path: Path) -> None:
    first, second = Store(db_path), Store(db_path)  # e.g. the app and a tournament in a terminal
    created = [
        running_episode(first),
        running_episode(second),
        old_arena_insert(db_path),
        running_episode(first),
        running_episode(second),
    ]
    assert created == [1, 2, 3, 4, 5]
    first.close()
    second.close()
    store = Store(db_path)
    assert running_episode(store) == 6  # reopening leaves no gap
    assert [row["id"] for row in store.list_episodes()] == [6, 5, 4, 3, 2, 1]
    store.close()


CREATOR = """
import sys
sys.path.insert(0, {root!r})
from arena.engine.recorder import TURN_COLUMNS
from arena.store.database import Store
from tests.support.episodes import running_episode, turn_rows
store = Store({db!r})
ids = []
for _ in range({count}):
    ids.append(running_episode(store))
    for step in range(3):
        store.add_turns(TURN_COLUMNS, turn_rows(ids[-1], step), group=step < 2)
store.close()
print(" ".join(map(str, ids)))
"""


def test_processes_creating_episodes_at_the_same_time_take_the_next_ids_in_turn(db_path: Path) -> None:
    Store(db_path).close()
    code = CREATOR.format(root=ROOT, db=str(db_path), count=150)
    command = [sys.executable, "-c", code]
    creators = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)
    ]
    taken = [old_arena_insert(db_path) for _ in range(40)]
    for creator in creators:
        out, err = creator.communicate()
        assert creator.returncode == 0, err
        ids = [int(word) for word in out.split()]
        assert ids == sorted(ids)  # each process's episodes in the order it created them
        taken += ids
    assert sorted(taken) == episode_ids(db_path) == list(range(1, 3 * 150 + 40 + 1))  # no gap, none twice
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT count(*) FROM turns").fetchone() == (3 * 150 * 6,)
    conn.close()


KILLED_AFTER_CREATING = """
import os, signal, sys
sys.path.insert(0, {root!r})
from arena.store.database import Store
from tests.support.episodes import running_episode
store = Store({db!r})
for _ in range(5):
    running_episode(store)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_crash_leaves_its_episodes_aborted_and_the_next_id_follows_them(db_path: Path) -> None:
    code = KILLED_AFTER_CREATING.format(root=ROOT, db=str(db_path))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr
    store = Store(db_path)
    assert [row["status"] for row in store.list_episodes()] == ["aborted"] * 5
    assert running_episode(store) == 6
    store.close()


def test_an_episode_created_in_a_transaction_that_rolls_back_leaves_its_id_free(db_path: Path) -> None:
    store = Store(db_path)
    with pytest.raises(RuntimeError), store.transaction():
        assert running_episode(store) == 1
        raise RuntimeError("undo")
    assert store.list_episodes() == []
    assert running_episode(store) == 1
    store.close()


def test_a_schema_9_database_drops_its_writer_list_and_gives_ids_above_every_reserved_one(
    db_path: Path,
) -> None:
    conn = sqlite3.connect(db_path, isolation_level=None)
    for migration in MIGRATIONS[:9]:
        migration(conn)
    conn.execute("PRAGMA user_version=9")
    conn.close()
    for _ in range(3):
        old_arena_insert(db_path)
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("UPDATE sqlite_sequence SET seq = 35 WHERE name = 'episodes'")  # a block a crash left unused
    conn.execute("INSERT INTO writers (pid, parent) VALUES (2147483646, 2147483645)")
    conn.close()
    store = Store(db_path)
    assert store.schema_version() == len(MIGRATIONS) == 14
    tables = {row[0] for row in store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "writers" not in tables and {"episodes", "seats", "turns", "tournaments"} <= tables
    assert running_episode(store) == 36  # never an id that a store of schema 9 may have handed out
    assert running_episode(store) == 37
    store.close()


def test_a_schema_6_database_keeps_its_ids_indexes_and_foreign_keys(db_path: Path) -> None:
    conn = sqlite3.connect(db_path, isolation_level=None)
    database = __import__("sqlite_utils").Database(conn)
    for migration in MIGRATIONS[:6]:
        migration(database)
    conn.execute("PRAGMA user_version=6")
    conn.close()
    for _ in range(3):
        old_arena_insert(db_path)
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("DELETE FROM episodes WHERE id = 2")
    conn.execute("INSERT INTO seats (episode_id, seat, player, kind) VALUES (3, 'a', 'p', 'k')")
    conn.close()
    store = Store(db_path)
    assert store.schema_version() == len(MIGRATIONS)
    assert [row["id"] for row in store.list_episodes()] == [3, 1]
    assert [seat["seat"] for seat in store.seats(3)] == ["a"]
    indexes = {row[0] for row in store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"episodes_game", "episodes_tournament", "episodes_slot_counted_once"} <= indexes
    assert store.conn.execute("PRAGMA foreign_keys").fetchone() == (1,)
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        store.conn.execute("INSERT INTO seats (episode_id, seat, player, kind) VALUES (9, 'a', 'p', 'k')")
    assert running_episode(store) == 4
    store.close()
