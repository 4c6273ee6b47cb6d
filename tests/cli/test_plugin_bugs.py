"""Bugs say they are bugs: an exception raised inside a game or a player kind, through the real CLI.

Planted-bug plugins are installed as a user's packages are (a distribution's metadata with its
entry points, on ``PYTHONPATH``); the game builds on the outside example game in ``examples/``.
The CLI runs in a subprocess, and the episode is read back from its SQLite file.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

BUGGY_GAME = """
from typing import ClassVar

from rock_paper_scissors.game import RpsDefinition, RpsState


class BuggyState(RpsState):
    def result(self):
        return {seat: int("x") for seat in self.seats}  # the planted bug


class BuggyDefinition(RpsDefinition):
    name: ClassVar[str] = "buggy_rps"

    def state_class(self):
        return BuggyState


class StoppingState(RpsState):
    def apply(self, actions):
        if len(self.rounds) == 2:
            raise IndexError("round 3 is off the end")  # the planted bug, mid-episode
        super().apply(actions)


class StoppingDefinition(RpsDefinition):
    name: ClassVar[str] = "stopping_rps"

    def state_class(self):
        return StoppingState


DEFINITION = BuggyDefinition()
STOPPING = StoppingDefinition()
"""
GAME, STOP = "buggy_rps:DEFINITION", "buggy_rps:STOPPING"

BUGGY_KIND = """
from typing import ClassVar

from arena.plugins.players import PlayerKind, PlayerSpec


class Flaky(PlayerKind):
    name: ClassVar[str] = "flaky"
    forms: ClassVar[tuple[str, ...]] = ("flaky:NAME",)

    def parse(self, rest, text):
        return PlayerSpec(self.name, rest)

    def build(self, spec, context):
        return {}["settings"]  # the planted bug


FLAKY = Flaky()
"""


@pytest.fixture(scope="module")
def plugins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the two planted-bug distributions, as installed packages are."""
    folder = tmp_path_factory.mktemp("planted")
    for module, name, group, entry, source in (
        ("buggy_rps", "buggy-rps", "arena.games", f"buggy_rps = {GAME}\nstopping_rps = {STOP}", BUGGY_GAME),
        ("flaky_kind", "flaky-kind", "arena.players", "flaky = flaky_kind:FLAKY", BUGGY_KIND),
    ):
        (folder / f"{module}.py").write_text(source)
        info = folder / f"{module}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[{group}]\n{entry}\n")
    (folder / "models.toml").write_text("")  # no model of the user's leaks in
    return folder


def arena(
    plugins: Path, db: Path, *args: str, debug: str = "", extra: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    env = {
        **{k: v for k, v in os.environ.items() if k != "ARENA_DEBUG"},
        "PYTHONPATH": os.pathsep.join([str(plugins), str(EXAMPLES / "rock_paper_scissors")]),
        "ARENA_MODELS": str(plugins / "models.toml"),
    }
    if debug:
        env["ARENA_DEBUG"] = debug
    command = [sys.executable, "-m", "arena.cli.main", *extra, "--db", str(db), *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False)


PLAY = ("play", "buggy_rps", "--seat", "a=baseline:cycle", "--seat", "b=baseline:random", "--seed", "3")


def episodes(db: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as conn:
        return list(conn.execute("SELECT status, message FROM episodes ORDER BY id"))


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("arena: ") and "database" not in line]


def test_a_bug_in_a_games_result_is_named_as_the_games_bug_and_the_episode_ends_failed(
    plugins: Path, tmp_path: Path
) -> None:
    db = tmp_path / "a.db"
    done = arena(plugins, db, *PLAY, "--quiet")
    assert done.returncode == 1
    [line] = error_lines(done.stderr)
    assert line.startswith("arena: bug: game 'buggy_rps' raised ValueError: invalid literal for int()")
    assert "buggy_rps.py line 9, in result" in line
    assert "please report it" in line and "ARENA_DEBUG=1 or --debug" in line
    assert line.endswith("episode 1 saved as failed")
    assert "Traceback" not in done.stderr
    [(status, message)] = episodes(db)
    assert status == "failed"
    assert message.startswith("game 'buggy_rps' raised ValueError: invalid literal for int()")
    assert "(buggy_rps.py line 9, in result)" in message


@pytest.mark.parametrize(
    ("debug", "extra", "args"), [("1", (), ()), ("", ("--debug",), ()), ("", (), ("--debug",))]
)
def test_arena_debug_or_the_debug_flag_shows_the_traceback(
    plugins: Path, tmp_path: Path, debug: str, extra: tuple[str, ...], args: tuple[str, ...]
) -> None:
    done = arena(plugins, tmp_path / "a.db", *PLAY, "--quiet", *args, debug=debug, extra=extra)
    assert done.returncode == 1
    assert "Traceback (most recent call last)" in done.stderr
    assert 'return {seat: int("x") for seat in self.seats}' in done.stderr
    assert error_lines(done.stderr)[-1].startswith("arena: bug: game 'buggy_rps' raised ValueError")


def test_a_bug_in_a_player_kind_is_named_as_the_kinds_bug(plugins: Path, tmp_path: Path) -> None:
    done = arena(plugins, tmp_path / "a.db", "play", "rock_paper_scissors_missing", "--seat", "a=flaky:x")
    assert done.returncode == 2  # a user's mistake stays one line: no such game
    assert error_lines(done.stderr)[0].startswith("arena: error: ")
    done = arena(plugins, tmp_path / "a.db", *PLAY[:3], "a=flaky:x", *PLAY[4:])
    assert done.returncode == 1
    [line] = error_lines(done.stderr)
    assert line.startswith("arena: bug: player kind 'flaky' raised KeyError: 'settings' (flaky_kind.py line")
    assert ", in build)" in line and "Traceback" not in done.stderr


def test_a_users_mistake_stays_one_error_line(plugins: Path, tmp_path: Path) -> None:
    done = arena(plugins, tmp_path / "a.db", *PLAY[:3], "a=baseline:nobody", *PLAY[4:])
    assert done.returncode == 2
    [line] = error_lines(done.stderr)
    assert line.startswith("arena: error: buggy_rps has no baseline 'nobody'")


def test_a_bug_that_stops_an_episode_midway_is_stored_with_the_plugin_and_place(
    plugins: Path, tmp_path: Path
) -> None:
    db = tmp_path / "a.db"
    done = arena(plugins, db, "play", "stopping_rps", *PLAY[2:], "--quiet")
    assert done.returncode == 1
    [line] = error_lines(done.stderr)
    assert line.startswith("arena: bug: game 'stopping_rps' raised IndexError: round 3 is off the end")
    [(status, message)] = episodes(db)
    assert status == "failed"
    assert message.startswith("game 'stopping_rps' raised IndexError: round 3 is off the end (buggy_rps.py")
    assert ", in apply); a bug in that plugin" in message
