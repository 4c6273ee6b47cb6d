"""Finding games: every game, built-in or third-party, registers in the ``arena.games`` group.

A package declares ``[project.entry-points."arena.games"] NAME = "module:DEFINITION"``.
Entry points are read lazily and a game module is imported only when that game is asked
for, so the CLI starts fast and one broken game cannot take the others down.

Catalogues (another library's games through one adapter, :mod:`arena.contract.catalogue`)
register in the ``arena.catalogues`` group by prefix; their games are named ``PREFIX:NAME``
and are found the same way: ``get_game("openspiel:liars_dice")``.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any

from arena.contract.catalogue import PREFIX_SEPARATOR, Catalogue, CatalogueError
from arena.contract.game import GameDefinition
from arena.plugins import entry_points as plugins

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GAMES_GROUP = "arena.games"
CATALOGUES_GROUP = "arena.catalogues"
_loaded: dict[str, GameDefinition] = {}
_catalogues: dict[str, Catalogue] = {}


class UnknownGameError(LookupError):
    """Raised for a game name no installed package registers (or that cannot load)."""


def _entry_points() -> dict[str, EntryPoint]:
    return plugins.plugin_points(GAMES_GROUP)


def refresh() -> None:
    """Forget what was discovered (after installing a game package in this process)."""
    plugins.refresh()
    _loaded.clear()
    _catalogues.clear()


def game_names() -> list[str]:
    """Names of every registered game that loads, by listing order, then name.

    Then each catalogue's curated games (``PREFIX:NAME``), catalogue by catalogue.
    """
    loaded = []
    for name in _entry_points():
        try:
            loaded.append(get_game(name))
        except UnknownGameError:
            continue
    names = [game.name for game in sorted(loaded, key=lambda game: (game.listing_order, game.name))]
    for catalogue in catalogues():
        names += [catalogue.qualified(name) for name in catalogue.listed()]
    return names


def unavailable_games() -> dict[str, str]:
    """Catalogue games known but not playable here (``PREFIX:NAME``), each with its reason."""
    found: dict[str, str] = {}
    for catalogue in catalogues():
        found.update({catalogue.qualified(name): why for name, why in catalogue.unavailable().items()})
    return found


def catalogues() -> list[Catalogue]:
    """Every installed catalogue that loads, in entry point order."""
    found = []
    for prefix in plugins.plugin_points(CATALOGUES_GROUP):
        try:
            found.append(catalogue(prefix))
        except UnknownGameError:
            continue
    return found  # in entry point order, whichever was loaded first (lists must not depend on history)


def _load_point(group: str, name: str, what: str, expected: type[Any]) -> Any:
    """The ``expected`` that entry point ``name`` of ``group`` names; one-line errors call it a ``what``."""
    points = plugins.plugin_points(group)
    point = points.get(name)
    if point is None:
        known = ", ".join(points) or "none installed"
        raise UnknownGameError(f"unknown {what} {name!r} (known: {known})")
    try:
        loaded = plugins.load_plugin(point)
    except (ImportError, AttributeError) as exc:
        raise UnknownGameError(f"{what} {name!r} cannot be loaded ({exc})") from None
    if not isinstance(loaded, expected):
        raise UnknownGameError(f"{what} {name!r} does not point at a {expected.__name__} ({point.value})")
    return loaded


def catalogue(prefix: str) -> Catalogue:
    """The catalogue registered as ``prefix``; raises :class:`UnknownGameError` if there is none."""
    if prefix in _catalogues:
        return _catalogues[prefix]
    loaded: Catalogue = _load_point(CATALOGUES_GROUP, prefix, "game catalogue", Catalogue)
    _catalogues[prefix] = loaded
    return loaded


def _catalogue_game(name: str) -> GameDefinition:
    prefix, _, own_name = name.partition(PREFIX_SEPARATOR)
    try:
        definition = catalogue(prefix).load(own_name)
    except CatalogueError as exc:
        raise UnknownGameError(str(exc)) from None
    if not isinstance(definition, GameDefinition) or definition.name != name:
        raise UnknownGameError(f"game catalogue {prefix!r} did not give a definition named {name!r}")
    _loaded[name] = definition
    return definition


def get_game(name: str) -> GameDefinition:
    """The definition of game ``name``; raises :class:`UnknownGameError` if there is none."""
    if name in _loaded:
        return _loaded[name]
    if PREFIX_SEPARATOR in name:
        return _catalogue_game(name)
    if name not in plugins.plugin_points(GAMES_GROUP):
        raise UnknownGameError(unknown_game_message(name))
    definition: GameDefinition = _load_point(GAMES_GROUP, name, "game", GameDefinition)
    _loaded[name] = definition
    return definition


def unknown_game_message(name: str) -> str:
    """``unknown game 'lemonad' (did you mean lemonade?); ...``: the nearest names of every kind.

    A catalogue game is asked for by ``PREFIX:NAME`` (``openspiel:tic_tac_toe``), which a
    newcomer cannot guess: the message names the catalogues and suggests their close games.
    """
    own = list(plugins.plugin_points(GAMES_GROUP))
    prefixes = list(plugins.plugin_points(CATALOGUES_GROUP))
    candidates = {game: game for game in own}
    for found in catalogues():
        for listed in found.listed():
            qualified = found.qualified(listed)
            candidates.setdefault(listed.lower(), qualified)
            candidates.setdefault(qualified.lower(), qualified)
    wanted = name.lower()
    close = difflib.get_close_matches(wanted, list(candidates), n=3, cutoff=0.6)
    nearest = list(dict.fromkeys(candidates[c] for c in close))
    hint = f" (did you mean {' or '.join(nearest)}?)" if nearest else ""
    known = ", ".join(own) or "none installed"
    catalogue_note = (
        f"; catalogue games are named PREFIX:NAME, catalogues: {', '.join(prefixes)} (see: arena games)"
        if prefixes
        else ""
    )
    return f"unknown game {name!r}{hint}; Arena's games: {known}{catalogue_note}"


def installed_game(name: str) -> GameDefinition | None:
    """The definition of game ``name`` if it is installed and loads, else ``None``.

    For readers of stored episodes: one of a game no longer installed stays readable.
    """
    try:
        return get_game(name)
    except UnknownGameError:
        return None


__all__ = [
    "GameDefinition",
    "UnknownGameError",
    "catalogue",
    "catalogues",
    "game_names",
    "get_game",
    "installed_game",
    "refresh",
    "unavailable_games",
]
