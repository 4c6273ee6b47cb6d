"""Tournaments on a real Ray cluster of two nodes on this machine (one cluster for the module).

The head node has 2 CPUs; a second node of 2 CPUs joins for the node test and is removed
mid-tournament. Players are ``sleepy`` test models (:mod:`tests.support.sleepy`): offline
models that sleep, then answer as a baseline, so every result is known from a local run.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from arena.cli.main import main
from arena.contract.player import SeatLostError
from arena.engine.lineup import build_player
from arena.engine.runner import decision_request
from arena.plugins.games import get_game
from arena.store.database import Store
from arena.tournament.config import TournamentConfig, build_config
from arena.tournament.run import TournamentRun, create_tournament, plan
from arena.tournament.standings import tournament_table
from tests.support.optional import needs
from tests.support.sleepy import (
    GATE_AFTER_ENV,
    GATE_ENV,
    LOG_ENV,
    decisions,
    forget_kinds,
    install_sleepy,
    most_at_once,
    started_at_gate,
)

if TYPE_CHECKING:
    from ray.cluster_utils import Cluster

    from arena.tournament.ray_executor import RayExecutor

# Ray is imported by the tests that use it, not while every xdist worker collects this module.
pytestmark = needs("ray")

OBJECT_STORE = 80 * 2**20
REPO = Path(__file__).resolve().parents[2]


def ray_executor(address: str | None, concurrency: int) -> RayExecutor:
    """A :class:`arena.tournament.ray_executor.RayExecutor` (its module imports Ray)."""
    from arena.tournament.ray_executor import RayExecutor

    return RayExecutor(address, concurrency)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """A Ray head node of 2 CPUs, the sleepy kind installed for the head and its workers."""
    import ray
    from ray.cluster_utils import Cluster

    folder = install_sleepy(tmp_path_factory.mktemp("sleepy"))
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(folder))
        forget_kinds()
        started = Cluster(
            initialize_head=True,
            head_node_args={"num_cpus": 2, "object_store_memory": OBJECT_STORE, "include_dashboard": False},
        )
        ray.init(address=started.address, log_to_driver=False)
        try:
            yield started
        finally:
            ray.shutdown()
            started.shutdown()  # type: ignore[no-untyped-call]
    forget_kinds()


@pytest.fixture
def log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where the sleepy players built in this test log their decisions."""
    path = tmp_path / "decisions.log"
    monkeypatch.setenv(LOG_ENV, str(path))
    return path


def same_results(table: dict[str, Any]) -> dict[str, Any]:
    """A tournament table without what differs between two runs of the same tournament."""
    kept = {key: value for key, value in table.items() if key not in ("tournament", "cost")}
    return kept


def turns_by_slot(store: Store, tournament_id: int) -> dict[str, list[tuple[Any, ...]]]:
    rows = store.conn.execute(
        "SELECT e.slot_key, t.idx, t.seat, t.action, t.reason, t.prompt, t.valid, t.fallback FROM turns t"
        " JOIN episodes e ON e.id = t.episode_id WHERE e.tournament_id = ? AND e.status = 'finished'"
        " ORDER BY e.slot_key, t.idx",
        (tournament_id,),
    )
    found: dict[str, list[tuple[Any, ...]]] = {}
    for key, *turn in rows:
        found.setdefault(key, []).append(tuple(turn))
    return found


def finished_per_slot(store: Store, tournament_id: int) -> Counter[str]:
    rows = store.conn.execute(
        "SELECT slot_key FROM episodes WHERE tournament_id = ? AND status = 'finished'", (tournament_id,)
    )
    return Counter(key for (key,) in rows)


HANG_GUARD = 600.0
"""Seconds after which a wait gives up: a guard against a hang, not a timing."""


async def held(gate: Path, count: int, run: asyncio.Task[Any]) -> None:
    """Wait until ``count`` decisions are held at ``gate`` (the run still going)."""
    give_up = time.monotonic() + HANG_GUARD
    while len(started_at_gate(gate)) < count:
        assert not run.done() and time.monotonic() < give_up, "the run ended or hung before the fault"
        await asyncio.sleep(0.01)


@pytest.fixture
def gate(tmp_path: Path) -> Iterator[Path]:
    """A gate file for the sleepy players built after :func:`hold` (see :mod:`tests.support.sleepy`)."""
    path = tmp_path / "gate"
    yield path
    path.unlink(missing_ok=True)  # a failed test never leaves workers waiting


def hold(gate: Path, monkeypatch: pytest.MonkeyPatch, after: int = 0) -> None:
    """From now on, sleepy players built here hold each decision after their first ``after``
    while ``gate`` exists."""
    gate.touch()
    monkeypatch.setenv(GATE_ENV, str(gate))
    monkeypatch.setenv(GATE_AFTER_ENV, str(after))


def messages_of(store: Store, tournament_id: int, status: str) -> list[str]:
    rows = store.conn.execute(
        "SELECT message FROM episodes WHERE tournament_id = ? AND status = ?", (tournament_id, status)
    )
    return [message or "" for (message,) in rows]


async def played(store: Store, config: TournamentConfig, executor: Any = None) -> int:
    tournament_id = create_tournament(store, config)
    progress = await TournamentRun(store, tournament_id, executor=executor).run()
    assert progress.status == "finished", progress.message
    return tournament_id


async def test_a_tournament_on_ray_plays_exactly_as_it_does_locally(
    cluster: Cluster, tmp_path: Path, log: Path
) -> None:
    players = ("sleepy:honest/0.002/2", "baseline:bluffing", "sleepy:pushover/0.002/1")
    config = build_config(game="bargain", players=players, seeds=2, seed=5, concurrency=4)
    local, remote = Store(tmp_path / "local.db"), Store(tmp_path / "ray.db")
    try:
        here = await played(local, config)
        assert {pid for pid, _, _ in decisions(log)} == {os.getpid()}
        log.unlink()
        executor = ray_executor(None, config.concurrency)
        there = await played(remote, config, executor)
        workers = {pid for pid, _, _ in decisions(log)}
        assert os.getpid() not in workers and len(workers) == 3  # 2 + 1 replicas, none on the head
        assert same_results(tournament_table(remote, there)) == same_results(tournament_table(local, here))
        assert turns_by_slot(remote, there) == turns_by_slot(local, here)
        assert finished_per_slot(remote, there) == Counter({slot.slot_key: 1 for slot in plan(config)})
        run = remote.tournament(there)["config"]["runs"]  # type: ignore[index]
        assert run == [
            {
                "executor": "ray",
                "concurrency": 4,
                "address": None,
                "nodes": 1,
                "cpus": 2.0,
                "workers": {"sleepy:honest/0.002/2": 2, "sleepy:pushover/0.002/1": 1},
            }
        ]
        assert local.tournament(here)["config"]["runs"] == [  # type: ignore[index]
            {"executor": "local", "concurrency": 4}
        ]
    finally:
        local.close()
        remote.close()


async def test_decisions_spread_over_the_workers_and_never_pass_the_cap(
    cluster: Cluster, store: Store, log: Path
) -> None:
    players = ("sleepy:honest/0.05/2", "baseline:bluffing", "baseline:pushover")
    config = build_config(game="bargain", players=players, seeds=2, seed=3, concurrency=6)
    executor = ray_executor(None, config.concurrency)
    await played(store, config, executor)
    per_worker = Counter(pid for pid, _, _ in decisions(log))
    assert len(per_worker) == 2 and min(per_worker.values()) >= sum(per_worker.values()) // 4
    assert most_at_once(log) == 2  # both workers busy at once, never a third decision


async def test_a_killed_worker_costs_only_its_decision_in_flight(
    cluster: Cluster, tmp_path: Path, log: Path, gate: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = ("sleepy:honest/0.03/2", "baseline:bluffing", "baseline:pushover")
    config = build_config(game="bargain", players=players, seeds=2, seed=11, concurrency=4)
    local, remote = Store(tmp_path / "local.db"), Store(tmp_path / "ray.db")
    try:
        here = await played(local, config)
        log.unlink()
        hold(gate, monkeypatch)
        executor = ray_executor(None, config.concurrency)
        tournament_id = create_tournament(remote, config)
        run = asyncio.create_task(TournamentRun(remote, tournament_id, executor=executor).run())
        # Four episodes with the sleepy player start at once, each seat on the worker with the
        # fewest: both workers hold a decision when the first is killed.
        await held(gate, 2, run)
        pool = executor.pools["sleepy:honest/0.03/2"]
        import ray

        ray.kill(pool.handles[0], no_restart=False)
        gate.unlink()
        progress = await run
        assert progress.status == "finished"
        assert pool.replays >= 1  # the decision in flight there was asked again
        assert finished_per_slot(remote, tournament_id) == finished_per_slot(local, here)
        assert turns_by_slot(remote, tournament_id) == turns_by_slot(local, here)
    finally:
        local.close()
        remote.close()


async def killed_mid_episode(
    players: tuple[str, ...], tmp_path: Path, gate: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[str], list[str], int]:
    """Play a bargain tournament locally, then on Ray, killing a worker of the first player
    once each of its seats has decided once: the seats that worker held lose their player.

    Asserts the Ray run finished with the local run's slots and turns; returns the messages of
    its ``lost`` and ``failed`` episodes and the decisions asked again. No retries: an episode
    lost with its worker is not the slot's failure, so it is played again.
    """
    config = build_config(game="bargain", players=players, seeds=2, seed=11, concurrency=4, retries=0)
    local, remote = Store(tmp_path / "local.db"), Store(tmp_path / "ray.db")
    try:
        here = await played(local, config)
        hold(gate, monkeypatch, after=1)
        executor = ray_executor(None, config.concurrency)
        there = create_tournament(remote, config)
        run = asyncio.create_task(TournamentRun(remote, there, executor=executor).run())
        await held(gate, 2, run)  # second decisions in flight: every seat is held by a worker
        pool = executor.pools[players[0]]
        import ray

        ray.kill(pool.handles[0], no_restart=False)
        gate.unlink()
        progress = await run
        assert progress.status == "finished", progress.message
        assert finished_per_slot(remote, there) == finished_per_slot(local, here)
        assert turns_by_slot(remote, there) == turns_by_slot(local, here)
        return messages_of(remote, there, "lost"), messages_of(remote, there, "failed"), pool.replays
    finally:
        local.close()
        remote.close()


async def test_a_seat_its_decisions_changed_is_never_played_on_by_a_fresh_copy_after_a_kill(
    cluster: Cluster, tmp_path: Path, log: Path, gate: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A random bargainer draws from its generator each decision: a fresh copy would draw the
    # first numbers again. Its episodes on the killed worker are lost and played again whole.
    players = ("sleepy:random/0.03/2", "baseline:bluffing", "baseline:pushover")
    lost, failed, _ = await killed_mid_episode(players, tmp_path, gate, monkeypatch)
    assert lost and all("lost mid-episode" in message for message in lost)
    assert failed == []


async def test_a_player_that_decides_from_the_request_alone_goes_on_after_a_kill(
    cluster: Cluster, tmp_path: Path, log: Path, gate: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = ("sleepy:honest/0.03/2", "baseline:bluffing", "baseline:pushover")
    lost, failed, replays = await killed_mid_episode(players, tmp_path, gate, monkeypatch)
    assert replays >= 1 and lost == failed == []


async def restarted(handle: Any, gone: int) -> int:
    """Wait until the worker behind ``handle`` answers from a process other than ``gone``."""
    from arena.tournament.ray_executor import LOST

    give_up = time.monotonic() + HANG_GUARD
    while time.monotonic() < give_up:
        try:
            pid: int = await handle.prepare.remote()
        except LOST:
            pid = gone
        if pid != gone:
            return pid
        await asyncio.sleep(0.05)
    raise AssertionError("the worker did not come back")


async def test_a_restarted_worker_fails_only_the_seats_it_held_before(cluster: Cluster) -> None:
    text = "sleepy:random/0/1"
    bargain = get_game("bargain")
    request = decision_request(bargain.create(3, {}), "seller", 0)
    executor = ray_executor(None, 2)
    await executor.open({text: build_player(text, bargain, seed=3, seat="seller")})
    try:
        pool = executor.pools[text]
        before, after = (
            executor.seat(text, build_player(text, bargain, seed=3, seat="seller")) for _ in "ab"
        )
        assert (await before.decide(request)).error is None  # held by the worker's first process
        import ray

        ray.kill(pool.handles[0], no_restart=False)  # restarted while no decision is in flight
        await restarted(pool.handles[0], executor.workers[text][0])
        assert (await after.decide(request)).error is None  # a new seat, taken on by the new process
        with pytest.raises(SeatLostError, match="lost mid-episode"):
            await before.decide(request)  # its generator was drawn from: a fresh copy would not do
        assert (await after.decide(request)).error is None  # the new process still holds it
    finally:
        await executor.close()


async def test_a_seat_whose_episode_ends_with_a_decision_in_flight_is_released_when_it_lands(
    cluster: Cluster, gate: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An episode that fails on one seat ends while its other seats' decisions are still asked.
    text = "sleepy:honest/0/1"
    bargain = get_game("bargain")
    request = decision_request(bargain.create(3, {}), "seller", 0)
    hold(gate, monkeypatch)
    executor = ray_executor(None, 2)
    await executor.open({text: build_player(text, bargain, seed=3, seat="seller")})
    try:
        pool = executor.pools[text]
        seat = executor.seat(text, build_player(text, bargain, seed=3, seat="seller"))
        asked = asyncio.create_task(seat.decide(request))
        await held(gate, 1, asked)
        await seat.close()
        gate.unlink()
        await asked
        key = seat.key  # type: ignore[attr-defined]
        assert key not in pool.pins and all(key not in held_by for held_by in pool.holds)
        assert not pool.ended and not pool.asking
    finally:
        await executor.close()


async def test_a_removed_node_costs_only_its_decisions_in_flight(
    cluster: Cluster, tmp_path: Path, log: Path, gate: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    node = cluster.add_node(num_cpus=2, object_store_memory=OBJECT_STORE)
    cluster.wait_for_nodes()
    # 4 workers of one CPU each on 2 + 2 CPUs: two of them must be on the second node.
    players = ("sleepy:honest/0.03/4/1", "baseline:bluffing", "baseline:pushover")
    config = build_config(game="bargain", players=players, seeds=2, seed=13, concurrency=6)
    local, remote = Store(tmp_path / "local.db"), Store(tmp_path / "ray.db")
    try:
        here = await played(local, config)
        log.unlink()
        hold(gate, monkeypatch)
        executor = ray_executor(None, config.concurrency)
        tournament_id = create_tournament(remote, config)
        run = asyncio.create_task(TournamentRun(remote, tournament_id, executor=executor).run())
        # The first 6 episodes include 4 with the sleepy player; each seat goes to the worker with
        # the fewest, so all 4 workers hold a decision, two of them on the node removed.
        await held(gate, 4, run)
        assert executor.describe()["nodes"] == 2
        pool = executor.pools["sleepy:honest/0.03/4/1"]
        cluster.remove_node(node)
        gate.unlink()
        progress = await run
        assert progress.status == "finished" and progress.done == len(plan(config))
        assert pool.replays >= 2  # both decisions in flight there were asked again
        assert finished_per_slot(remote, tournament_id) == finished_per_slot(local, here)
        assert turns_by_slot(remote, tournament_id) == turns_by_slot(local, here)
    finally:
        local.close()
        remote.close()


def test_a_head_killed_outright_then_resumed_plays_only_what_is_missing(
    cluster: Cluster, tmp_path: Path, log: Path
) -> None:
    db = tmp_path / "arena.db"
    players = ["sleepy:honest/0.01/2", "baseline:bluffing", "baseline:pushover"]
    argv = [sys.executable, "-m", "arena.cli.main", "--db", str(db), "tournament", "run", "bargain"]
    argv += [arg for player in players for arg in ("--player", player)]
    argv += [
        "--seeds",
        "4",
        "--master-seed",
        "17",
        "--concurrency",
        "3",
        "--cluster",
        f"ray={cluster.address}",
    ]
    path = os.pathsep.join([*(p for p in sys.path if "sleepy" in p), str(REPO)])
    env = {**os.environ, "PYTHONPATH": path}
    child = subprocess.Popen(argv, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    finished, give_up = 0, time.monotonic() + HANG_GUARD
    while child.poll() is None and finished < 5 and time.monotonic() < give_up:
        try:
            with sqlite3.connect(db) as conn:
                finished = conn.execute("SELECT count(*) FROM episodes WHERE status='finished'").fetchone()[0]
        except sqlite3.OperationalError:
            pass  # the schema is not there yet
        time.sleep(0.05)
    assert child.poll() is None, child.stderr.read() if child.stderr else ""
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    store = Store(db)
    try:
        before = finished_per_slot(store, 1)
        assert 5 <= sum(before.values()) < 24 and set(before.values()) == {1}
    finally:
        store.close()
    assert main(["--db", str(db), "tournament", "resume", "1", "--cluster", f"ray={cluster.address}"]) == 0
    store = Store(db)
    try:
        config = build_config(game="bargain", players=tuple(players), seeds=4, seed=17)
        assert finished_per_slot(store, 1) == Counter({slot.slot_key: 1 for slot in plan(config)})
        runs = store.tournament(1)["config"]["runs"]  # type: ignore[index]
        assert [run["executor"] for run in runs] == ["ray", "ray"]
    finally:
        store.close()


def test_an_unreachable_cluster_is_one_line(
    cluster: Cluster, store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--db", str(store.path), "tournament", "run", "bargain", "--player", "sleepy:honest/0/1"]
    argv += ["--player", "baseline:bluffing", "--seeds", "1", "--cluster", "ray=127.0.0.1:9"]
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 1
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "cannot reach a Ray cluster at 127.0.0.1:9: Connection refused" in lines[0], (
        err
    )


def test_a_model_that_cannot_load_on_its_worker_stops_the_run_in_one_line(
    cluster: Cluster, store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--db", str(store.path), "tournament", "run", "bargain", "--player", "local:/nowhere/m.gguf"]
    argv += ["--player", "baseline:bluffing", "--seeds", "1", "--cluster", f"ray={cluster.address}"]
    assert main(argv) == 1
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert lines == ["arena: error: local:/nowhere/m.gguf: model file not found: /nowhere/m.gguf"]
