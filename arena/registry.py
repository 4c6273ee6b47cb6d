"""Registry of games and their scripted baselines.

Games register themselves lazily: the registry knows module paths and imports a game
only when it is asked for, so the CLI starts fast and one broken game cannot take down
the others.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from arena.game import Game
from arena.player import Player

BaselineFactory = Callable[[random.Random], Player]
"""Builds a baseline player from a generator owned by the run (seeded per seat)."""


@dataclass(frozen=True)
class GameOption:
    """One user-settable game option with its default and help text."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    minimum: float | None = None
    maximum: float | None = None


@dataclass(frozen=True)
class BaselineInfo:
    """A scripted player a game offers, with a one-line description."""

    name: str
    description: str
    factory: BaselineFactory


@dataclass(frozen=True)
class GameSpec:
    """Everything Arena needs to know about a game before it starts one."""

    name: str
    title: str
    description: str
    game_class: type[Game]
    seats: tuple[str, ...]
    baselines: dict[str, BaselineInfo] = field(default_factory=dict)
    options: tuple[GameOption, ...] = ()

    def create(self, seed: int, options: dict[str, Any] | None = None) -> Game:
        """Build a new seeded game with ``options`` (validated) over the defaults."""
        return self.game_class(seed, **self.resolve_options(options or {}))

    def resolve_options(self, given: dict[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with ``given``; raises ValueError on unknown or bad values."""
        known = {option.name: option for option in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            names = ", ".join(known) or "none"
            raise ValueError(f"unknown option {unknown[0]!r} for {self.name} (options: {names})")
        resolved = {option.name: option.default for option in self.options}
        for key, value in given.items():
            resolved[key] = _coerce_option(known[key], value)
        return resolved


def _coerce_option(option: GameOption, value: Any) -> Any:
    kind = type(option.default)
    try:
        coerced = kind(value) if not isinstance(value, kind) else value
    except (TypeError, ValueError):
        kind_name = {"int": "whole number", "float": "number", "str": "text", "bool": "yes or no"}.get(
            kind.__name__, kind.__name__
        )
        raise ValueError(f"option {option.name} wants a {kind_name}, got {value!r}") from None
    if option.choices and coerced not in option.choices:
        allowed = ", ".join(map(str, option.choices))
        raise ValueError(f"option {option.name} must be one of {allowed}, got {value!r}")
    if option.minimum is not None and coerced < option.minimum:
        raise ValueError(f"option {option.name} must be at least {option.minimum}")
    if option.maximum is not None and coerced > option.maximum:
        raise ValueError(f"option {option.name} must be at most {option.maximum}")
    return coerced


_GAME_MODULES: dict[str, str] = {
    "lemonade": "games.lemonade",
    "bargain": "games.bargain",
    "paperclip": "games.paperclip",
}
_loaded: dict[str, GameSpec] = {}


class UnknownGameError(LookupError):
    """Raised for a game name the registry does not know."""


def game_names() -> list[str]:
    """Names of every registered game whose module is importable."""
    names = []
    for name in _GAME_MODULES:
        try:
            get_game(name)
        except UnknownGameError:
            continue
        names.append(name)
    return names


def get_game(name: str) -> GameSpec:
    """The spec of game ``name``; raises :class:`UnknownGameError` if there is none."""
    if name in _loaded:
        return _loaded[name]
    module_path = _GAME_MODULES.get(name)
    if module_path is None:
        known = ", ".join(_GAME_MODULES)
        raise UnknownGameError(f"unknown game {name!r} (known: {known})")
    try:
        module = importlib.import_module(module_path)
    except ModuleNotFoundError as exc:
        raise UnknownGameError(f"game {name!r} is not installed ({exc})") from None
    spec: GameSpec = module.GAME_SPEC
    _loaded[name] = spec
    return spec
