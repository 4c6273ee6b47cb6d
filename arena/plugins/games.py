"""Finding games: every game, built-in or third-party, registers in the ``arena.games`` group.

A package declares ``[project.entry-points."arena.games"] NAME = "module:DEFINITION"``.
Entry points are read lazily and a game module is imported only when that game is asked
for, so the CLI starts fast and one broken game cannot take the others down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.contract.game import GameDefinition
from arena.plugins import entry_points as plugins

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GAMES_GROUP = "arena.games"
_loaded: dict[str, GameDefinition] = {}


class UnknownGameError(LookupError):
    """Raised for a game name no installed package registers (or that cannot load)."""


def _entry_points() -> dict[str, EntryPoint]:
    return plugins.plugin_points(GAMES_GROUP)


def refresh() -> None:
    """Forget what was discovered (after installing a game package in this process)."""
    plugins.refresh()
    _loaded.clear()


def game_names() -> list[str]:
    """Names of every registered game that loads, by listing order, then name."""
    loaded = []
    for name in _entry_points():
        try:
            loaded.append(get_game(name))
        except UnknownGameError:
            continue
    return [game.name for game in sorted(loaded, key=lambda game: (game.listing_order, game.name))]


def get_game(name: str) -> GameDefinition:
    """The definition of game ``name``; raises :class:`UnknownGameError` if there is none."""
    if name in _loaded:
        return _loaded[name]
    point = _entry_points().get(name)
    if point is None:
        known = ", ".join(_entry_points()) or "none installed"
        raise UnknownGameError(f"unknown game {name!r} (known: {known})")
    try:
        definition = plugins.load_plugin(point)
    except (ImportError, AttributeError) as exc:
        raise UnknownGameError(f"game {name!r} cannot be loaded ({exc})") from None
    if not isinstance(definition, GameDefinition):
        raise UnknownGameError(f"game {name!r} does not point at a GameDefinition ({point.value})")
    _loaded[name] = definition
    return definition


def installed_game(name: str) -> GameDefinition | None:
    """The definition of game ``name`` if it is installed and loads, else ``None``.

    For readers of stored episodes: one of a game no longer installed stays readable.
    """
    try:
        return get_game(name)
    except UnknownGameError:
        return None


__all__ = ["GameDefinition", "UnknownGameError", "game_names", "get_game", "installed_game", "refresh"]
