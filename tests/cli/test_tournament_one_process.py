"""One tournament, one player process: real ``arena`` processes resuming the same tournament.

A sleepy player (``tests/support/sleepy.py``) holds its decisions while a gate file exists, so a
test knows a process is mid-tournament without a clock. While one process plays, a second
``arena tournament resume`` is refused in one line naming the first one's process id, and the
first finishes the tournament alone (it used to be taken over: the loser exited 1 with a raw
``UNIQUE constraint failed`` and left ``running`` rows behind). A process killed mid-tournament
leaves nothing that stops the next resume from finishing it.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tests.support.processes import OUR_ENV
from tests.support.sleepy import install_sleepy

REPO = Path(__file__).resolve().parents[2]
PLAYERS = ["--player", "sleepy:honest/0/1", "--player", "baseline:random"]


def arena(db: Path, env: dict[str, str], *argv: str) -> subprocess.Popen[str]:
    """``arena --db DB ARGV`` as a child process."""
    return subprocess.Popen(
        [sys.executable, "-m", "arena.cli.main", "--db", str(db), *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=REPO,
    )


def plugin_env(tmp_path: Path, gate: Path | None) -> dict[str, str]:
    folder = install_sleepy(tmp_path / "plugins")
    env = {**OUR_ENV, "PYTHONPATH": os.pathsep.join([str(folder), str(REPO)])}
    env.pop("ARENA_SLEEPY_GATE", None)
    if gate is not None:
        env["ARENA_SLEEPY_GATE"] = str(gate)
    return env


def wait_at_gate(gate: Path, process: subprocess.Popen[str]) -> None:
    """Until ``process`` holds a decision at the gate."""
    started = Path(f"{gate}.started")
    give_up = time.monotonic() + 600  # a guard against a hang, not a timing
    while time.monotonic() < give_up:
        if process.poll() is not None:
            raise AssertionError(f"the process ended first: {process.communicate()}")
        if started.exists() and str(process.pid) in started.read_text().split():
            return
        time.sleep(0.01)
    raise AssertionError("no decision reached the gate")


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        return list(connection.execute(sql))


def held(tmp_path: Path, db: Path, gate: Path, *argv: str) -> subprocess.Popen[str]:
    """``arena ARGV`` with the gate closed, once it holds a decision (killed if it never does)."""
    gate.touch()
    process = arena(db, plugin_env(tmp_path, gate), *argv)
    try:
        wait_at_gate(gate, process)
    except BaseException:
        process.kill()
        process.communicate()
        raise
    return process


def interrupted_tournament(tmp_path: Path, db: Path, gate: Path) -> None:
    """A tournament of 4 episodes stopped by Ctrl-C while its first decision was held (resumable)."""
    first = held(tmp_path, db, gate, "tournament", "run", "bargain", *PLAYERS, "--seeds", "2")
    first.send_signal(signal.SIGINT)
    _, err = first.communicate()
    assert first.returncode == 130, err
    Path(f"{gate}.started").unlink()


def test_a_second_resume_is_refused_while_the_first_process_plays(tmp_path: Path) -> None:
    db, gate = tmp_path / "arena.db", tmp_path / "gate"
    interrupted_tournament(tmp_path, db, gate)
    playing = held(tmp_path, db, gate, "tournament", "resume", "1")
    try:
        second = arena(db, plugin_env(tmp_path, None), "tournament", "resume", "1")  # never held
        out, err = second.communicate()
    finally:
        gate.unlink()  # the first process goes on, whatever the second did
    assert second.returncode == 1, (out, err)
    assert err == f"arena: error: tournament 1 is being played by another Arena process (pid {playing.pid})\n"
    assert "UNIQUE" not in out + err

    out, err = playing.communicate()
    assert playing.returncode == 0, err
    assert "tournament 1 finished" in out and "UNIQUE" not in err
    statuses = rows(db, "SELECT status, count(*) FROM episodes GROUP BY status ORDER BY status")
    assert ("finished", 4) in statuses and all(status != "running" for status, _ in statuses)
    assert rows(db, "SELECT status, pid FROM tournaments") == [("finished", playing.pid)]


def test_a_process_killed_mid_tournament_blocks_no_later_resume(tmp_path: Path) -> None:
    db, gate = tmp_path / "arena.db", tmp_path / "gate"
    interrupted_tournament(tmp_path, db, gate)
    killed = held(tmp_path, db, gate, "tournament", "resume", "1")
    killed.kill()
    killed.communicate()
    assert rows(db, "SELECT status, pid FROM tournaments") == [("running", killed.pid)]

    resumed = arena(db, plugin_env(tmp_path, None), "tournament", "resume", "1")
    out, err = resumed.communicate()
    assert resumed.returncode == 0, err
    assert "tournament 1 finished" in out
    assert rows(db, "SELECT count(*) FROM episodes WHERE status = 'running'") == [(0,)]
    assert rows(db, "SELECT count(*) FROM episodes WHERE status = 'finished'") == [(4,)]
