"""The import contracts in pyproject.toml hold, and every arena module is classified by them."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FRONT_ENDS = {
    "arena.app",
    "arena.cli",
    "arena.cli_args",
    "arena.cli_episodes",
    "arena.cli_output",
    "arena.cli_tournament",
    "arena.testing",
}


def contracts() -> list[dict[str, object]]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    found: list[dict[str, object]] = data["tool"]["importlinter"]["contracts"]
    return found


def test_every_arena_module_is_engine_or_front_end() -> None:
    engine = contracts()[0]["source_modules"]
    assert isinstance(engine, list)
    modules = {f"arena.{path.stem}" for path in (ROOT / "arena").glob("*.py") if path.stem != "__init__"}
    modules |= {
        f"arena.{path.name}" for path in (ROOT / "arena").iterdir() if (path / "__init__.py").exists()
    }
    unclassified = modules - set(engine) - FRONT_ENDS
    assert not unclassified, f"add these to the engine contract or the front ends: {sorted(unclassified)}"
    assert not set(engine) & FRONT_ENDS


def test_import_linter_contracts_are_kept() -> None:
    linter = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run([str(linter)], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "BROKEN" not in result.stdout and result.stdout.count("KEPT") == len(contracts())
