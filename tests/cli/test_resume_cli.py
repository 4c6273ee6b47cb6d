"""``arena resume ID`` after a real Ctrl-C of a real ``arena play`` (issue 24, item 13).

Each test interrupts a child process with SIGINT mid-match, resumes the episode in another
child, and compares the whole episode with one played without a break on the same seed.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from arena.store.database import Store
from tests.support.processes import OUR_ENV
from tests.support.sleepy import install_sleepy

REPO = Path(__file__).resolve().parents[2]
HUMAN_DAY = "3\n20\nnone\nmy plan\n"
"""One lemonade day at the console: price, cups, promotion, reason."""
HUMAN_LEMONADE = ["play", "lemonade", "--seat", "a=human", "--seat", "b=baseline:random"]
HUMAN_LEMONADE += ["--option", "days=4"]


def arena(db: Path, *argv: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """``arena`` as a child, Ctrl-C as in a terminal (even under a shell that ignores it for us)."""
    return subprocess.Popen(
        [sys.executable, "-m", "arena.cli.main", "--db", str(db), *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env or OUR_ENV,
        cwd=REPO,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def wait_for_turns(db: Path, count: int, process: subprocess.Popen[str]) -> None:
    """Until the episode has recorded ``count`` turns."""
    give_up = time.monotonic() + 600  # a guard against a hang, not a timing
    while time.monotonic() < give_up:
        assert process.poll() is None, "the episode ended before it could be interrupted"
        try:
            with sqlite3.connect(db) as conn:
                if conn.execute("SELECT count(*) FROM turns").fetchone()[0] >= count:
                    return
        except sqlite3.OperationalError:  # not created yet
            pass
        time.sleep(0.01)
    raise AssertionError(f"{count} turns never came")


def interrupt(process: subprocess.Popen[str]) -> tuple[str, str]:
    """Ctrl-C the child; its output."""
    process.send_signal(signal.SIGINT)
    out, err = process.communicate()
    assert process.returncode == 130, err
    return out, err


def finish(db: Path, argv: list[str], stdin: str = "", env: dict[str, str] | None = None) -> tuple[str, str]:
    process = arena(db, *argv, env=env)
    out, err = process.communicate(stdin)
    assert process.returncode == 0, err
    return out, err


def episode_facts(db: Path) -> tuple[Any, ...]:
    """The only episode's status, seed, seats' scores and metrics, and every turn's step, seat and action."""
    store = Store(db)
    try:
        episode = store.list_episodes()
        assert len(episode) == 1, "a resume continues the episode: no new one"
        row = store.episode(episode[0]["id"])
        assert row is not None
        seats = [(s["seat"], s["player"], s["score"], s["metrics"]) for s in store.seats(row["id"])]
        turns = [(t["step"], t["seat"], t["action"]) for t in store.raw_turns(row["id"])]
        return row["status"], row["seed"], seats, turns
    finally:
        store.close()


@pytest.mark.parametrize(
    "how", [signal.SIGINT, signal.SIGHUP, signal.SIGKILL], ids=["ctrl-c", "hangup", "kill-9"]
)
def test_an_interrupted_match_resumed_ends_as_the_uninterrupted_one(tmp_path: Path, how: int) -> None:
    # A person (their answers scripted on stdin) against a baseline that draws from its own
    # generator: interrupted while the person's third day is due (Ctrl-C, a closed terminal or
    # a crash), resumed, given the rest.
    interrupted, whole = tmp_path / "interrupted.db", tmp_path / "whole.db"
    process = arena(interrupted, *HUMAN_LEMONADE, "--seed", "21")
    assert process.stdin is not None
    process.stdin.write(HUMAN_DAY * 2)
    process.stdin.flush()
    wait_for_turns(interrupted, 4, process)
    if how == signal.SIGKILL:
        process.kill()
        process.communicate()
    else:
        process.send_signal(how)
        _, err = process.communicate()
        assert process.returncode == 130, err
        assert "episode 1 saved as aborted (arena resume 1 continues it)" in err
    status, *_ = episode_facts(interrupted)  # a crash's episode is marked aborted by the next store
    assert status == "aborted"

    out, err = finish(interrupted, ["resume", "1"], HUMAN_DAY * 2)
    assert out.startswith("episode 1 resumed at step 3 (steps 1-2 as recorded): lemonade seed secret")
    assert err.splitlines() == [f"arena: database {interrupted}"]
    finish(whole, [*HUMAN_LEMONADE, "--seed", "21"], HUMAN_DAY * 4)
    resumed_facts, whole_facts = episode_facts(interrupted), episode_facts(whole)
    assert resumed_facts == whole_facts and resumed_facts[0] == "finished"
    assert len(resumed_facts[3]) == 8


def test_machines_interrupted_mid_match_resume_to_the_same_result(tmp_path: Path) -> None:
    # Scripted players only: seat a answers as the weather baseline after a pause (a model
    # kind, so it is not asked again on resume), seat b is the random baseline (asked again).
    folder = install_sleepy(tmp_path / "plugins")
    env = {**OUR_ENV, "PYTHONPATH": os.pathsep.join([str(folder), str(REPO)])}
    argv = ["play", "lemonade", "--seat", "a=sleepy:weather/0.4/1", "--seat", "b=baseline:random"]
    argv += ["--option", "days=4", "--seed", "5", "--quiet"]
    interrupted, whole = tmp_path / "interrupted.db", tmp_path / "whole.db"
    process = arena(interrupted, *argv, env=env)
    wait_for_turns(interrupted, 2, process)
    interrupt(process)
    status, _, _, turns = episode_facts(interrupted)
    assert status == "aborted" and 2 <= len(turns) < 8
    finish(interrupted, ["resume", "1", "--quiet"], env=env)
    finish(whole, argv, env=env)
    resumed_facts, whole_facts = episode_facts(interrupted), episode_facts(whole)
    assert resumed_facts == whole_facts and resumed_facts[0] == "finished"


def test_a_person_s_secret_seed_is_never_shown_by_an_interruption_or_a_resume(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    process = arena(db, *HUMAN_LEMONADE)  # no --seed: a secret deal
    assert process.stdin is not None
    process.stdin.write(HUMAN_DAY)
    process.stdin.flush()
    wait_for_turns(db, 2, process)
    first_out, first_err = interrupt(process)
    _, seed, _, _ = episode_facts(db)
    listing = subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "--db", str(db), "episodes", "--json"],
        capture_output=True, text=True, check=True, env=OUR_ENV,
    )  # fmt: skip
    assert '"seed":null' in listing.stdout.replace(" ", "") and str(seed) not in listing.stdout
    out, err = finish(db, ["resume", "1"], HUMAN_DAY * 3)
    before_the_end, _, after = out.partition("results")
    assert str(seed) not in first_out + first_err + before_the_end + err
    assert "final_cash" not in first_out, "an interrupted person's results stay hidden: it can go on"
    assert "the results and the seed stay hidden: arena resume 1 continues the episode" in first_out
    assert f"the deal's seed was {seed}" in after


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["resume", "1"], "no episode 1 in"),
        (["resume", "x"], "argument episode_id: invalid int value: 'x'"),
    ],
)
def test_a_resume_that_cannot_be_is_one_line(
    capsys: pytest.CaptureFixture[str], db_path: Path, argv: list[str], message: str
) -> None:
    from arena.cli.main import main

    Store(db_path).close()
    assert main(["--db", str(db_path), *argv]) in (1, 2)
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err


def test_resuming_a_finished_episode_says_why_not(capsys: pytest.CaptureFixture[str], db_path: Path) -> None:
    from arena.cli.main import main

    seats = ["--seat", "seller=baseline:honest", "--seat", "buyer=baseline:honest", "--quiet"]
    assert main(["--db", str(db_path), "play", "bargain", *seats]) == 0
    capsys.readouterr()
    assert main(["--db", str(db_path), "resume", "1"]) == 1
    assert capsys.readouterr().err == "arena: error: episode 1 cannot be resumed: it has finished\n"
