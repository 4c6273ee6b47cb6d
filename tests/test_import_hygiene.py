"""The engine and the games import neither Textual nor any model SDK (DESIGN principle 5)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

CORE_MODULES = [
    "arena.game",
    "arena.player",
    "arena.runner",
    "arena.store",
    "arena.recorder",
    "arena.match",
    "arena.tournament.run",
    "arena.export",
    "arena.cli",
    "games.lemonade",
    "games.bargain",
]
FORBIDDEN = ["textual", "openai", "anthropic", "llama_cpp_py_sync"]


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_imports_no_tui_and_no_sdk(module: str) -> None:
    code = f"import sys, json, {module}\nprint(json.dumps([m for m in {FORBIDDEN!r} if m in sys.modules]))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == [], f"{module} pulls in {result.stdout.strip()}"


def test_the_game_can_be_played_without_the_sdks_loaded() -> None:
    code = (
        "import asyncio, sys, json\n"
        "from arena.match import MatchConfig, play_match\n"
        "seats = {'a': 'baseline:weather', 'b': 'baseline:random'}\n"
        "asyncio.run(play_match(MatchConfig('lemonade', seats), None))\n"
        f"print(json.dumps([m for m in {FORBIDDEN!r} if m in sys.modules]))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == []


def test_the_writer_process_builds_turn_rows_without_pydantic_or_the_engine() -> None:
    # What the store's writer child imports to unpickle and build turn rows: it starts fast
    # and stays small because it needs neither pydantic nor the rest of Arena.
    code = (
        "import sys, json, arena.background_writer, arena.turn_rows\n"
        "print(json.dumps(sorted(m for m in sys.modules if m == 'pydantic' or m.startswith('arena.'))))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    expected = ["arena.background_writer", "arena.orphan_writers", "arena.turn_rows", "arena.writer_frames"]
    assert json.loads(result.stdout) == expected
