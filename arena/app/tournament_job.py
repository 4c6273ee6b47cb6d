"""Tournaments the app plays: each an asyncio task on the app's own event loop.

:class:`~arena.tournament.run.TournamentRun` yields to the loop between steps, so the app
awaits it directly (no thread, no second loop) through the app's own store connection.
The app owns each run through :class:`TournamentManager`, so leaving the tournament screen
never stops one. Stopping cancels the task: the run records the episodes in play and the
tournament as ``aborted``, resumable here or with ``arena tournament resume ID``. Nothing
here imports Textual.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from arena.engine.runner import YieldPoint, next_loop_turn
from arena.store.database import Store
from arena.tournament.cluster import executor_for
from arena.tournament.config import TournamentConfig, TournamentConfigError
from arena.tournament.run import (
    TournamentBusy,
    TournamentProgress,
    TournamentRun,
    busy_message,
    create_tournament,
    load_config,
)

__all__ = ["TournamentBusy", "TournamentJob", "TournamentManager", "format_seconds", "progress_line"]


class TournamentJob:
    """One run (first or resumed) of a stored tournament: its progress, error and task."""

    def __init__(self, key: int, run: TournamentRun) -> None:
        self.key = key
        self.run = run
        self.tournament_id = run.tournament_id
        self.config: TournamentConfig = run.config
        self.progress: TournamentProgress = run.progress
        self.status = "starting"
        self.message = ""
        self.error = ""
        self.task: asyncio.Task[None] | None = None
        self.finished_listeners: list[Callable[[TournamentJob], None]] = []
        self.changes = 0
        run.on_progress = self._progress

    @property
    def title(self) -> str:
        """``tournament 3 bargain`` (trusted text only)."""
        return f"tournament {self.tournament_id} {self.config.game}"

    @property
    def running(self) -> bool:
        """True until the run has finished, stopped or failed."""
        return self.task is not None and not self.task.done()

    def status_line(self) -> str:
        """``running · 4/10 episodes · 3.2 ep/s · ETA 2 s · $0.0000`` (trusted text only)."""
        return progress_line(self.status, self.progress)

    def start(self) -> None:
        """Start playing as a task on the running loop."""
        self.status = "running"
        loop = asyncio.get_running_loop()
        self.task = loop.create_task(self._play(), name=f"arena-tournament-{self.tournament_id}")

    async def _play(self) -> None:
        try:
            progress = await self.run.run()
        except asyncio.CancelledError:  # stopped or the app quit: the run recorded ``aborted``
            self.status, self.message = "aborted", self.run.progress.message
            raise
        except Exception as exc:  # a player that cannot play, a provider down: shown, never a crash
            self.status = "failed"
            self.error = f"{type(exc).__name__}: {exc}"
        else:
            self.status, self.message = progress.status, progress.message
        finally:
            self.changes += 1
            for listener in list(self.finished_listeners):
                listener(self)

    def _progress(self, progress: TournamentProgress) -> None:
        self.progress = progress
        self.changes += 1

    def stop(self) -> None:
        """Stop now: the episodes in play and the tournament are recorded as aborted."""
        if self.task is not None and not self.task.done():
            self.task.cancel()

    async def wait(self) -> None:
        """Wait until the run has ended, however it ends."""
        if self.task is not None:
            await asyncio.wait([self.task])


def progress_line(status: str, progress: TournamentProgress) -> str:
    """Status, done/total, rate, ETA and spend on one line (trusted text only)."""
    done = progress.done + progress.given_up
    parts = [status, f"{done}/{progress.total} episodes"]
    if progress.running:
        parts.append(f"{progress.running} in play")
    if progress.rate:
        parts.append(f"{progress.rate:.1f} ep/s")
    eta = progress.eta_seconds
    if status == "running" and eta is not None:
        parts.append(f"ETA {format_seconds(eta)}")
    parts.append(progress.spend_text())
    return " · ".join(parts)


def format_seconds(seconds: float) -> str:
    """``42 s``, ``3 min 5 s`` or ``2 h 10 min``."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


class TournamentManager:
    """Creates, resumes and stops the tournaments this app plays over its store."""

    def __init__(self, store: Store, *, yield_point: YieldPoint = next_loop_turn) -> None:
        self.store = store
        self.jobs: list[TournamentJob] = []
        self.models_config: Any = None
        self.yield_point = yield_point
        """What every episode of these runs awaits between steps (the app's waits while it answers a key)."""

    def create(self, config: TournamentConfig) -> int:
        """Store a new tournament; raises ``TournamentConfigError``/``SpecError`` if it cannot play."""
        return create_tournament(self.store, config)

    def start(self, tournament_id: int, *, cluster: str | None = None) -> TournamentJob:
        """Play the slots tournament ``tournament_id`` is missing (its first run or a resume).

        ``cluster`` (``ray`` or ``ray=ADDRESS``) plays it on a Ray cluster; ``None``: here.

        Raises :class:`TournamentBusy` if it is being played already, and
        :class:`arena.tournament.run.TournamentNotFound` / ``TournamentConfigError`` for a
        tournament that does not exist or was not made as a tournament.
        """
        if self.job_for(tournament_id, running=True) is not None:
            raise TournamentBusy(f"tournament {tournament_id} is already running here")
        config = load_config(self.store, tournament_id)
        other = self.store.tournament_player(
            tournament_id
        )  # the run claims it; said here before a job exists
        if other is not None:
            raise TournamentBusy(busy_message(tournament_id, other))
        run = TournamentRun(
            self.store,
            tournament_id,
            models_config=self.models_config,
            yield_point=self.yield_point,
            executor=executor_for(cluster, config.concurrency),
        )
        if not run.missing():
            raise TournamentConfigError(f"tournament {tournament_id}: every slot is already played")
        job = TournamentJob(len(self.jobs) + 1, run)
        self.jobs.append(job)
        job.start()
        return job

    def job_for(self, tournament_id: int, *, running: bool = False) -> TournamentJob | None:
        """This session's latest run of ``tournament_id`` (only a running one if asked)."""
        for job in reversed(self.jobs):
            if job.tournament_id == tournament_id and (job.running or not running):
                return job
        return None

    def get(self, key: int) -> TournamentJob | None:
        """The run with this key."""
        return next((job for job in self.jobs if job.key == key), None)

    def running(self) -> list[TournamentJob]:
        """Runs still playing."""
        return [job for job in self.jobs if job.running]

    async def stop_all(self) -> None:
        """Stop every run and wait until each has recorded how it ended."""
        for job in self.running():
            job.stop()
        for job in list(self.jobs):
            await job.wait()
