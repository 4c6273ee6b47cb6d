"""A third-party game installs as its own package and plays through the CLI.

``examples/sealed_bid`` is pip-installed into a temp folder (:mod:`tests.example_packages`;
the project's environment stays as it is) and found through its ``arena.games`` entry
point by a CLI started with that folder on ``PYTHONPATH``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.support.example_packages import install_example, run


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Environment variables under which the example game is installed."""
    return install_example("sealed_bid", tmp_path_factory.mktemp("example"))


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
