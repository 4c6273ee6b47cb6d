"""SQLite storage over one file: WAL, a single writer, versioned migrations.

The schema is documented in the README. JSON columns hold observations, actions and
states exactly as the game produced them; untrusted text (prompts, raw replies,
reasons) is stored unchanged. API keys are never stored.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import weakref
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack

import orjson

from arena.store import episode_writes
from arena.store.background_writer import BackgroundWriter, Write, WriterError, run_write, transaction
from arena.store.episode_ids import EpisodeIds
from arena.store.episode_writes import NewEpisode, now
from arena.store.migrations import MIGRATIONS
from arena.store.orphan_writers import process_alive, wait_for_orphans
from arena.store.turn_rows import dumps

if TYPE_CHECKING:  # loaded (with numpy) only when asked for: see Store.db
    import sqlite_utils

    from arena.contract.game import GameDefinition

JSON_COLUMNS = frozenset(
    {"observation", "action", "attempts", "state", "config", "metrics", "sampling", "served"}
)


class StoreError(Exception):
    """The database cannot be opened or written (path, permissions, corruption)."""


BUSY_TIMEOUT_MS = 5000
"""How long a write waits for another connection's lock before it fails."""
BACKGROUND_ENV = "ARENA_BACKGROUND_WRITER"
"""Set to ``0`` to commit turn rows in the playing process instead of a writer process."""


class Store:
    """The one writer of an Arena database file.

    An episode's creation, turn rows and end go to a
    :class:`arena.store.background_writer.BackgroundWriter` (started with the first episode) so
    the episode plays on while SQLite commits; everything else first waits for it (see
    :attr:`conn`), so reads and other writes see every write sent.
    """

    def __init__(self, path: str | Path, *, background: bool | None = None) -> None:
        """Open (creating and migrating as needed) the database at ``path``.

        ``background``: commit episodes through a writer process; by default yes, unless
        the environment sets ``ARENA_BACKGROUND_WRITER=0``.
        """
        self.path = Path(path)
        self.background = os.environ.get(BACKGROUND_ENV, "1") != "0" if background is None else background
        self._writer: BackgroundWriter | None = None
        self._ids = EpisodeIds()
        self.writer_problem = ""
        """Why turns are written in this process although a writer process was wanted."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db: sqlite_utils.Database | None = None
            # On, as when the store opened its connection through sqlite-utils (which sets it).
            self._conn.execute("PRAGMA recursive_triggers=on")
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._migrate()
            self._reap_orphans()
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open database {self.path}: {exc}") from None

    @property
    def conn(self) -> sqlite3.Connection:
        """The underlying connection (autocommit; use :meth:`transaction` to group).

        Waits first until the writer process has committed every write sent to it.
        """
        if self._writer is not None and self._writer.unsynced:
            try:
                self._writer.sync()
            except WriterError as exc:
                raise StoreError(f"{self.path}: {exc}") from None
        return self._conn

    @property
    def db(self) -> sqlite_utils.Database:
        """The connection wrapped by sqlite-utils (after the same wait as :attr:`conn`).

        Made on first use: importing sqlite-utils costs more than opening the file (it
        loads numpy), and the store itself, its migrations included, needs only the
        plain connection.
        """
        self.conn  # noqa: B018 - waits for the writer
        if self._db is None:
            import sqlite_utils

            self._db = sqlite_utils.Database(self._conn)
        return self._db

    @property
    def writer_pid(self) -> int | None:
        """The writer process's id once one has started (see :mod:`arena.store.background_writer`)."""
        return self._writer.pid if self._writer is not None else None

    def close(self) -> None:
        """Commit what the writer holds, stop it, give back unused episode ids and close the connection."""
        writer, self._writer = self._writer, None
        try:
            if writer is not None:
                writer.sync()
        except WriterError as exc:
            raise StoreError(f"{self.path}: {exc}") from None
        finally:
            if writer is not None:
                writer.close()
            with contextlib.suppress(sqlite3.Error):  # left unused, they are only a gap
                self._ids.give_back(self._conn)
            self._conn.close()

    def schema_version(self) -> int:
        """The database's migration level."""
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self) -> None:
        version = self.schema_version()
        if version > len(MIGRATIONS):
            raise StoreError(f"{self.path} was written by a newer Arena (schema {version}); upgrade Arena")
        if version == len(MIGRATIONS):
            return
        # A migration may rebuild a table others refer to: SQLite's procedure for that runs
        # with foreign keys off (the pragma is ignored inside a transaction, hence out here).
        self._conn.execute("PRAGMA foreign_keys=OFF")
        try:
            for number in range(version, len(MIGRATIONS)):
                # Under the write lock, read the version again: another process opening the
                # file at the same time may have run this migration already (running it twice
                # could rebuild a table twice and hand out reserved episode ids again).
                with transaction(self.conn, "BEGIN IMMEDIATE"):
                    if self.schema_version() <= number:
                        MIGRATIONS[number](self._conn)
                        self.conn.execute(f"PRAGMA user_version={number + 1}")
        finally:
            self._conn.execute("PRAGMA foreign_keys=ON")

    def _reap_orphans(self) -> None:
        # An episode still 'running' whose process is gone was interrupted by a crash; first
        # the writer process of a dead one commits what it was handed.
        wait_for_orphans(self.conn)
        rows = self.conn.execute("SELECT id, pid FROM episodes WHERE status='running'").fetchall()
        for episode_id, pid in rows:
            if pid is None or (pid != os.getpid() and not process_alive(pid)):
                self.set_status(episode_id, "aborted", "process ended while the episode was running")
        rows = self.conn.execute("SELECT id, pid FROM tournaments WHERE status='running'").fetchall()
        for tournament_id, pid in rows:
            if pid is None or (pid != os.getpid() and not process_alive(pid)):
                self.finish_tournament(
                    tournament_id, "aborted", "process ended while the tournament was running"
                )

    def transaction(self) -> contextlib.AbstractContextManager[bool]:
        """A context manager grouping writes into one commit.

        See :func:`arena.store.background_writer.transaction`."""
        return transaction(self.conn)

    # -- writes -------------------------------------------------------------------------
    def create_episode(self, **episode: Unpack[NewEpisode]) -> int:
        """Record a running episode and its seats; returns the episode id.

        Each distinct player configuration (``configs``, by seat) is stored once in
        ``player_configs`` and the seat refers to it by hash. The id is one this store
        reserved (:mod:`arena.store.episode_ids`), so the write goes to the writer process like any
        other and the id is known at once.
        """
        try:
            episode_id = self._ids.take(self._conn)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot create an episode in {self.path}: {exc}") from None
        self._run(episode_writes.create_episode(episode_id, **episode))
        return episode_id

    def add_turns(self, columns: tuple[str, ...], rows: Iterable[Sequence[Any]]) -> None:
        """Record one step's turn rows (tuples of ``columns``; see :func:`arena.engine.recorder.turn_row`)."""
        self._run(episode_writes.add_turns(columns, rows))

    def finish_episode(
        self, episode_id: int, status: str, message: str, seats: dict[str, dict[str, Any]]
    ) -> None:
        """Record the final status and each seat's score, metrics and usage."""
        self._run(episode_writes.finish_episode(episode_id, status, message, seats))

    def flush(self) -> None:
        """Wait until the writer process has committed everything handed to it."""
        self.conn  # noqa: B018 - waits for the writer

    def _run(self, write: Write) -> None:
        """Apply one transaction: handed to the writer process when there is one, else here."""
        writer = self._writer
        if writer is None or self._conn.in_transaction:
            writer = self._writer_to_use()
        if writer is None:
            run_write(self.conn, write)
            return
        try:
            writer.submit(write)
        except WriterError as exc:
            raise StoreError(f"{self.path}: {exc}") from None

    def _writer_to_use(self) -> BackgroundWriter | None:
        """The writer process for the next write (started if need be), or ``None`` to write here:
        no writer wanted or possible, or inside a caller's open transaction (which it joins)."""
        if not self.background or self._conn.in_transaction:
            return None
        return self._background_writer()

    def _background_writer(self) -> BackgroundWriter | None:
        if self._writer is None:
            try:
                self._writer = BackgroundWriter(self.path)
            except WriterError as exc:
                # No writer could start (no interpreter to run, no processes allowed): write here.
                self.background = False
                self.writer_problem = str(exc)
                return None
            # A store dropped without close() still lets its writer commit and exit.
            weakref.finalize(self, self._writer.close)
        return self._writer

    def set_status(self, episode_id: int, status: str, message: str = "") -> None:
        """Change an episode's status (used for aborted episodes)."""
        self.conn.execute(episode_writes.SET_STATUS, (status, message, now(), episode_id, episode_id))

    def create_tournament(self, name: str, game: str, config: dict[str, Any]) -> int:
        """Insert a tournament row; returns its id."""
        cursor = self.conn.execute(
            "INSERT INTO tournaments (name, game, config, created_at, pid) VALUES (?,?,?,?,?)",
            (name, game, dumps(config), now(), os.getpid()),
        )
        return int(cursor.lastrowid or 0)

    def finish_tournament(self, tournament_id: int, status: str = "finished", message: str = "") -> None:
        """Record how a run of a tournament ended."""
        self.conn.execute(
            "UPDATE tournaments SET status=?, message=?, finished_at=? WHERE id=?",
            (status, message, now(), tournament_id),
        )

    def set_tournament_status(self, tournament_id: int, status: str) -> None:
        """Mark a tournament as being played by this process (resume)."""
        self.conn.execute(
            "UPDATE tournaments SET status=?, message='', pid=?, finished_at=NULL WHERE id=?",
            (status, os.getpid(), tournament_id),
        )

    def set_tournament_config(self, tournament_id: int, config: dict[str, Any]) -> None:
        """Replace a tournament's stored description (players' configuration hashes added)."""
        self.conn.execute("UPDATE tournaments SET config=? WHERE id=?", (dumps(config), tournament_id))

    def episode(self, episode_id: int) -> dict[str, Any] | None:
        """One episode row (JSON columns decoded), or ``None``."""
        rows = list(self._query("SELECT * FROM episodes WHERE id = ?", (episode_id,)))
        return rows[0] if rows else None

    def tournament(self, tournament_id: int) -> dict[str, Any] | None:
        """One tournament row (config decoded), or ``None``."""
        rows = list(self._query("SELECT * FROM tournaments WHERE id = ?", (tournament_id,)))
        return rows[0] if rows else None

    def tournament_spend(self, tournament_id: int) -> float:
        """Dollars spent by a tournament's ended episodes."""
        row = self.conn.execute(
            "SELECT coalesce(sum(s.cost_usd), 0) FROM seats s JOIN episodes e ON e.id = s.episode_id"
            " WHERE e.tournament_id = ?",
            (tournament_id,),
        ).fetchone()
        return float(row[0])

    def list_tournaments(self, limit: int = 50) -> list[dict[str, Any]]:
        """Recent tournaments, newest first, with finished-episode counts and spend."""
        sql = (
            "SELECT t.*, (SELECT count(*) FROM episodes e WHERE e.tournament_id = t.id"
            " AND e.status = 'finished') AS finished,"
            " (SELECT coalesce(sum(s.cost_usd), 0) FROM seats s JOIN episodes e ON e.id = s.episode_id"
            " WHERE e.tournament_id = t.id) AS spend_usd"
            " FROM tournaments t ORDER BY t.id DESC LIMIT ?"
        )
        return list(self._query(sql, (limit,)))

    def seats(self, episode_id: int) -> list[dict[str, Any]]:
        """An episode's seats in seat order, each with its player's ``config`` (or ``None``)."""
        sql = (
            "SELECT s.*, p.config AS config FROM seats s LEFT JOIN player_configs p ON p.hash = s.config_hash"
            " WHERE s.episode_id = ? ORDER BY s.rowid"
        )
        return list(self._query(sql, (episode_id,)))

    def player_config(self, digest: str) -> dict[str, Any] | None:
        """The stored configuration with this hash, or ``None``."""
        rows = list(self._query("SELECT config FROM player_configs WHERE hash = ?", (digest,)))
        return rows[0]["config"] if rows else None

    def turns(self, episode_id: int, game: GameDefinition | None) -> list[dict[str, Any]]:
        """An episode's turns in order, observations and states included.

        Compact rows (observation and state not stored) are filled in by replaying the
        episode's actions with ``game``, the episode's game as the caller found it (``None``: it
        is not installed, and such rows say so), each proved by its digest
        (:func:`arena.store.episode_log.hydrate`).
        """
        from arena.store.episode_log import hydrate  # replaying loads the game's rules

        rows = self.raw_turns(episode_id)
        episode = self.episode(episode_id) if any(row["observation"] is None for row in rows) else None
        return hydrate(episode, rows, game) if episode is not None else rows

    def raw_turns(self, episode_id: int) -> list[dict[str, Any]]:
        """An episode's turn rows as stored (compact rows hold no observation or state)."""
        return list(self._query("SELECT * FROM turns WHERE episode_id = ? ORDER BY idx", (episode_id,)))

    def list_episodes(
        self,
        *,
        game: str | None = None,
        status: str | None = None,
        player: str | None = None,
        limit: int = 50,
    ) -> list[dict[str, Any]]:
        """Recent episodes, newest first, with a ``players`` summary column."""
        where, params = [], []
        if game:
            where.append("e.game = ?")
            params.append(game)
        if status:
            where.append("e.status = ?")
            params.append(status)
        if player:
            where.append("EXISTS (SELECT 1 FROM seats s2 WHERE s2.episode_id = e.id AND s2.player LIKE ?)")
            params.append(f"%{player}%")
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        # A name that stands for several configurations is shown as name#abcd (its config hash).
        sql = (
            "WITH ambiguous AS"
            " (SELECT player FROM seats GROUP BY player HAVING count(DISTINCT config_hash) > 1)"
            " SELECT e.id, e.game, e.seed, e.status, e.started_at, e.tournament_id,"
            " CASE WHEN e.status = 'running' THEN (SELECT count(*) FROM turns t WHERE t.episode_id = e.id)"
            " ELSE e.turns END AS turns,"
            " (SELECT group_concat(s.seat || '=' || s.player || CASE WHEN s.config_hash IS NOT NULL"
            "  AND s.player IN ambiguous THEN '#' || substr(s.config_hash, 1, 4) ELSE '' END, ' ')"
            "  FROM seats s WHERE s.episode_id = e.id) AS players,"
            " (SELECT group_concat(s.seat || '=' || printf('%.2f', s.score), ' ') FROM seats s"
            "  WHERE s.episode_id = e.id AND s.score IS NOT NULL) AS scores"
            f" FROM episodes e {clause} ORDER BY e.id DESC LIMIT ?"
        )
        return list(self._query(sql, (*params, limit)))

    def _query(self, sql: str, params: tuple[Any, ...]) -> Iterator[dict[str, Any]]:
        cursor = self.conn.execute(sql, params)
        names = [d[0] for d in cursor.description]
        for row in cursor:
            item = dict(zip(names, row, strict=True))
            for key in JSON_COLUMNS.intersection(item):
                if isinstance(item[key], str):
                    item[key] = orjson.loads(item[key])
            yield item
