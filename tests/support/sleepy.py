"""A test-only offline model: it sleeps a fixed time, then answers as a game's baseline would.

``sleepy:BASELINE/SECONDS/REPLICAS[/CPUS]`` (for example ``sleepy:honest/0.05/2``) is a player
a cluster executor sends to ``REPLICAS`` workers of ``CPUS`` each (default 0: sleeping costs
none), as it does an offline model (:meth:`Player.cluster_work`). Each answers after
``SECONDS`` of sleep exactly what ``baseline:BASELINE`` would, so a tournament of sleepy
players plays the same wherever it runs. With
``$ARENA_SLEEPY_LOG`` set when the player is built, every decision appends
``pid start end`` to that file: which process answered, and whether a cap was crossed.
With ``$ARENA_SLEEPY_GATE`` set to a file's path when the player is built, every decision
appends its process id to ``GATE.started`` as it starts, then waits while the file exists:
a test holds decisions in flight where it wants a fault, instead of racing them. With
``$ARENA_SLEEPY_GATE_AFTER`` set to N as well, a player's first N decisions pass the gate
unheld (and unlisted): a fault then meets seats whose workers already hold what they did.
With ``$ARENA_SLEEPY_LOSE`` set, every decision raises :class:`SeatLostError`, as a seat
whose worker was lost does: a local run shows what a tournament does with such episodes.

A sleepy player over a baseline in :data:`REQUEST_ALONE` declares that it decides from the
request alone (:meth:`Player.decides_from_request_alone`), as a model without memory does;
over any other it keeps the default, as a player whose decisions change it must.

The kind is registered like any plugin, by an installed distribution's entry point
(:func:`install_sleepy` writes its metadata into a folder to put on the path).
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import ClassVar

from arena.contract.player import ClusterWork, Decision, DecisionRequest, Player, SeatLostError
from arena.engine.lineup import player_rng
from arena.plugins import entry_points
from arena.plugins.players import BuildContext, PlayerKind, PlayerSpec, SpecError, player_kinds

LOG_ENV = "ARENA_SLEEPY_LOG"
GATE_ENV = "ARENA_SLEEPY_GATE"
GATE_AFTER_ENV = "ARENA_SLEEPY_GATE_AFTER"
LOSE_ENV = "ARENA_SLEEPY_LOSE"
REQUEST_ALONE = frozenset({"honest"})
"""Bargain baselines that decide from the observation alone: they draw nothing and keep nothing."""
ENTRY_POINT = "[arena.players]\nsleepy = tests.support.sleepy:SLEEPY\n"


class SleepyPlayer(Player):
    """Sleeps ``delay`` seconds per decision, then decides as ``inner`` (a baseline) does."""

    kind = "model"

    def __init__(
        self,
        spec: str,
        inner: Player,
        delay: float,
        work: ClusterWork,
        log: str | None,
        gate: str | None = None,
        *,
        gate_after: int = 0,
        from_request_alone: bool = False,
    ) -> None:
        self.spec = spec
        self.inner = inner
        self.delay = delay
        self.work = work
        self.log = log
        self.gate = gate
        self.gate_after = gate_after
        self.from_request_alone = from_request_alone
        self.decided = 0
        self.prepared_in: int | None = None

    def cluster_work(self) -> ClusterWork:
        """The spec's replicas and CPUs per worker."""
        return self.work

    async def prepare(self) -> None:
        """Remember the process it was loaded in."""
        self.prepared_in = os.getpid()

    def decides_from_request_alone(self, request: DecisionRequest) -> bool:
        """As declared for its baseline (see :data:`REQUEST_ALONE`)."""
        return self.from_request_alone

    async def decide(self, request: DecisionRequest) -> Decision:
        """The baseline's decision, after the sleep."""
        if os.environ.get(LOSE_ENV):
            raise SeatLostError(f"{self.spec}: lost with its worker (${LOSE_ENV})")
        started = time.time()
        if self.gate and self.decided >= self.gate_after:
            with open(f"{self.gate}.started", "a", encoding="utf-8") as file:
                file.write(f"{os.getpid()}\n")
            while os.path.exists(self.gate):
                await asyncio.sleep(0.01)
        await asyncio.sleep(self.delay)
        decision = await self.inner.decide(request)
        self.decided += 1
        if self.log:
            with open(self.log, "a", encoding="utf-8") as file:
                file.write(f"{os.getpid()} {started:.6f} {time.time():.6f}\n")
        return decision


class SleepyKind(PlayerKind):
    """``sleepy:BASELINE/SECONDS/REPLICAS``."""

    name: ClassVar[str] = "sleepy"
    forms: ClassVar[tuple[str, ...]] = ("sleepy:BASELINE/SECONDS/REPLICAS",)
    is_model: ClassVar[bool] = True

    def build(self, spec: PlayerSpec, context: BuildContext) -> Player:
        baseline, delay, replicas, cpus = [*spec.name.split("/"), "", "", ""][:4]
        info = context.game.baselines.get(baseline)
        if info is None:
            raise SpecError(f"{context.game.name} has no baseline {baseline!r}")
        inner = info.factory(player_rng(context.seed, context.seat, f"baseline:{baseline}"))
        work = ClusterWork(replicas=int(replicas or 1), cpus=float(cpus or 0))
        log, gate = os.environ.get(LOG_ENV), os.environ.get(GATE_ENV)
        gate_after = int(os.environ.get(GATE_AFTER_ENV) or 0)
        alone = baseline in REQUEST_ALONE
        player = SleepyPlayer(spec.text, inner, float(delay or 0), work, log, gate, gate_after=gate_after)
        player.from_request_alone = alone
        return player


SLEEPY = SleepyKind()


def install_sleepy(folder: Path) -> Path:
    """Write a ``sleepy`` distribution's metadata into ``folder`` (put it on the path, then refresh)."""
    info = folder / "arena_sleepy-1.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: arena-sleepy\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(ENTRY_POINT)
    forget_kinds()
    return folder


def forget_kinds() -> None:
    """Read the installed player kinds afresh (after the path changed)."""
    entry_points.refresh()
    player_kinds.cache_clear()


def decisions(log: Path) -> list[tuple[int, float, float]]:
    """The log's ``(pid, start, end)`` lines."""
    if not log.exists():
        return []
    rows = [line.split() for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(int(pid), float(start), float(end)) for pid, start, end in rows]


def started_at_gate(gate: Path) -> list[int]:
    """Process ids of the decisions that reached ``gate`` (held while the gate file exists)."""
    path = Path(f"{gate}.started")
    if not path.exists():
        return []
    return [int(line) for line in path.read_text(encoding="utf-8").split()]


def most_at_once(log: Path) -> int:
    """The most decisions the log shows running at the same moment."""
    rows = decisions(log)
    # At one instant an end (-1) sorts before a start (+1): touching intervals do not overlap.
    edges = sorted([(start, 1) for _, start, _ in rows] + [(end, -1) for _, _, end in rows])
    running = peak = 0
    for _, step in edges:
        running += step
        peak = max(peak, running)
    return peak
