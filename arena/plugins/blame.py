"""Which plugin raised an exception: a bug in a game, a player kind or a provider says so.

An exception is blamed on a plugin when the innermost frame of its traceback that is Arena's
or a plugin's (libraries such as pydantic in between are looked through) belongs to a module a
plugin registered: the package of an ``arena.games``, ``arena.catalogues``, ``arena.players``
or ``arena.providers`` entry point (the module itself when it is a lone module). Arena's own
modules are never a plugin: an exception raised there is Arena's to explain.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import FrameType, TracebackType

from arena.contract.game import GameDefinition
from arena.plugins.entry_points import plugin_points

GROUPS = (
    ("arena.games", "game"),
    ("arena.catalogues", "game catalogue"),
    ("arena.players", "player kind"),
    ("arena.providers", "provider"),
)
"""The entry point groups whose code can be blamed, and what each plugin is called in a message."""
DEBUG_HINT = "ARENA_DEBUG=1 or --debug shows the traceback"


@dataclass(frozen=True, slots=True)
class Blame:
    """The plugin an exception was raised in, and where."""

    what: str
    """``game``, ``game catalogue``, ``player kind`` or ``provider``."""
    name: str
    """The plugin's entry point name."""
    place: str
    """``FILE line N, in FUNCTION``: the plugin's innermost frame."""

    def message(self, error: BaseException) -> str:
        """One line: the plugin, the error, the place, and that it is a bug to report."""
        text = " ".join(str(error).split())
        raised = f"{type(error).__name__}: {text}" if text else type(error).__name__
        return f"{self.what} {self.name!r} raised {raised} ({self.place}); {BUG}"


BUG = "a bug in that plugin, not in what was asked: please report it to its authors"


def bug_line(error: BaseException, blame: Blame) -> str:
    """What a front end prints for a plugin's bug: whose bug it is, where, and how to see more."""
    return f"{blame.message(error)} ({DEBUG_HINT})"


@cache
def _prefixes() -> tuple[tuple[str, str, str], ...]:
    """(module prefix, what, name) for every registered plugin, the longest prefixes first."""
    found: dict[str, tuple[str, str]] = {}
    for group, what in GROUPS:
        for name, point in plugin_points(group).items():
            module = point.value.split(":", 1)[0].strip()
            if not module or module.split(".")[0] == "arena":
                continue  # Arena's own built-in kinds (baseline, human) are Arena's code
            found.setdefault(module, (what, name))
    return tuple(sorted(((m, w, n) for m, (w, n) in found.items()), key=lambda item: -len(item[0])))


def _package_of(module: str) -> str:
    """The package a plugin's module belongs to (its code may live in sibling modules), or itself."""
    loaded = sys.modules.get(module)
    if loaded is None or hasattr(loaded, "__path__") or "." not in module:
        return module
    return module.rsplit(".", 1)[0]


def _owner(module: str) -> tuple[str, str] | None:
    """(what, name) of the plugin ``module`` belongs to, or ``None``.

    A plugin's own module wins; then its package, named after the plugin when it holds one
    plugin and after the package when it holds several (``players.providers``)."""
    exact = [(prefix, what, name) for prefix, what, name in _prefixes() if _within(module, prefix)]
    if exact:
        prefix, what, name = max(exact, key=lambda item: len(item[0]))
        return what, name
    claims: dict[str, set[tuple[str, str]]] = {}
    for prefix, what, name in _prefixes():
        package = _package_of(prefix)
        if _within(module, package):
            claims.setdefault(package, set()).add((what, name))
    if not claims:
        return None
    package = max(claims, key=len)
    owners = claims[package]
    if len(owners) == 1:
        return next(iter(owners))
    return sorted(owners)[0][0], package


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def blame(error: BaseException) -> Blame | None:
    """The plugin ``error`` was raised in, or ``None`` (raised by Arena, a library or Python)."""
    frames: list[FrameType] = []
    lines: list[int] = []
    tb: TracebackType | None = error.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        lines.append(tb.tb_lineno)
        tb = tb.tb_next
    for at in range(len(frames) - 1, -1, -1):
        module = str(frames[at].f_globals.get("__name__", ""))
        if module.split(".")[0] == "arena":
            return None  # Arena raised it (perhaps called by a plugin): Arena explains its own errors
        owner = _owner(module)
        if owner is not None:
            what, name = owner
            if what.startswith("game"):  # one module may register several games: the one playing
                what, name = "game", _game_playing(frames[: at + 1]) or name
            # A comprehension or lambda is named by the function it is written in.
            code = frames[at].f_code
            named = next(
                (
                    f.f_code.co_name
                    for f in reversed(frames[: at + 1])
                    if not f.f_code.co_name.startswith("<")
                ),
                code.co_name,
            )
            return Blame(what, name, f"{Path(code.co_filename).name} line {lines[at]}, in {named}")
    return None


def _game_playing(frames: list[FrameType]) -> str | None:
    """The registered name of the game whose method raised (its ``self``), innermost frame first."""
    for frame in reversed(frames):
        holder = frame.f_locals.get("self")
        definition = getattr(holder, "definition", holder)
        if isinstance(definition, GameDefinition):  # a state's or a definition's method
            return str(definition.name)
    return None


def refresh() -> None:
    """Forget the plugins read (after installing one in this process)."""
    _prefixes.cache_clear()
