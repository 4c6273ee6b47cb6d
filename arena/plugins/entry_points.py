"""Reading entry points: the one place Arena does, for every plugin group.

Games (``arena.games``), player kinds (``arena.players``) and model providers
(``arena.providers``) are all found here, built-in or third-party alike: a package declares
``[project.entry-points."GROUP"] NAME = "module:OBJECT"``. Every group's entry points are read
in one pass, once per process (:func:`refresh` forgets them): reading them means opening every
installed distribution's metadata, about 12 ms a pass here, and ``arena games`` alone reads two
groups. A plugin's module is imported only when that plugin is loaded, so listing one group
never imports another's code.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any


@cache
def plugin_points(group: str) -> dict[str, EntryPoint]:
    """Every entry point of ``group`` by name, without importing anything."""
    return {point.name: point for point in _every_point().select(group=group)}


@cache
def _every_point() -> Any:
    """Every installed entry point, read in one pass (``select(group=...)`` picks a group's)."""
    return entry_points()  # Python 3.11 gives its SelectableGroups here, 3.12 EntryPoints: both select


def load_plugin(point: EntryPoint) -> object:
    """The object ``point`` names; a class is instantiated (with no arguments).

    Raises ``ImportError`` or ``AttributeError`` when the module or the name is missing.
    """
    loaded = point.load()
    return loaded() if isinstance(loaded, type) else loaded


def installed(group: str, expected: type[object]) -> list[Any]:
    """Every plugin of ``group`` that loads and is an ``expected``, in entry point order.

    An entry may also name a function that returns a list or tuple of them: a family, such as
    one player kind per installed model provider. A plugin that fails to import, or is not an
    ``expected``, is left out so that it cannot take the others down.
    """
    found: list[Any] = []
    for point in plugin_points(group).values():
        try:
            loaded = load_plugin(point)
            if callable(loaded) and not isinstance(loaded, expected):
                loaded = loaded()
        except Exception:  # whatever a broken plugin raises, the others still load
            continue
        members = loaded if isinstance(loaded, list | tuple) else [loaded]
        found += [member for member in members if isinstance(member, expected)]
    return found


def refresh() -> None:
    """Forget what was read (after installing a plugin package in this process)."""
    plugin_points.cache_clear()
    _every_point.cache_clear()
