"""SQLite storage over one file: WAL, versioned migrations, one connection per store.

The schema is documented in docs/database.md. JSON columns hold observations, actions and
states exactly as the game produced them; untrusted text (prompts, raw replies,
reasons) is stored unchanged. API keys are never stored.

Commits. A turn that cost something (a model's call, a person's input) is committed before
the runner asks for the next decision; creating an episode and ending it are committed at
once, so an episode that ended is stored whole even if the process dies the moment after.
The turns of scripted players cost nothing and come every few microseconds: those are
grouped, committed when :data:`GROUP_SECONDS` have passed since the last commit (at the next
write), at the episode's end, before any read or other write through the store, and at
close. A crash can lose only the grouped scripted steps of the last few milliseconds; the
episode stays ``running`` with the pid of its dead process, and the next store to open the
file marks it ``aborted``.

Several processes may write one file at once: WAL lets readers read while one writes, and
a writer waits up to :data:`BUSY_TIMEOUT_MS` for another's lock. Episode ids come from
SQLite's ``AUTOINCREMENT`` as each episode is created, so they follow creation order.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack

import orjson

from arena.store import episode_writes
from arena.store.episode_writes import NewEpisode, Write, now
from arena.store.migrations import MIGRATIONS
from arena.store.turn_rows import dumps

if TYPE_CHECKING:  # loaded (with numpy) only when asked for: see Store.db
    from collections.abc import Sequence

    import sqlite_utils

    from arena.contract.game import GameDefinition

JSON_COLUMNS = frozenset(
    {"observation", "action", "attempts", "state", "config", "options", "metrics", "sampling", "served"}
)


SECRET_DEAL = (
    "e.status IN ('running', 'aborted', 'failed')"
    " AND EXISTS (SELECT 1 FROM seats s3 WHERE s3.episode_id = e.id AND s3.kind = 'human')"
)
"""SQL on ``episodes e``: a person's episode that has not ended, whose deal stays secret."""
SCORES_HIDDEN = "hidden until the end"
"""What listings show for the scores of such an episode (:meth:`Store.list_episodes` gives none)."""


CONTAINS = "LIKE ? ESCAPE '\\'"
"""SQL for "contains the text :func:`contains_pattern` was given", case-insensitive for ASCII as LIKE is."""


def contains_pattern(text: str) -> str:
    """A LIKE pattern (for :data:`CONTAINS`) matching ``text`` literally anywhere: ``%`` and ``_``
    in a filter such as ``--player 100%`` are characters, not wildcards."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


INT64_MAX = 2**63 - 1
"""The largest INTEGER SQLite holds: a larger id names nothing, a larger limit is no limit."""


def fits_sqlite(value: int) -> bool:
    """Whether ``value`` can be bound as an SQLite INTEGER (binding a larger one raises OverflowError)."""
    return -INT64_MAX - 1 <= value <= INT64_MAX


class StoreError(Exception):
    """The database cannot be opened or written (path, permissions, corruption, a lock held too long)."""


BUSY_TIMEOUT_MS = 5000
"""How long a write waits for another connection's lock before it fails."""
GROUP_SECONDS = 0.005
"""Longest time since the last commit that a scripted step's turns wait for the next one."""


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One transaction on ``conn``: committed when the block ends, rolled back if it raises.

    Inside the caller's open transaction the block is part of that one instead. It begins
    ``IMMEDIATE``: the write lock is taken at once (waiting for it as ``busy_timeout`` says),
    so a write never meets another's lock halfway.
    """
    outer = not conn.in_transaction
    if outer:
        conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        if outer:
            conn.execute("COMMIT")
    except BaseException:
        if outer and conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


class Store:
    """One connection to an Arena database file, and the writes that record episodes.

    Writes that may wait (a scripted step's turns) are held in this process and committed
    together (see the module docstring); :attr:`conn` commits them first, so every read
    and every other write sees every write made before it. Use a store from one thread at
    a time (a thread that needs the database opens its own store).
    """

    def __init__(self, path: str | Path) -> None:
        """Open (creating and migrating as needed) the database at ``path``."""
        self.path = Path(path)
        self._pending: list[Write] = []
        """Writes not yet committed, in order."""
        self._committed = time.perf_counter()
        """When this store last committed (opening counts: it may have migrated and reaped)."""
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
            from arena.store.integrity import damaged, looks_damaged

            if looks_damaged(exc):
                raise damaged(self.path, str(exc)) from None
            raise StoreError(f"cannot open database {self.path}: {exc}") from None

    def check_integrity(self) -> None:
        """Refuse a damaged file (:class:`arena.store.integrity.DamagedDatabase`, with how to
        recover it) before a table, a report or an export is built from what is left of it."""
        from arena.store.integrity import check_integrity

        check_integrity(self.conn, self.path)

    @property
    def conn(self) -> sqlite3.Connection:
        """The underlying connection (autocommit; use :meth:`transaction` to group).

        Commits the writes still held first.
        """
        if self._pending:
            self.flush()
        return self._conn

    @property
    def db(self) -> sqlite_utils.Database:
        """The connection wrapped by sqlite-utils (after the same commit as :attr:`conn`).

        Made on first use: importing sqlite-utils costs more than opening the file (it
        loads numpy), and the store itself, its migrations included, needs only the
        plain connection.
        """
        self.conn  # noqa: B018 - commits what is held
        if self._db is None:
            import sqlite_utils

            self._db = sqlite_utils.Database(self._conn)
        return self._db

    def close(self) -> None:
        """Commit the writes still held, then close the connection (even if that commit fails)."""
        try:
            self.flush()
        finally:
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
                # could rebuild a table twice).
                with transaction(self._conn):
                    if self.schema_version() <= number:
                        MIGRATIONS[number](self._conn)
                        self._conn.execute(f"PRAGMA user_version={number + 1}")
        finally:
            self._conn.execute("PRAGMA foreign_keys=ON")

    def _reap_orphans(self) -> None:
        # An episode or tournament still 'running' whose process is gone was interrupted by a crash.
        rows = self._conn.execute("SELECT id, pid FROM episodes WHERE status='running'").fetchall()
        for episode_id, pid in rows:
            if pid is None or (pid != os.getpid() and not process_alive(pid)):
                self.set_status(episode_id, "aborted", "process ended while the episode was running")
        rows = self._conn.execute("SELECT id, pid FROM tournaments WHERE status='running'").fetchall()
        for tournament_id, pid in rows:
            if pid is None or (pid != os.getpid() and not process_alive(pid)):
                self.finish_tournament(
                    tournament_id, "aborted", "process ended while the tournament was running"
                )

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        """A context manager grouping writes into one commit (see :func:`transaction`)."""
        return transaction(self.conn)

    # -- writes -------------------------------------------------------------------------
    def create_episode(self, **episode: Unpack[NewEpisode]) -> int:
        """Record a running episode and its seats, committed at once; returns the episode id.

        Each distinct player configuration (``configs``, by seat) is stored once in
        ``player_configs`` and the seat refers to it by hash.
        """
        conn = self.conn
        try:
            with transaction(conn):
                episode_id = episode_writes.create_episode(conn, **episode)
            self._committed = time.perf_counter()
            return episode_id
        except sqlite3.Error as exc:
            raise StoreError(f"cannot create an episode in {self.path}: {exc}") from None

    def add_turns(
        self, columns: tuple[str, ...], rows: Sequence[Sequence[Any]], *, group: bool = False
    ) -> None:
        """Record one step's turn rows (tuples of ``columns``; see :func:`arena.engine.recorder.turn_row`).

        Committed before this returns, unless ``group`` (a scripted step: nothing was paid
        for it) lets it wait for the writes after it, at most :data:`GROUP_SECONDS`
        after the last commit.
        """
        self._pending.append(episode_writes.add_turns(columns, rows))
        if group and time.perf_counter() - self._committed < GROUP_SECONDS and not self._conn.in_transaction:
            return
        self.flush()

    def finish_episode(
        self, episode_id: int, status: str, message: str, seats: dict[str, dict[str, Any]]
    ) -> None:
        """Record the final status and each seat's score, metrics and usage, committed at once
        (with every write still held)."""
        self._pending.append(episode_writes.finish_episode(episode_id, status, message, seats))
        self.flush()

    def flush(self) -> None:
        """Commit the writes still held, in order, in one transaction.

        A write the database refuses does not take the others with it: they are committed
        one by one and each refused one is left out and named in the :class:`StoreError`
        raised. Writes that waited past :data:`BUSY_TIMEOUT_MS` for another connection's
        lock are all kept, for the next commit to try again.
        """
        writes, self._pending = self._pending, []
        if not writes:
            return
        self._committed = time.perf_counter()
        try:
            self._commit(writes)
            return
        except sqlite3.Error as exc:
            if _locked(exc):
                self._pending[:0] = writes
            if _locked(exc) or self._conn.in_transaction or len(writes) == 1:
                raise StoreError(f"a write to {self.path} was not saved: {exc}") from None
        refused = []
        for write in writes:
            try:
                self._commit([write])
            except sqlite3.Error as exc:
                refused.append(exc)
        if refused:
            raise StoreError(
                f"{len(refused)} of {len(writes)} writes to {self.path} were not saved: {refused[0]}"
            )

    def _commit(self, writes: list[Write]) -> None:
        with transaction(self._conn):
            for write in writes:
                for sql, rows in write:
                    self._conn.executemany(sql, rows)

    def reopen_episode(self, episode_id: int) -> None:
        """Mark a stopped episode ``running`` under this process again, its scores cleared (a resume).

        Raises :class:`StoreError` if it is not stopped (another process took it up first).
        """
        try:
            with self.transaction():
                cursor = self._conn.execute(
                    "UPDATE episodes SET status='running', message='', finished_at=NULL, pid=?"
                    " WHERE id=? AND status IN ('aborted', 'failed')",
                    (os.getpid(), episode_id),
                )
                if cursor.rowcount != 1:
                    raise StoreError(f"episode {episode_id} is no longer stopped: another process resumed it")
                self._conn.execute("UPDATE seats SET score=NULL WHERE episode_id=?", (episode_id,))
        except sqlite3.Error as exc:
            raise StoreError(f"cannot resume episode {episode_id} in {self.path}: {exc}") from None
        self._committed = time.perf_counter()

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

    def tournament_player(self, tournament_id: int) -> int | None:
        """The id of another live process playing tournament ``tournament_id``, or ``None``.

        A ``running`` row whose process is gone (killed, crashed) names nobody: it blocks nothing.
        """
        if not fits_sqlite(tournament_id):  # names no tournament (the caller says so)
            return None
        row = self.conn.execute("SELECT status, pid FROM tournaments WHERE id=?", (tournament_id,)).fetchone()
        if row is None or row[0] != "running" or row[1] is None or row[1] == os.getpid():
            return None
        pid = int(row[1])
        return pid if process_alive(pid) else None

    def claim_tournament(self, tournament_id: int) -> int | None:
        """Mark the tournament ``running`` by this process unless another live one plays it; that one's id.

        Read and written under the write lock, so of two processes claiming at once one wins and
        the other is told who did (it plays nothing: two players of one tournament would play
        the same slots twice).
        """
        with self.transaction():
            other = self.tournament_player(tournament_id)
            if other is None:
                self._conn.execute(
                    "UPDATE tournaments SET status='running', message='', pid=?, finished_at=NULL WHERE id=?",
                    (os.getpid(), tournament_id),
                )
        return other

    def set_tournament_config(self, tournament_id: int, config: dict[str, Any]) -> None:
        """Replace a tournament's stored description (players' configuration hashes added)."""
        self.conn.execute("UPDATE tournaments SET config=? WHERE id=?", (dumps(config), tournament_id))

    def episode(self, episode_id: int) -> dict[str, Any] | None:
        """One episode row (JSON columns decoded), or ``None`` (as for an id SQLite cannot hold)."""
        if not fits_sqlite(episode_id):
            return None
        rows = list(self._query("SELECT * FROM episodes WHERE id = ?", (episode_id,)))
        return rows[0] if rows else None

    def deal_is_secret(self, episode_id: int) -> bool:
        """Whether episode ``episode_id`` has a person's seat and has not ended (it may go on).

        Its deal stays secret until then (:mod:`arena.engine.deal_seed`): its seed, and every
        view that shows the hidden numbers (replay, export, compare), wait for the end.
        """
        sql = f"SELECT 1 FROM episodes e WHERE e.id = ? AND {SECRET_DEAL}"
        return self.conn.execute(sql, (episode_id,)).fetchone() is not None

    def tournament(self, tournament_id: int) -> dict[str, Any] | None:
        """One tournament row (config decoded), or ``None`` (as for an id SQLite cannot hold)."""
        if not fits_sqlite(tournament_id):
            return None
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
        limit = min(limit, INT64_MAX)
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

    def turns(
        self, episode_id: int, game: GameDefinition | None, *, observations: bool = True
    ) -> list[dict[str, Any]]:
        """An episode's turns in order, observations and states included.

        Compact rows (observation and state not stored) are filled in by replaying the
        episode's actions with ``game``, the episode's game as the caller found it (``None``: it
        is not installed, and such rows say so), each proved by its digest
        (:func:`arena.store.episode_log.hydrate`). ``observations=False``: a compact row's
        observation may stay ``None`` (only its state is rebuilt, which costs less).
        """
        from arena.store.episode_log import hydrate  # replaying loads the game's rules

        rows = self.raw_turns(episode_id)
        episode = self.episode(episode_id) if any(row["observation"] is None for row in rows) else None
        return hydrate(episode, rows, game, observations=observations) if episode is not None else rows

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
        """Recent episodes, newest first, with a ``players`` summary column.

        ``seed`` and ``scores`` are ``None`` for an episode a person plays that has not ended, or
        stopped before its end and may be resumed: its deal stays secret
        (:mod:`arena.engine.deal_seed`) and its standing hidden until it is over (a score says
        where the hidden deal lies). :meth:`episode` reads the seed.
        """
        where, params = [], []
        if game:
            where.append("e.game = ?")
            params.append(game)
        if status:
            where.append("e.status = ?")
            params.append(status)
        if player:
            where.append(
                f"EXISTS (SELECT 1 FROM seats s2 WHERE s2.episode_id = e.id AND s2.player {CONTAINS})"
            )
            params.append(contains_pattern(player))
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        # A name that stands for several configurations is shown as name#abcd (its config hash).
        sql = (
            "WITH ambiguous AS"
            " (SELECT player FROM seats GROUP BY player HAVING count(DISTINCT config_hash) > 1)"
            " SELECT e.id, e.game,"
            f" CASE WHEN {SECRET_DEAL} THEN NULL ELSE e.seed END AS seed,"
            " e.status, e.started_at, e.tournament_id,"
            " CASE WHEN e.status = 'running' THEN (SELECT count(*) FROM turns t WHERE t.episode_id = e.id)"
            " ELSE e.turns END AS turns,"
            " (SELECT group_concat(s.seat || '=' || s.player || CASE WHEN s.config_hash IS NOT NULL"
            "  AND s.player IN ambiguous THEN '#' || substr(s.config_hash, 1, 4) ELSE '' END, ' ')"
            "  FROM seats s WHERE s.episode_id = e.id) AS players,"
            f" CASE WHEN {SECRET_DEAL} THEN NULL ELSE"
            " (SELECT group_concat(s.seat || '=' || printf('%.2f', s.score), ' ') FROM seats s"
            "  WHERE s.episode_id = e.id AND s.score IS NOT NULL) END AS scores"
            f" FROM episodes e {clause} ORDER BY e.id DESC LIMIT ?"
        )
        return list(self._query(sql, (*params, limit)))

    def seat_players(self, episode_ids: Sequence[int]) -> dict[int, list[tuple[str, str, str]]]:
        """Each episode's seats in seat order as ``(seat, player, mark)``.

        ``mark`` is ``#abcd`` (the start of the configuration hash) for a name that stands for
        several configurations, as :meth:`list_episodes`'s ``players`` column marks it, else ``""``.
        Listings use it to show each player's short name without parsing that column.
        """
        found: dict[int, list[tuple[str, str, str]]] = {int(i): [] for i in episode_ids}
        ids = list(found)
        chunk = 500  # well under SQLite's limit on bound parameters
        for start in range(0, len(ids), chunk):
            part = ids[start : start + chunk]
            sql = (
                "WITH ambiguous AS"
                " (SELECT player FROM seats GROUP BY player HAVING count(DISTINCT config_hash) > 1)"
                " SELECT s.episode_id, s.seat, s.player, CASE WHEN s.config_hash IS NOT NULL"
                "  AND s.player IN ambiguous THEN '#' || substr(s.config_hash, 1, 4) ELSE '' END"
                f" FROM seats s WHERE s.episode_id IN ({', '.join('?' * len(part))}) ORDER BY s.rowid"
            )
            for episode_id, seat, player, mark in self.conn.execute(sql, part):
                found[int(episode_id)].append((str(seat), str(player), str(mark)))
        return found

    def _query(self, sql: str, params: tuple[Any, ...]) -> Iterator[dict[str, Any]]:
        cursor = self.conn.execute(sql, params)
        names = [d[0] for d in cursor.description]
        for row in cursor:
            item = dict(zip(names, row, strict=True))
            for key in JSON_COLUMNS.intersection(item):
                if isinstance(item[key], str):
                    item[key] = orjson.loads(item[key])
            yield item


def _locked(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` says another connection held the lock longer than the busy timeout."""
    return isinstance(exc, sqlite3.OperationalError) and exc.sqlite_errorcode & 0xFF in (
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
    )


def process_alive(pid: int) -> bool:
    """Whether a process with this id runs (an exited one not yet reaped by its parent does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return not Path("/proc/self/stat").exists()  # gone meanwhile, or no /proc: the signal's answer
    except (OSError, IndexError):
        return True
    return state != "Z"
