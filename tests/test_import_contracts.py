"""The import contracts in pyproject.toml hold, cover every package, and catch a layer crossed."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINTER = Path(sys.executable).parent / "lint-imports"


def contracts() -> list[dict[str, object]]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    found: list[dict[str, object]] = data["tool"]["importlinter"]["contracts"]
    return found


def lint(cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINTER)], cwd=cwd, capture_output=True, text=True, check=False)


def test_every_arena_package_sits_in_a_layer() -> None:
    layers = contracts()[0]
    assert layers["type"] == "layers" and layers["exhaustive"] is True
    listed = {name.strip() for layer in layers["layers"] for name in str(layer).split("|")}  # type: ignore[attr-defined]
    packages = {path.name for path in (ROOT / "arena").iterdir() if (path / "__init__.py").exists()}
    modules = {path.stem for path in (ROOT / "arena").glob("*.py") if path.stem != "__init__"}
    assert packages | modules == listed


def test_import_linter_contracts_are_kept() -> None:
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "BROKEN" not in result.stdout and result.stdout.count("KEPT") == len(contracts())


def test_an_upward_import_breaks_the_layers(tmp_path: Path) -> None:
    """The store importing the CLI is caught: the layers contract is not vacuous."""
    for name in ("arena", "games", "players"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    paths = tmp_path / "arena" / "store" / "paths.py"
    paths.write_text(paths.read_text() + "\nimport arena.cli.args  # noqa: E402\n")
    result = subprocess.run(
        [str(LINTER)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(tmp_path)},
    )
    assert result.returncode == 1, result.stdout[-3000:]
    assert "arena.store.paths -> arena.cli.args" in result.stdout
