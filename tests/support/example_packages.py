"""Installing a package from ``examples/`` the way a user would, without touching the project's venv.

The package is copied to a temp folder and pip-installed there with ``--target`` (no network:
``--no-deps --no-build-isolation``); a CLI started with that folder on ``PYTHONPATH`` finds its
entry points.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``args`` with ``env``, capturing text output; the caller checks the return code."""
    return subprocess.run(args, capture_output=True, text=True, env=env, check=False)


def install_example(name: str, base: Path) -> dict[str, str]:
    """Install ``examples/NAME`` under ``base``; the environment variables under which it is installed."""
    source = base / "source"
    shutil.copytree(
        EXAMPLES / name, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
    )
    target = base / "site"
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
    result = run([*command, "--target", str(target), str(source)], dict(os.environ))
    assert result.returncode == 0, result.stderr[-2000:]
    models = base / "models.toml"
    models.write_text("")  # an empty models file: no model of the user's leaks in
    return {**os.environ, "PYTHONPATH": str(target), "ARENA_MODELS": str(models)}
