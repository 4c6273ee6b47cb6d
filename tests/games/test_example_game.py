"""A third-party game passes the conformance checker before it is installed, then installs as
its own package and plays through the CLI.

``examples/sealed_bid`` and ``examples/rock_paper_scissors`` are each pip-installed into a temp
folder (:mod:`tests.support.example_packages`; the project's environment stays as it is) and
found through their ``arena.games`` entry point by a CLI started with that folder on
``PYTHONPATH``. Before that, ``check_game`` runs on the source folder alone: no entry point
names the game.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.support.example_packages import EXAMPLES, install_example, run


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Environment variables under which the sealed-bid example is installed."""
    return install_example("sealed_bid", tmp_path_factory.mktemp("sealed_bid"))


@pytest.fixture(scope="module")
def rps_installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Environment variables under which the rock-paper-scissors example is installed."""
    return install_example("rock_paper_scissors", tmp_path_factory.mktemp("rock_paper_scissors"))


def test_the_installed_game_is_listed_and_plays_through_the_cli(
    installed: dict[str, str], tmp_path: Path
) -> None:
    arena = [sys.executable, "-m", "arena.cli.main"]
    listed = run([*arena, "games"], installed)
    assert listed.returncode == 0 and "sealed_bid\tSealed-bid auction" in listed.stdout
    assert "sealed_bid" not in run([*arena, "games"], dict(os.environ)).stdout
    db = tmp_path / "arena.db"
    seats = [arg for seat in "abc" for arg in ("--seat", f"{seat}=baseline:shade")]
    played = run(
        [*arena, "--db", str(db), "play", "sealed_bid", *seats, "--seed", "4", "--option", "items=5"],
        installed,
    )
    assert played.returncode == 0, played.stderr[-2000:]
    assert "finished" in played.stdout and "bid " in played.stdout
    exported = run([*arena, "--db", str(db), "export", "1"], installed)
    assert exported.returncode == 0, exported.stderr[-2000:]
    document = json.loads(exported.stdout)
    assert document["episode"]["game"] == "sealed_bid" and len(document["turns"]) == 15


def test_the_installed_game_passes_check_game(installed: dict[str, str]) -> None:
    code = "from arena.testing import check_game; from sealed_bid import DEFINITION; check_game(DEFINITION)"
    checked = run([sys.executable, "-c", code], installed)
    assert checked.returncode == 0, checked.stderr[-2000:]


CHECK_UNINSTALLED = """
from arena.plugins.games import UnknownGameError, get_game
from arena.testing import check_game
from {package} import DEFINITION
try:
    get_game(DEFINITION.name)
except UnknownGameError:
    pass
else:
    raise SystemExit("the game is installed: this checks nothing")
check_game(DEFINITION)
print("checked")
"""


@pytest.mark.parametrize("example", ["rock_paper_scissors", "sealed_bid"])
def test_a_game_passes_check_game_before_it_is_installed(example: str, tmp_path: Path) -> None:
    # The source folder is importable, but no entry point names the game: the stored episode
    # check_game records is rebuilt by the definition it was handed.
    env = {**os.environ, "PYTHONPATH": str(EXAMPLES / example), "ARENA_MODELS": str(tmp_path / "none.toml")}
    checked = run([sys.executable, "-c", CHECK_UNINSTALLED.format(package=example)], env)
    assert checked.returncode == 0 and "checked" in checked.stdout, checked.stderr[-2000:]


def test_the_installed_rock_paper_scissors_plays_through_the_cli(
    rps_installed: dict[str, str], tmp_path: Path
) -> None:
    arena = [sys.executable, "-m", "arena.cli.main"]
    listed = run([*arena, "games"], rps_installed)
    assert listed.returncode == 0 and "rock_paper_scissors\tRock-paper-scissors" in listed.stdout
    db = tmp_path / "arena.db"
    seats = ["--seat", "a=baseline:cycle", "--seat", "b=baseline:beat-last"]
    command = [*arena, "--db", str(db), "play", "rock_paper_scissors", *seats, "--seed", "2"]
    played = run([*command, "--option", "rounds=4"], rps_installed)
    assert played.returncode == 0, played.stderr[-2000:]
    # The default view describes each throw from the action's fields.
    assert "finished" in played.stdout and "throw rock" in played.stdout
    exported = run([*arena, "--db", str(db), "export", "1"], rps_installed)
    assert exported.returncode == 0, exported.stderr[-2000:]
    document = json.loads(exported.stdout)
    assert document["episode"]["game"] == "rock_paper_scissors" and len(document["turns"]) == 8
    # cycle throws rock, paper, scissors, rock; beat-last answers b's view of a's last throw.
    assert [t["action"]["throw"] for t in document["turns"] if t["seat"] == "a"] == [
        "rock",
        "paper",
        "scissors",
        "rock",
    ]
    assert [t["action"]["throw"] for t in document["turns"] if t["seat"] == "b"] == [
        "rock",
        "paper",
        "scissors",
        "rock",
    ]
    assert all(t["observation"] is not None and "rebuild_error" not in t for t in document["turns"])
