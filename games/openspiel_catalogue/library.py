"""The one door to ``pyspiel``: the registry, loading a game quietly, the library's version.

``pyspiel`` is imported on first use only, so listing the catalogue never needs it. Every
``SpielError`` is also printed to stderr by the library's C++ side (``OpenSpiel exception:
...``) even when Python catches it; loads with a person's parameters run with file
descriptor 2 silenced so the one-line error Arena prints is the only one.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.metadata
import importlib.util
import os
from collections.abc import Iterator
from typing import Any

PACKAGE = "open-spiel"
"""The library's PyPI name (``pip install open-spiel``)."""
LIBRARY = "OpenSpiel"


def installed() -> bool:
    """Whether ``pyspiel`` can be imported here (found without importing it)."""
    return importlib.util.find_spec("pyspiel") is not None


@functools.cache
def version() -> str:
    """The installed open-spiel version (``2.0.2``)."""
    return importlib.metadata.version(PACKAGE)


def spiel() -> Any:
    """The ``pyspiel`` module (imported here, once)."""
    import pyspiel

    return pyspiel


@functools.cache
def registry() -> dict[str, Any]:
    """Every registered game's ``GameType`` by short name (the C++ games only)."""
    return {game_type.short_name: game_type for game_type in spiel().registered_games()}


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """File descriptor 2 sent to /dev/null for the block (the library's own copy of its errors)."""
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def first_line(error: BaseException) -> str:
    """A library error on one line (an unknown game's message lists all 126 games after it)."""
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


@functools.lru_cache(maxsize=256)
def _load(name: str, frozen: tuple[tuple[str, Any], ...]) -> Any:
    pyspiel = spiel()
    try:
        with quiet_stderr():
            return pyspiel.load_game(name, dict(frozen))
    except pyspiel.SpielError as exc:
        raise ValueError(f"OpenSpiel cannot load {name} with these parameters: {first_line(exc)}") from None


def load(name: str, parameters: dict[str, Any]) -> Any:
    """``pyspiel.load_game(name, parameters)``, cached (a game is immutable); ValueError in one line."""
    return _load(name, tuple(sorted(parameters.items())))


def load_fresh(name: str, parameters: dict[str, Any]) -> Any:
    """``pyspiel.load_game(name, parameters)`` loaded anew (a game holding its own generator); ValueError."""
    return _load.__wrapped__(name, tuple(sorted(parameters.items())))


@functools.lru_cache(maxsize=64)
def load_string(text: str) -> Any:
    """``pyspiel.load_game(text)`` for a game string the library wrote (``str(game)``), cached."""
    return spiel().load_game(text)


CHANCE = -1
"""``pyspiel.PlayerId.CHANCE``: the player of a chance outcome in a history."""
