"""The TextArena catalogue's static tables agree with the installed library, and listing stays cheap.

The tables (``games.textarena_catalogue.listing``) are data so that ``arena games`` need not
import TextArena (~1.4 s). These tests read the library's registry and its files (never
importing an unavailable environment: that is where the NLTK download would start).
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.textarena_catalogue.listing import (
    CANDIDATES,
    LIBRARY_VERSION,
    LISTED,
    NEEDS_API,
    NEEDS_NLTK,
    NEEDS_PY312,
    UNAVAILABLE,
)
from games.textarena_catalogue.moves import MOVES
from tests.support.optional import needs

pytestmark = needs("textarena")


@functools.cache
def registry() -> dict[str, Any]:
    """TextArena's registry of environments (importing TextArena, when a test first asks)."""
    from textarena.envs.registration import ENV_REGISTRY

    return dict(ENV_REGISTRY)


def _source_folder(env_id: str) -> Path:
    import textarena

    module = registry()[env_id].entry_point.split(":")[0]
    return Path(textarena.__file__).parent.parent.joinpath(*module.split(".")).parent


def _sources(env_id: str) -> str:
    return "".join(path.read_text() for path in sorted(_source_folder(env_id).rglob("*.py")))


def test_the_tables_are_for_the_installed_release() -> None:
    assert importlib.metadata.version("textarena") == LIBRARY_VERSION


@pytest.mark.parametrize("env_id", sorted(LISTED))
def test_a_listed_environment_is_registered_with_the_options_it_offers(env_id: str) -> None:
    entry = LISTED[env_id]
    spec = registry()[env_id]
    assert {name: spec.kwargs.get(name) for name, _ in entry.options} == dict(entry.options)
    assert all(isinstance(default, int | float | bool | str) for _, default in entry.options)
    assert entry.moves is None or entry.moves == "announced" or entry.moves in MOVES
    assert entry.listed_moves or entry.examples  # a free-move game names its stand-in moves
    # numpy's global generator is swapped only for environments whose code draws from it
    assert entry.uses_numpy == ("np.random" in _sources(env_id))


@pytest.mark.parametrize("env_id", sorted(UNAVAILABLE))
def test_each_unavailable_reason_is_true_of_the_library(env_id: str) -> None:
    reason = UNAVAILABLE[env_id]
    assert env_id not in LISTED
    if reason.startswith("fails Arena's catalogue check"):
        assert env_id in CANDIDATES  # the check's own words (tests/games/test_textarena_catalogue.py)
        return
    if "not registered" in reason:
        assert env_id not in registry()
        return
    assert env_id in registry()
    sources = _sources(env_id)
    if reason == NEEDS_PY312:
        env_file = _source_folder(env_id) / "env.py"
        if sys.version_info < (3, 12):
            with pytest.raises(SyntaxError):
                ast.parse(env_file.read_text())
    elif reason == NEEDS_API:
        assert "OpenRouter" in sources
    elif reason == NEEDS_NLTK or "NLTK" in reason:
        assert "nltk" in sources or "word_lists" in sources
        if "OpenRouter" in reason:
            assert "OpenRouter" in sources
    elif "blue_book.txt" in reason:
        assert not (_source_folder(env_id) / "instructions" / "blue_book.txt").exists()
    elif "games_descriptions" in reason:
        assert not (_source_folder(env_id) / "games_descriptions").exists()
    elif "module is not in the wheel" in reason:
        assert not _source_folder(env_id).exists()
    else:
        assert "needs gym" in reason and "import gym" in sources
        assert importlib.util.find_spec("gym") is None


def test_listing_imports_no_textarena() -> None:
    # in a fresh interpreter: the names, the definitions' facts (what `arena games` prints) and the
    # unavailable reasons come from static data
    code = (
        "import sys\n"
        "from arena.plugins.games import game_names, get_game, unavailable_games\n"
        "names = [n for n in game_names() if n.startswith('textarena:')]\n"
        "facts = [(get_game(n).title, get_game(n).options, get_game(n).default_seats) for n in names]\n"
        "gone = [n for n in unavailable_games() if n.startswith('textarena:')]\n"
        "print(len(names), len(gone), 'textarena' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [str(len(LISTED)), str(len(UNAVAILABLE)), "False"]
