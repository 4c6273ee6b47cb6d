"""The Ray executor: episodes play on the head, offline models' decisions on a cluster's workers.

What runs remotely is one decision, not a whole episode. The head (this process) keeps the
one SQLite store and the schedule and steps every episode itself, as the local executor
does, so each turn is recorded here the moment its step ends, and progress, spend and the
live leaderboard need nothing new. Only the players that compute in-process
(:meth:`Player.cluster_work`, the offline models) are sent away: each gets ``replicas``
long-lived worker actors that load it once and answer one decision at a time, so its
``max_concurrency`` holds across the cluster. Game steps and scripted players cost the head
microseconds; a model's decision costs seconds: the figures are in bench/ray_executor.py.

Faults: a decision whose worker dies (killed, its node removed, out of memory) is asked
again of another worker of the same player, with the same request and so the same seed,
and the head's copy of the player as it was built: a deterministic player gives the same
reply, and nothing was recorded for it yet, so nothing is counted twice. That copy is the
same player only for a seat's first decision or a player that decides from the request
alone (:meth:`Player.decides_from_request_alone`: an offline model without transcript
memory); a seat whose player its earlier decisions changed (a memory, a random generator)
ends its episode ``lost`` instead, and the run plays it again whole (not counted against the
slot's retries, up to :data:`arena.tournament.run.LOST_REPLAYS` times). Ray restarts dead
workers (on another node when theirs is gone); a worker answers with its process id, so the
seats a restarted worker took on since are not taken for lost. An episode that ends while
one of its seats' decisions is still asked (another seat failed) releases that seat when
the decision lands, never leaving the worker holding it. Any other Ray error ends the episode
``failed`` too (never a fallback that would count), and the run plays it again as it does
any failed slot. A head killed outright leaves its episodes
``running``; ``arena tournament resume`` replays them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import sys
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import ray
from pydantic import BaseModel
from ray.exceptions import ObjectLostError, RayActorError, RayError, WorkerCrashedError

from arena.contract.player import (
    ClusterWork,
    Decision,
    DecisionRequest,
    FatalPlayerError,
    Player,
    PlayerSetupError,
    SeatLostError,
)
from arena.plugins.games import get_game
from arena.tournament.cluster import ClusterError, check_reachable
from arena.tournament.run import play_concurrently
from arena.tournament.schedule import Slot

LOCAL_OBJECT_STORE_BYTES = 128 * 2**20
"""Object store of a Ray instance started for one run: decisions are kilobytes, models load from disk."""
LOST = (RayActorError, ObjectLostError, WorkerCrashedError)
"""What a decision raises when its worker (or the worker's node) died under it."""
MAX_REPLAYS = 20
"""Times one decision is asked again after losing its worker before the player is given up on."""
REPLAY_PAUSE = 0.2
"""Seconds between replays of a decision, so a restarting worker has time to come back."""
_SEAT_KEYS = itertools.count(1)


@dataclass(frozen=True)
class _Prompt:
    """A request's ``render_prompt`` that can travel: renders on the worker only if the player asks."""

    game: str
    observation: BaseModel
    rules: str
    rendered: str | None = None

    def __call__(self) -> str:
        if self.rendered is not None:
            return self.rendered
        return get_game(self.game).prompt(self.observation, self.rules)


def portable(request: DecisionRequest) -> DecisionRequest:
    """``request`` without what ties it to this process's game state.

    ``check``, ``caution``, ``entry_note`` and ``form_choices`` serve a person's form; a model
    never calls them.
    """
    render = _Prompt(request.game, request.observation, request.rules, request.prompt_if_rendered())
    return replace(
        request, render_prompt=render, check=None, caution=None, entry_note=None, form_choices=None
    )


@ray.remote
class SeatHost:
    """One worker of one tournament player: loads it once, answers its decisions one at a time.

    Each seat of each episode plays with its own player object (its seed and memory), sent
    with the seat's first decision on this worker and dropped when its episode ends.
    """

    def __init__(self, template: Player) -> None:
        self.template = template
        self.ready = False
        self.players: dict[str, Player] = {}

    async def prepare(self) -> int:
        """Load the player (a model: once in this process); returns the worker's process id."""
        if not self.ready:
            await self.template.prepare()
            self.ready = True
        return os.getpid()

    async def decide(
        self, key: str, player: Player | None, request: DecisionRequest
    ) -> tuple[str, Any, Any, int]:
        """``("decided", decision, prompt, pid)``, ``("raised", exception, None, pid)`` or
        ``("missing", ...)``; ``pid`` is this worker's process (a restarted worker answers from another).

        ``missing``: this worker does not hold seat ``key`` (it was restarted): send the player again.
        """
        pid = await self.prepare()
        seated = self.players.get(key)
        if seated is None:
            if player is None:
                return "missing", None, None, pid
            await player.prepare()
            seated = self.players[key] = player
        try:
            decision = await seated.decide(request)
        except Exception as exc:  # raised again on the head, as the player raised it
            return "raised", exc, None, pid
        return "decided", decision, request.prompt_if_rendered(), pid

    async def drop(self, key: str) -> None:
        """Forget seat ``key`` (its episode ended)."""
        player = self.players.pop(key, None)
        if player is not None:
            await player.close()

    async def close(self) -> None:
        """Release every player held."""
        for key in list(self.players):
            await self.drop(key)
        await self.template.close()


@dataclass
class ReplicaPool:
    """The workers of one tournament player, and which seat each episode's decisions go to.

    A seat keeps its worker for the episode (a player with memory keeps its transcript there);
    a new seat goes to the worker with the fewest seats. Each worker's seats are noted with
    the process that holds their players, so a restarted worker (a new process) tells which
    seats it forgot, and only those.
    """

    text: str
    work: ClusterWork
    handles: list[Any]
    pins: dict[str, int] = field(default_factory=dict)
    holds: list[dict[str, int]] = field(default_factory=list)
    """Per worker: the seats whose players it holds, each with the process that holds it."""
    answered_from: list[int | None] = field(default_factory=list)
    """Per worker: the process it last answered from."""
    forgotten: set[str] = field(default_factory=set)
    """Seats whose player lived on a worker that was lost: what their earlier decisions left is gone."""
    asking: set[str] = field(default_factory=set)
    """Seats with a decision in flight."""
    ended: set[str] = field(default_factory=set)
    """Seats whose episode ended while a decision was in flight (released once it lands)."""
    replays: int = 0
    """Decisions asked again after their worker was lost (for tests and the bench)."""

    def __post_init__(self) -> None:
        self.holds = [{} for _ in self.handles]
        self.answered_from = [None for _ in self.handles]

    def _pin(self, key: str, avoid: int | None = None) -> int:
        index = self.pins.get(key)
        if index is None:
            load = [sum(1 for pin in self.pins.values() if pin == at) for at in range(len(self.handles))]
            order = sorted(range(len(self.handles)), key=lambda at: (at == avoid, load[at], at))
            index = self.pins[key] = order[0]
        return index

    def _forget(self, index: int, keys: Iterable[str]) -> None:
        """Seats ``keys`` of worker ``index`` forgot their players (the process holding them is gone)."""
        for key in list(keys):
            del self.holds[index][key]
            self.forgotten.add(key)

    def _died(self, index: int, pid: int) -> None:
        """Worker ``index``'s process ``pid`` died: the seats it held forgot their players."""
        self._forget(index, (key for key, held_in in self.holds[index].items() if held_in == pid))

    def _answered(self, index: int, pid: int) -> None:
        """Worker ``index`` answered from process ``pid``: seats held by an earlier process are gone."""
        if self.answered_from[index] != pid:
            self._forget(index, (key for key, held_in in self.holds[index].items() if held_in != pid))
            self.answered_from[index] = pid

    def _resume(self, key: str, player: Player, request: DecisionRequest) -> None:
        """Let a fresh copy of a seat's player go on, or end the episode if it would decide otherwise."""
        if key not in self.forgotten:
            return
        if not player.decides_from_request_alone(request):
            raise SeatLostError(
                f"{self.text}: the worker holding this seat's player was lost mid-episode, and a fresh"
                " copy would not decide as it would have (its earlier decisions changed it): the"
                " episode is played again"
            )
        self.forgotten.discard(key)

    async def decide(self, key: str, player: Player, request: DecisionRequest) -> Decision:
        """Ask seat ``key``'s worker; on losing it, ask another with the same request.

        The other worker gets the head's copy of the player, as it was built: that is the same
        player only for a seat's first decision or a player that decides from the request alone
        (:meth:`Player.decides_from_request_alone`); any other seat's episode ends ``lost``, to be
        played again whole by the run.
        """
        self.asking.add(key)
        try:
            return await self._ask(key, player, portable(request), request)
        finally:
            self.asking.discard(key)
            if key in self.ended:  # its episode ended meanwhile: the worker may forget the seat
                self.release(key)

    async def _ask(
        self, key: str, player: Player, sent: DecisionRequest, request: DecisionRequest
    ) -> Decision:
        avoid: int | None = None
        for _ in range(MAX_REPLAYS):
            if key in self.ended:  # its episode ended while this decision was being asked again
                raise FatalPlayerError(f"{self.text}: the episode ended")
            self._resume(key, player, request)
            index = self._pin(key, avoid)
            handle = self.handles[index]
            carried = None if key in self.holds[index] else player
            asked_from = self.answered_from[index]
            try:
                status, value, prompt, pid = await handle.decide.remote(key, carried, sent)
            except LOST:
                self.replays += 1
                if asked_from is not None:  # the process that died took its seats' players with it
                    self._died(index, asked_from)
                self.pins.pop(key, None)
                avoid = index
                await asyncio.sleep(REPLAY_PAUSE)
                continue
            except RayError as exc:  # not a lost worker: the episode cannot go on with fallbacks
                raise FatalPlayerError(f"{self.text}: Ray: {one_line(exc)}") from None
            self._answered(index, pid)
            if status == "missing":  # the worker was restarted since this seat's last decision
                if self.holds[index].pop(key, None) is not None:
                    self.forgotten.add(key)
                continue
            self.holds[index][key] = pid
            if status == "raised":
                raise value
            if prompt is not None and request.prompt_if_rendered() is None:
                request.__dict__["prompt"] = prompt  # recorded with the turn, as a local decision's is
            decision: Decision = value
            return decision
        raise FatalPlayerError(f"{self.text}: its workers were lost {MAX_REPLAYS} times in a row")

    def release(self, key: str) -> None:
        """Seat ``key``'s episode ended: its worker may forget it (once a decision in flight lands).

        An episode that fails on one seat ends while its other seats' decisions may still be
        asked (``asyncio.gather`` does not cancel them): those are released as they land.
        """
        if key in self.asking:
            self.ended.add(key)
            return
        self.ended.discard(key)
        self.forgotten.discard(key)
        index = self.pins.pop(key, None)
        if index is not None and self.holds[index].pop(key, None) is not None:
            self.handles[index].drop.remote(key)


class RemoteSeat(Player):
    """An episode's seat whose decisions its player's workers make; it stands in for ``inner``."""

    def __init__(self, inner: Player, pool: ReplicaPool) -> None:
        self.inner = inner
        self.pool = pool
        self.spec = inner.spec
        self.kind = inner.kind
        self.instant = False
        self.key = f"{os.getpid()}-{next(_SEAT_KEYS)}"

    async def decide(self, request: DecisionRequest) -> Decision:
        """The worker's decision for ``request``."""
        return await self.pool.decide(self.key, self.inner, request)

    async def close(self) -> None:
        """Tell the worker the episode is over."""
        self.pool.release(self.key)

    @property
    def failure_limit(self) -> int | None:
        """The player's own."""
        return self.inner.failure_limit

    def configuration(self) -> dict[str, Any] | None:
        """The player's own: where it played does not change how."""
        return self.inner.configuration()

    def disclosed_settings(self) -> dict[str, Any] | None:
        """The player's own."""
        return self.inner.disclosed_settings()


def one_line(exc: BaseException) -> str:
    """A Ray error's first line of substance (Ray's messages carry tracebacks and advice)."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    useful = [line for line in lines if not line.startswith(("Traceback", "File ", "^"))]
    return (useful or lines or [type(exc).__name__])[0][:300]


class RayExecutor:
    """Plays episodes on this process's loop; offline models' decisions on Ray workers.

    ``address`` ``None`` starts a Ray instance here for the run (shut down at the end); an
    address joins a running cluster. A process that already has Ray initialised (a test,
    a notebook) keeps its connection, and it stays up after the run.
    """

    def __init__(self, address: str | None, concurrency: int) -> None:
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.address = address
        self.concurrency = concurrency
        self.pools: dict[str, ReplicaPool] = {}
        self._started_ray = False
        self.workers: dict[str, list[int]] = {}
        """Process ids of each player's workers once prepared."""

    def takes(self, player: Player) -> bool:
        """Players that compute their decisions themselves (offline models)."""
        return player.cluster_work() is not None

    async def open(self, players: Mapping[str, Player]) -> None:
        """Connect, start each offline model's workers and load it on every one of them."""
        await asyncio.to_thread(self._connect)  # starting an instance takes seconds: the loop stays live
        for text, player in players.items():
            work = player.cluster_work()
            if work is None:
                continue
            options = SeatHost.options  # type: ignore[attr-defined]
            host = options(num_cpus=work.cpus, max_restarts=-1, max_concurrency=1)
            handles = [host.remote(player) for _ in range(work.replicas)]
            self.pools[text] = ReplicaPool(text, work, handles)
        for text, pool in self.pools.items():
            try:
                self.workers[text] = list(await asyncio.gather(*(h.prepare.remote() for h in pool.handles)))
            except RayActorError as exc:
                raise ClusterError(f"{text}: its workers could not start: {one_line(exc)}") from None
            except RayError as exc:
                cause = getattr(exc, "cause", None)  # a RayTaskError carries what the worker raised
                if isinstance(cause, PlayerSetupError):
                    raise cause from None
                raise ClusterError(f"{text}: {one_line(exc)}") from None

    def _connect(self) -> None:
        if self.address is not None:
            check_reachable(self.address)
        if ray.is_initialized():
            return
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        options["logging_level"] = logging.WARNING
        if self.address is None:
            options["object_store_memory"] = LOCAL_OBJECT_STORE_BYTES
        try:
            with _native_stderr_held():
                ray.init(address=self.address, **options)
        except (RayError, ConnectionError, RuntimeError, ValueError) as exc:
            where = f"the Ray cluster at {self.address}" if self.address else "a local Ray instance"
            raise ClusterError(f"cannot use {where}: {one_line(exc)}") from None
        self._started_ray = True

    def seat(self, text: str, player: Player) -> Player:
        """A :class:`RemoteSeat` for a player this executor took, else ``player`` itself."""
        pool = self.pools.get(text)
        return RemoteSeat(player, pool) if pool is not None else player

    async def run(self, jobs: Iterable[Slot], play: Callable[[Slot], Awaitable[None]]) -> None:
        """Up to ``concurrency`` episodes at once on this loop, as the local executor plays them."""
        await play_concurrently(self.concurrency, jobs, play)

    async def close(self) -> None:
        """Stop the workers; shut Ray down if this run started it."""
        for pool in self.pools.values():
            for handle in pool.handles:
                ray.kill(handle, no_restart=True)
        self.pools.clear()
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False

    def describe(self) -> dict[str, Any]:
        """``{"executor": "ray", "address", "nodes", "cpus", "workers": {player: replicas}, ...}``."""
        nodes = [node for node in ray.nodes() if node.get("Alive")]  # type: ignore[no-untyped-call]
        return {
            "executor": "ray",
            "concurrency": self.concurrency,
            "address": self.address,
            "nodes": len(nodes),
            "cpus": float(ray.cluster_resources().get("CPU", 0.0)),  # type: ignore[no-untyped-call]
            "workers": {text: len(pool.handles) for text, pool in self.pools.items()},
        }


@contextlib.contextmanager
def _native_stderr_held() -> Iterator[None]:
    """Hold what native code writes to file descriptor 2 while Ray connects.

    Ray's C++ client logs its connection warnings straight to the terminal (an address that
    answers but is no Ray head printed "gcs_client.cc:210: Failed to get cluster ID ..." above
    the one-line error); ``RAY_BACKEND_LOG_LEVEL`` does not reach it. Failures still arrive as
    exceptions, which the caller turns into one line.
    """
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as sink:
            os.dup2(sink.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
