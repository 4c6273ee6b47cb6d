"""Storage: migrations, WAL, orphaned episodes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from arena.store import MIGRATIONS, Store


def test_a_new_database_is_at_the_latest_schema_in_wal_mode(db_path: Path) -> None:
    store = Store(db_path)
    assert store.schema_version() == len(MIGRATIONS)
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert {"episodes", "seats", "turns", "tournaments"} <= set(store.db.table_names())
    store.close()


def test_an_old_database_is_migrated_in_place(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    MIGRATIONS[0](__import__("sqlite_utils").Database(conn))
    conn.execute("PRAGMA user_version=1")
    conn.execute(
        "INSERT INTO episodes (game, game_version, prompt_version, arena_version, seed, status, started_at)"
        " VALUES ('lemonade', '1.0', 'p', '0.1.0', 1, 'finished', 'now')"
    )
    conn.commit()
    conn.close()
    store = Store(db_path)
    assert store.schema_version() == len(MIGRATIONS)
    assert "prompt_version" in store.db["turns"].columns_dict
    assert store.episode(1) is not None and store.episode(1)["status"] == "finished"  # type: ignore[index]
    store.close()


def test_a_database_from_a_newer_arena_is_refused(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
    conn.close()
    try:
        Store(db_path)
    except Exception as exc:
        assert "newer Arena" in str(exc)
    else:
        raise AssertionError("a newer schema must not be opened")


def running_episode(store: Store) -> int:
    """Insert a running one-seat episode."""
    return store.create_episode(
        game="lemonade",
        game_version="1.0",
        prompt_version="p",
        arena_version="0",
        seed=1,
        config={},
        seats=[("a", "baseline:weather", "baseline")],
    )


def test_running_episodes_of_a_dead_process_are_marked_aborted(db_path: Path) -> None:
    store = Store(db_path)
    episode_id = running_episode(store)
    store.conn.execute("UPDATE episodes SET pid = 2147483646 WHERE id = ?", (episode_id,))
    store.close()
    reopened = Store(db_path)
    episode = reopened.episode(episode_id)
    assert episode is not None and episode["status"] == "aborted"
    assert "process ended" in episode["message"]
    reopened.close()


def test_the_running_process_keeps_its_own_running_episodes(db_path: Path) -> None:
    store = Store(db_path)
    episode_id = running_episode(store)
    second = Store(db_path)  # e.g. the app opening the same file while a match runs
    episode = second.episode(episode_id)
    assert episode is not None and episode["status"] == "running"
    second.close()
    store.close()
