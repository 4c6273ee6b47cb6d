"""Storage: migrations, WAL, orphaned episodes."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from arena.contract.playerconfig import config_hash
from arena.engine.export import export_episode
from arena.store.database import Store
from arena.store.migrations import MIGRATIONS
from tests.support.episodes import running_episode, stored_turns


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


DATA = Path(__file__).parents[1] / "data"


def renamed_options(document: dict[str, Any]) -> None:
    """An export written before migration 11, as it exports now: the episode's ``config`` is ``options``.

    Migration 11 renamed the column to what it holds (the game options); the export names
    it the same. Nothing else about the document changes.
    """
    episode = document["episode"]
    episode["options"] = episode.pop("config")


def test_a_database_written_before_player_configs_opens_and_exports_the_same(tmp_path: Path) -> None:
    # schema_v2.db and its export were written by the code of the previous schema (user_version 2).
    db = tmp_path / "old.db"
    shutil.copy(DATA / "schema_v2.db", db)
    expected = json.loads((DATA / "schema_v2_export.json").read_text())
    store = Store(db)
    assert store.schema_version() == len(MIGRATIONS) > 2
    for episode_id, document in expected.items():
        for turn in document["turns"]:  # migration 6's column: every older turn wrote nothing to a cache
            turn["usage"]["cache_write_tokens"] = 0
        renamed_options(document)
        assert json.loads(json.dumps(export_episode(store, int(episode_id)))) == document
    assert all(seat["config"] is None for seat in store.seats(1))
    store.close()


def test_a_schema_5_database_migrates_and_exports_its_turns_with_no_cache_writes(tmp_path: Path) -> None:
    # schema_v5.db (a lemonade episode with a model seat that read 1,024 cached tokens, and a
    # bargain episode) and its export were written by the code of schema 5 (commit 1b297e1).
    db = tmp_path / "old.db"
    shutil.copy(DATA / "schema_v5.db", db)
    expected = json.loads((DATA / "schema_v5_export.json").read_text())
    store = Store(db)
    assert store.schema_version() == len(MIGRATIONS) == 14
    columns = [row[1] for row in store.conn.execute("PRAGMA table_info(episodes)")]
    assert "options" in columns and "config" not in columns
    for episode_id, document in expected.items():
        renamed_options(document)
        exported = json.loads(json.dumps(export_episode(store, int(episode_id))))
        assert [turn["usage"].pop("cache_write_tokens") for turn in exported["turns"]] == [0] * len(
            document["turns"]
        )
        assert exported == document
    assert [seat["cache_write_tokens"] for seat in store.seats(1)] == [0, 0]
    model_turns = [t for t in stored_turns(store, 1) if t["input_tokens"]]
    assert [(t["cached_tokens"], t["cache_write_tokens"]) for t in model_turns] == [(0, 0), (1024, 0)]
    store.close()


def test_each_distinct_configuration_is_stored_once_and_seats_refer_to_it(db_path: Path) -> None:
    store = Store(db_path)
    cold = {"kind": "model", "name": "m", "temperature": 0.2}
    hot = {"kind": "model", "name": "m", "temperature": 0.9}
    common = dict(
        game="lemonade", game_version="1", prompt_version="p", arena_version="0", seed=1, options={}
    )
    seats = [("a", "m", "model"), ("b", "m", "model")]
    first = store.create_episode(**common, seats=seats, configs={"a": cold, "b": cold})  # type: ignore[arg-type]
    second = store.create_episode(**common, seats=seats, configs={"a": cold, "b": hot})  # type: ignore[arg-type]
    rows = store.conn.execute("SELECT hash, name, kind FROM player_configs ORDER BY rowid").fetchall()
    assert [(name, kind) for _, name, kind in rows] == [("m", "model"), ("m", "model")]
    assert {row[0] for row in rows} == {config_hash(cold), config_hash(hot)}
    assert [s["config"] for s in store.seats(first)] == [cold, cold]
    assert [s["config_hash"] for s in store.seats(second)] == [config_hash(cold), config_hash(hot)]
    assert store.player_config(config_hash(hot)) == hot
    document = export_episode(store, second)
    assert document["seats"][1]["config"] == hot and document["seats"][1]["config_hash"] == config_hash(hot)
    listed = {row["id"]: row["players"] for row in store.list_episodes()}
    cold_label, hot_label = f"m#{config_hash(cold)[:4]}", f"m#{config_hash(hot)[:4]}"
    assert listed == {first: f"a={cold_label} b={cold_label}", second: f"a={cold_label} b={hot_label}"}
    store.close()
