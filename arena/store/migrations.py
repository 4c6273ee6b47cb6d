"""The database schema's history: append-only migrations, one per ``user_version``.

Migration N brings a database from ``user_version`` N-1 to N. A database written by any
earlier Arena opens, migrates in place and exports the same.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from typing import Any, Protocol


class Database(Protocol):
    """What a migration runs its SQL on: the store's ``sqlite3`` connection.

    Migrations only execute statements, so opening (even creating) a database needs
    neither sqlite-utils nor the numpy it loads; a ``sqlite_utils.Database`` runs them too.
    """

    def execute(self, sql: str, /) -> Any:
        """Run one statement."""


Migration = Callable[[Database], None]


def _script(db: Database, sql: str) -> None:
    """Run ``sql``'s statements one at a time, inside the store's transaction.

    ``sqlite3``'s ``executescript`` would commit that transaction first; this splits the
    script where sqlite-utils' ``executescript`` does (at each end of a complete statement).
    """
    for statement in _statements(sql):
        db.execute(statement)


def _statements(sql: str) -> Iterator[str]:
    start = 0
    for end, char in enumerate(sql):
        if char == ";" and sqlite3.complete_statement(sql[start : end + 1]):
            yield sql[start : end + 1].strip()
            start = end + 1
    if sql[start:].strip():
        yield sql[start:].strip()


def _v1(db: Database) -> None:
    _script(
        db,
        """
        CREATE TABLE IF NOT EXISTS tournaments (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            game TEXT NOT NULL,
            config TEXT NOT NULL DEFAULT '{}',
            status TEXT NOT NULL DEFAULT 'running',
            created_at TEXT NOT NULL,
            finished_at TEXT
        );
        CREATE TABLE IF NOT EXISTS episodes (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            game_version TEXT NOT NULL,
            prompt_version TEXT NOT NULL,
            arena_version TEXT NOT NULL,
            seed INTEGER NOT NULL,
            config TEXT NOT NULL DEFAULT '{}',
            status TEXT NOT NULL,
            message TEXT NOT NULL DEFAULT '',
            started_at TEXT NOT NULL,
            finished_at TEXT,
            turns INTEGER NOT NULL DEFAULT 0,
            pid INTEGER,
            tournament_id INTEGER REFERENCES tournaments(id)
        );
        CREATE INDEX IF NOT EXISTS episodes_game ON episodes(game, started_at);
        CREATE TABLE IF NOT EXISTS seats (
            episode_id INTEGER NOT NULL REFERENCES episodes(id),
            seat TEXT NOT NULL,
            player TEXT NOT NULL,
            kind TEXT NOT NULL,
            score REAL,
            metrics TEXT NOT NULL DEFAULT '{}',
            input_tokens INTEGER NOT NULL DEFAULT 0,
            output_tokens INTEGER NOT NULL DEFAULT 0,
            cost_usd REAL NOT NULL DEFAULT 0,
            PRIMARY KEY (episode_id, seat)
        );
        CREATE INDEX IF NOT EXISTS seats_player ON seats(player);
        CREATE TABLE IF NOT EXISTS turns (
            episode_id INTEGER NOT NULL REFERENCES episodes(id),
            idx INTEGER NOT NULL,
            step INTEGER NOT NULL,
            seat TEXT NOT NULL,
            observation TEXT NOT NULL,
            prompt TEXT,
            raw TEXT NOT NULL DEFAULT '',
            action TEXT NOT NULL,
            action_text TEXT NOT NULL DEFAULT '',
            reason TEXT NOT NULL DEFAULT '',
            valid INTEGER NOT NULL,
            fallback INTEGER NOT NULL,
            error TEXT,
            error_detail TEXT NOT NULL DEFAULT '',
            attempts TEXT NOT NULL DEFAULT '[]',
            input_tokens INTEGER NOT NULL DEFAULT 0,
            output_tokens INTEGER NOT NULL DEFAULT 0,
            cached_tokens INTEGER NOT NULL DEFAULT 0,
            reasoning_tokens INTEGER NOT NULL DEFAULT 0,
            cost_usd REAL NOT NULL DEFAULT 0,
            latency REAL NOT NULL DEFAULT 0,
            state TEXT NOT NULL,
            PRIMARY KEY (episode_id, idx)
        );
        """,
    )


def _v2(db: Database) -> None:
    db.execute("ALTER TABLE turns ADD COLUMN prompt_version TEXT")


def _v3(db: Database) -> None:
    _script(
        db,
        """
        CREATE TABLE IF NOT EXISTS player_configs (
            hash TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            kind TEXT NOT NULL,
            config TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        ALTER TABLE seats ADD COLUMN config_hash TEXT REFERENCES player_configs(hash);
        CREATE INDEX IF NOT EXISTS seats_config ON seats(config_hash);
        ALTER TABLE turns ADD COLUMN sampling TEXT;
        """,
    )


def _v4(db: Database) -> None:
    # Tournaments: each episode names its schedule slot; a slot counts once, ever.
    _script(
        db,
        """
        ALTER TABLE episodes ADD COLUMN slot_key TEXT;
        CREATE INDEX IF NOT EXISTS episodes_tournament ON episodes(tournament_id, slot_key);
        CREATE UNIQUE INDEX IF NOT EXISTS episodes_slot_counted_once
            ON episodes(tournament_id, slot_key) WHERE status = 'finished' AND slot_key IS NOT NULL;
        ALTER TABLE tournaments ADD COLUMN message TEXT NOT NULL DEFAULT '';
        ALTER TABLE tournaments ADD COLUMN pid INTEGER;
        """,
    )


_TURN_COLUMNS_V4 = (
    "episode_id, idx, step, seat, observation, prompt, prompt_version, raw, action, action_text, reason,"
    " valid, fallback, error, error_detail, attempts, input_tokens, output_tokens, cached_tokens,"
    " reasoning_tokens, cost_usd, latency, state, sampling"
)


def _v5(db: Database) -> None:
    # Compact turns: observation and state may be NULL (rebuilt from the log on read, proved
    # by ``digest``); an action whose reason repeats the reason column stores it once; the
    # table is keyed by (episode_id, idx) alone (WITHOUT ROWID: no second index to keep).
    # Rows written before keep their observation and state and export as they did.
    db.execute(
        """
        CREATE TABLE turns_v5 (
            episode_id INTEGER NOT NULL REFERENCES episodes(id),
            idx INTEGER NOT NULL,
            step INTEGER NOT NULL,
            seat TEXT NOT NULL,
            observation TEXT,
            prompt TEXT,
            prompt_version TEXT,
            raw TEXT NOT NULL DEFAULT '',
            action TEXT NOT NULL,
            action_text TEXT NOT NULL DEFAULT '',
            reason TEXT NOT NULL DEFAULT '',
            valid INTEGER NOT NULL,
            fallback INTEGER NOT NULL,
            error TEXT,
            error_detail TEXT NOT NULL DEFAULT '',
            attempts TEXT NOT NULL DEFAULT '[]',
            input_tokens INTEGER NOT NULL DEFAULT 0,
            output_tokens INTEGER NOT NULL DEFAULT 0,
            cached_tokens INTEGER NOT NULL DEFAULT 0,
            reasoning_tokens INTEGER NOT NULL DEFAULT 0,
            cost_usd REAL NOT NULL DEFAULT 0,
            latency REAL NOT NULL DEFAULT 0,
            state TEXT,
            sampling TEXT,
            digest INTEGER,
            reason_in_action INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (episode_id, idx)
        ) WITHOUT ROWID
        """
    )
    db.execute(f"INSERT INTO turns_v5 ({_TURN_COLUMNS_V4}) SELECT {_TURN_COLUMNS_V4} FROM turns")
    db.execute("DROP TABLE turns")
    db.execute("ALTER TABLE turns_v5 RENAME TO turns")


def _v6(db: Database) -> None:
    # Input tokens written to a provider's prompt cache (Anthropic bills them at 1.25x input):
    # per turn, and per seat beside its other episode totals. Older rows read 0.
    _script(
        db,
        """
        ALTER TABLE turns ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE seats ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0;
        """,
    )


_EPISODE_COLUMNS = (
    "id, game, game_version, prompt_version, arena_version, seed, config, status, message, started_at,"
    " finished_at, turns, pid, tournament_id, slot_key"
)


def _v7(db: Database) -> None:
    # Episode ids by AUTOINCREMENT: a store of schemas 7-9 reserved a block of ids by raising the
    # table's high-water mark in sqlite_sequence, and every other creator (another process, an
    # older Arena still running on the file) was given ids above it. Since schema 10 every
    # episode takes the next id as it is inserted; AUTOINCREMENT still never gives an id twice.
    # The table is rebuilt with the same columns in the same order and the same ids; the
    # store runs migrations with foreign keys off, as SQLite's procedure for this asks.
    db.execute(
        """
        CREATE TABLE episodes_v7 (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game TEXT NOT NULL,
            game_version TEXT NOT NULL,
            prompt_version TEXT NOT NULL,
            arena_version TEXT NOT NULL,
            seed INTEGER NOT NULL,
            config TEXT NOT NULL DEFAULT '{}',
            status TEXT NOT NULL,
            message TEXT NOT NULL DEFAULT '',
            started_at TEXT NOT NULL,
            finished_at TEXT,
            turns INTEGER NOT NULL DEFAULT 0,
            pid INTEGER,
            tournament_id INTEGER REFERENCES tournaments(id),
            slot_key TEXT
        )
        """
    )
    db.execute(f"INSERT INTO episodes_v7 ({_EPISODE_COLUMNS}) SELECT {_EPISODE_COLUMNS} FROM episodes")
    db.execute("DROP TABLE episodes")
    db.execute("ALTER TABLE episodes_v7 RENAME TO episodes")
    # One statement at a time: executescript would commit the store's transaction first.
    db.execute("CREATE INDEX episodes_game ON episodes(game, started_at)")
    db.execute("CREATE INDEX episodes_tournament ON episodes(tournament_id, slot_key)")
    db.execute(
        "CREATE UNIQUE INDEX episodes_slot_counted_once ON episodes(tournament_id, slot_key)"
        " WHERE status = 'finished' AND slot_key IS NOT NULL"
    )


def _v8(db: Database) -> None:
    # Running writer processes and their parents: a store opening the file waited for the
    # writers of a dead process to commit what they were handed (dropped by migration 10).
    db.execute("CREATE TABLE writers (pid INTEGER PRIMARY KEY, parent INTEGER NOT NULL)")


def _v9(db: Database) -> None:
    # What the provider said served a model turn (its model id and system_fingerprint, an
    # offline model's file and digest), as JSON, on a seat's first such turn of an episode and
    # whenever it changes; NULL otherwise. Older turns read NULL: nothing was recorded.
    db.execute("ALTER TABLE turns ADD COLUMN served TEXT")


def _v10(db: Database) -> None:
    # Writes are committed by the playing process itself now: there are no writer processes
    # to list (migration 8's table). Ids still come from migration 7's AUTOINCREMENT, one
    # episode at a time; ids a store of schema 7-9 reserved and never used are only a gap.
    db.execute("DROP TABLE IF EXISTS writers")


def _v11(db: Database) -> None:
    # The column holds an episode's game options (``--option days=30``), not a player's
    # configuration (``player_configs.config``) nor a tournament's (``tournaments.config``):
    # named for what it holds. Indexes do not name it, so the rename is all there is.
    db.execute("ALTER TABLE episodes RENAME COLUMN config TO options")


def _v12(db: Database) -> None:
    # A model reply that held several different answers, of which the last was played
    # ("I considered {...} ... final answer: {...}"). Older turns read NULL: the first object
    # was played then, and no one counted revisions.
    db.execute("ALTER TABLE turns ADD COLUMN revised INTEGER")


def _v13(db: Database) -> None:
    # The system message a model turn was sent, verbatim, on a seat's first turn of an episode
    # and when it changes (a report hashes the bytes actually sent). Older turns read NULL: unknown.
    db.execute("ALTER TABLE turns ADD COLUMN system TEXT")


def _v14(db: Database) -> None:
    # The thinking a reasoning model returned beside its reply (issue 49), apart from the stated
    # reason. Older turns read NULL: none was kept.
    db.execute("ALTER TABLE turns ADD COLUMN thinking TEXT")


MIGRATIONS: list[Migration] = [_v1, _v2, _v3, _v4, _v5, _v6, _v7, _v8, _v9, _v10, _v11, _v12, _v13, _v14]
"""Append-only. Migration N brings a database from ``user_version`` N-1 to N."""
