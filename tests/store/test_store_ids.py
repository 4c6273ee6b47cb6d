"""Episode ids reserved in blocks: never shared with another creator, no rows left by a crash, few gaps."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.store import background_writer
from arena.store.database import Store, StoreError
from arena.store.episode_ids import LARGEST_BLOCK
from arena.store.migrations import MIGRATIONS
from tests.support.episodes import running_episode
from tests.support.processes import wait_until_gone

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


def test_ids_are_known_at_once_and_unused_ones_are_given_back_at_close(db_path: Path) -> None:
    store = Store(db_path)
    assert [running_episode(store) for _ in range(4)] == [1, 2, 3, 4]  # blocks of 1, 2, then 4 ids
    store.close()
    store = Store(db_path)
    assert running_episode(store) == 5  # 5 to 7 were given back: no gap
    store.close()
    assert episode_ids(db_path) == [1, 2, 3, 4, 5]


def test_ids_taken_by_others_after_a_reservation_are_above_it_and_keep_the_gap(db_path: Path) -> None:
    store = Store(db_path)
    mine = [running_episode(store) for _ in range(4)]  # the block 4..7 is reserved, 4 taken
    assert old_arena_insert(db_path) == 8  # an older Arena on the same file: above the block
    other = Store(db_path)
    assert running_episode(other) == 9  # another store reserves above both
    mine.append(running_episode(store))  # the first store goes on inside its own block
    other.close()
    store.close()  # its unused 6 and 7 stay unused: ids were taken after them
    assert mine == [1, 2, 3, 4, 5]
    assert episode_ids(db_path) == [1, 2, 3, 4, 5, 8, 9]
    assert old_arena_insert(db_path) == 10


CREATOR = """
import sys
sys.path.insert(0, {root!r})
from arena.store.database import Store
from tests.support.episodes import running_episode
store = Store({db!r})
ids = [running_episode(store) for _ in range({count})]
store.close()
print(" ".join(map(str, ids)))
"""


def test_processes_creating_episodes_at_the_same_time_never_share_an_id(db_path: Path) -> None:
    Store(db_path).close()
    code = CREATOR.format(root=ROOT, db=str(db_path), count=150)
    command = [sys.executable, "-c", code]
    creators = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)
    ]
    old = [old_arena_insert(db_path) for _ in range(40)]
    taken = list(old)
    for creator in creators:
        out, err = creator.communicate()
        assert creator.returncode == 0, err
        taken += [int(word) for word in out.split()]
    assert len(taken) == 3 * 150 + 40 == len(set(taken))
    assert sorted(taken) == episode_ids(db_path)  # every id given out was written, once


KILLED_AFTER_RESERVING = """
import os, signal, sys
sys.path.insert(0, {root!r})
from arena.store.database import Store
from tests.support.episodes import running_episode
store = Store({db!r})
for _ in range(5):
    running_episode(store)  # blocks of 1, 2 and 4 ids: 6 and 7 reserved, not taken
store.flush()
print(store.writer_pid, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_crash_leaves_no_rows_only_the_rest_of_its_block_unused(db_path: Path) -> None:
    code = KILLED_AFTER_RESERVING.format(root=ROOT, db=str(db_path))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr
    wait_until_gone(int(done.stdout.strip()))
    store = Store(db_path)
    assert episode_ids(db_path) == [1, 2, 3, 4, 5]
    assert [row["status"] for row in store.list_episodes()] == ["aborted"] * 5
    assert running_episode(store) == 8
    store.close()


def test_an_episode_created_in_a_transaction_that_rolls_back_leaves_its_id_free(db_path: Path) -> None:
    store = Store(db_path)
    with pytest.raises(RuntimeError), store.transaction():
        assert running_episode(store) == 1
        raise RuntimeError("undo")
    assert store.list_episodes() == []
    assert running_episode(store) == 1
    store.close()


def test_without_a_writer_process_ids_come_the_same_way(db_path: Path) -> None:
    store = Store(db_path, background=False)
    assert [running_episode(store) for _ in range(3)] == [1, 2, 3]
    assert [row["id"] for row in store.list_episodes()] == [3, 2, 1]
    store.close()
    assert old_arena_insert(db_path) == 4


def test_an_id_that_cannot_be_reserved_is_a_one_line_error(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(background_writer, "LOCK_WAIT_SECONDS", 0.05)
    store = Store(db_path, background=False)
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer never lets go
    try:
        with pytest.raises(StoreError, match=r"cannot create an episode .*locked"):
            running_episode(store)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert running_episode(store) == 1
    store.close()


def test_blocks_grow_to_the_largest_and_no_further(db_path: Path) -> None:
    store = Store(db_path)
    count = 1 + 2 + 4 + 8 + 16 + 2 * LARGEST_BLOCK
    assert [running_episode(store) for _ in range(count)] == list(range(1, count + 1))
    conn = sqlite3.connect(db_path)
    (mark,) = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'episodes'").fetchone()
    conn.close()
    assert mark == count  # the last block was exactly used up: the next is reserved on demand
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
