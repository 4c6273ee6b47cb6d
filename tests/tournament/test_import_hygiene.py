"""The tournament core imports no TUI, no Rich, no model SDK and no game."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

MODULES = [
    "arena.tournament.schedule",
    "arena.tournament.records",
    "arena.tournament.ratings",
    "arena.tournament.metrics",
    "arena.tournament.plackett_luce",
    "arena.tournament.confidence",
    "arena.tournament.tables",
    "arena.tournament.report_schema",
]
FORBIDDEN = ["textual", "rich", "openai", "anthropic", "llama_cpp_py_sync", "games", "arena.store.database"]


@pytest.mark.parametrize("module", MODULES)
def test_tournament_core_is_pure(module: str) -> None:
    code = f"import sys, json, {module}\nprint(json.dumps([m for m in {FORBIDDEN!r} if m in sys.modules]))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == [], f"{module} pulls in {result.stdout.strip()}"
