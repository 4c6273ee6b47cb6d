"""Arena ships ``py.typed``: a game package outside this repository type-checks against it.

Arena is built as a wheel and installed into a temp folder (not the editable install of this
checkout, which mypy cannot see through), and mypy checks the rock-paper-scissors example,
copied out of the repository, in strict mode against it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, cwd=cwd, env=env, check=False)


def test_a_game_outside_the_repository_type_checks_against_the_installed_arena(tmp_path: Path) -> None:
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    source = tmp_path / "arena-source"  # built from a copy: the build leaves nothing in the checkout
    for folder in ("arena", "games", "players"):
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    built = run(
        [*pip, "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), str(source)],
        source,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = tmp_path.glob("arena-*.whl")
    assert "arena/py.typed" in zipfile.ZipFile(wheel).namelist()
    site = tmp_path / "site"
    installed = run([*pip, "install", "--quiet", "--no-deps", "--target", str(site), str(wheel)], tmp_path)
    assert installed.returncode == 0, installed.stderr[-2000:]
    game = tmp_path / "game"
    shutil.copytree(
        ROOT / "examples" / "rock_paper_scissors", game, ignore=shutil.ignore_patterns("__pycache__")
    )
    # mypy reads installed packages off the interpreter's path: the temp folder stands for site-packages.
    env = {**os.environ, "PYTHONPATH": str(site)}
    mypy = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "rock_paper_scissors", "tests"]
    checked = run(mypy, game, env)
    assert checked.returncode == 0, checked.stdout[-3000:]
