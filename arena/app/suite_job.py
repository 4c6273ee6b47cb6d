"""Suites the app runs: many seeded deals of one line-up, played by :func:`arena.suite.run_suite`.

``run_suite`` gives its runners no :class:`~arena.runner.RunControl`, and scripted players
answer without awaiting anything, so a suite of baselines never yields to the event loop:
awaited on the app's loop it would freeze the screen until the last deal (about 1.5 ms
per bargain episode, 7 ms per 30-day lemonade episode). Until ``run_suite`` takes a
control (or yields between episodes), each suite plays on a worker thread with its own
event loop and its own connection to the app's database file: SQLite in WAL mode lets two
connections take turns writing, whereas one connection shared by two threads would mix
their transactions. The app still owns each suite through an asyncio task that awaits the
thread. Stopping sets a flag that the progress callback turns into a cancellation after
the episode in play (and cancels the thread's task for players that do await), so the
tournament is recorded as aborted. Nothing here imports Textual.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.events import EpisodeStarted, Event
from arena.store import Store
from arena.suite import SuiteReport, run_suite


@dataclass
class SuiteConfig:
    """What a suite plays: game, seat line-up (specs), deals, seed and game options."""

    game: str
    players: dict[str, str]
    n: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def lineup(self) -> str:
        """``baseline:honest vs baseline:pushover`` (player specs: untrusted text)."""
        return " vs ".join(self.players.values())


class SuiteJob:
    """One suite the app started: its progress, its report or its error, and its task."""

    def __init__(self, key: int, config: SuiteConfig, db_path: Path) -> None:
        self.key = key
        self.config = config
        self.db_path = db_path
        self.status = "starting"
        self.done = 0
        self.total = 0
        self.tournament_id: int | None = None
        self.report: SuiteReport | None = None
        self.error = ""
        self.task: asyncio.Task[None] | None = None
        self.finished_listeners: list[Callable[[SuiteJob], None]] = []
        self._stop = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._inner: asyncio.Task[Any] | None = None

    @property
    def title(self) -> str:
        """``suite #2 bargain`` (trusted text only)."""
        return f"suite #{self.key} {self.config.game}"

    @property
    def running(self) -> bool:
        """True until the suite has finished, failed or stopped."""
        return self.task is not None and not self.task.done()

    def status_line(self) -> str:
        """``running · 4/10 episodes`` (trusted text only)."""
        total = f"/{self.total}" if self.total else ""
        return f"{self.status} · {self.done}{total} episodes"

    def start(self) -> None:
        """Start playing on a worker thread, owned by a task on the running loop."""
        self.status = "running"
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"arena-suite-{self.key}")

    async def _run(self) -> None:
        try:
            report = await asyncio.to_thread(self._play)
        except asyncio.CancelledError:  # the app's task was cancelled: stop the thread too
            self.stop()
            self.status = "aborted"
            raise
        except Exception as exc:  # a bad line-up or a player that cannot play: show it, never crash
            self.status = "failed"
            self.error = f"{type(exc).__name__}: {exc}"
        else:
            if report is None:
                self.status = "aborted"
            else:
                self.report = report
                self.status = report.status
                self.tournament_id = report.tournament_id
        finally:
            for listener in list(self.finished_listeners):
                listener(self)

    def _play(self) -> SuiteReport | None:
        """The worker thread: a loop and a connection of its own; ``None`` once stopped."""
        store = Store(self.db_path)
        try:
            return asyncio.run(self._suite(store))
        except asyncio.CancelledError:
            return None
        finally:
            store.close()

    async def _suite(self, store: Store) -> SuiteReport:
        self._loop = asyncio.get_running_loop()
        self._inner = asyncio.current_task()
        if self._stop.is_set():
            raise asyncio.CancelledError
        config = self.config
        return await run_suite(
            store,
            config.game,
            config.players,
            n=config.n,
            seed=config.seed,
            options=config.options,
            observers=[self._observe],
            progress=self._progress,
        )

    def _observe(self, event: Event) -> None:
        if isinstance(event, EpisodeStarted) and event.tournament_id is not None:
            self.tournament_id = event.tournament_id

    def _progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        if self._stop.is_set():
            raise asyncio.CancelledError  # run_suite records the tournament as aborted

    def stop(self) -> None:
        """Stop after the episode in play; the suite is recorded as aborted."""
        self._stop.set()
        loop, inner = self._loop, self._inner
        if loop is not None and inner is not None:
            with contextlib.suppress(RuntimeError):  # the thread's loop has already closed
                loop.call_soon_threadsafe(inner.cancel)

    async def wait(self) -> None:
        """Wait until the suite has ended, however it ends."""
        if self.task is not None:
            await asyncio.wait([self.task])


class SuiteManager:
    """Starts suites over the app's database file and stops them all when the app quits."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self.jobs: list[SuiteJob] = []

    def start(self, config: SuiteConfig) -> SuiteJob:
        """Start ``config`` (a bad line-up shows up as the job's error)."""
        job = SuiteJob(len(self.jobs) + 1, config, self.db_path)
        self.jobs.append(job)
        job.start()
        return job

    def get(self, key: int) -> SuiteJob | None:
        """The suite with this key."""
        return next((job for job in self.jobs if job.key == key), None)

    def running(self) -> list[SuiteJob]:
        """Suites still playing."""
        return [job for job in self.jobs if job.running]

    async def stop_all(self) -> None:
        """Stop every running suite and wait until each has recorded how it ended."""
        for job in self.running():
            job.stop()
        for job in list(self.jobs):
            await job.wait()
