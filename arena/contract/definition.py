"""The game definition contract: the fixed facts of a game and how to start one.

A definition names the game, declares its options as a pydantic model (defaults, ranges
and help text feed ``--option``, ``arena games``, ``arena play --help`` and the app's
form), gives its seats as a function of the options, makes a state from a seed and
options, and brings its baselines, prompt template and views. Definitions are found
through the ``arena.games`` entry point group (see :mod:`arena.plugins.games`).
"""

from __future__ import annotations

import functools
import random
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel, ValidationError

from arena.contract.validation_errors import one_line

if TYPE_CHECKING:  # a definition is read (arena games) without loading the players
    from arena.contract.game import GameState
    from arena.contract.player import Player

BaselineFactory = Callable[[random.Random], "Player"]
"""Builds a baseline player from a generator owned by the run (seeded per seat)."""


@dataclass(frozen=True)
class GameOption:
    """One user-settable option with its default and help text (read off the options model)."""

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


class NoOptions(BaseModel):
    """The options model of a game without options."""


class GameDefinition(ABC):
    """Base class of game definitions: fill in the class variables and the abstract methods."""

    name: ClassVar[str]
    version: ClassVar[str]
    title: ClassVar[str]
    description: ClassVar[str]
    prompt_version: ClassVar[str]
    Options: ClassVar[type[BaseModel]] = NoOptions
    summary_metrics: ClassVar[tuple[str, ...]] = ()
    """The metrics tables lead with (tournament reports); empty means every metric."""
    episode_metrics: ClassVar[frozenset[str]] = frozenset()
    """Metrics that describe the whole episode (a deal's price): the same for every seat, shown once.

    Tournament tables show them as facts of the deals (per line-up and overall), never in a
    player's row: they are what both sides made together, not what one of them earned.
    """
    dealt_metrics: ClassVar[frozenset[str]] = frozenset()
    """Per-seat metrics the deal hands a seat rather than anything it did (bargain's ``own_number``).

    Equal for every player on paired deals, so tournament tables show them with the deals, per seat.
    """
    seats_differ: ClassVar[bool] = True
    """Whether seats are roles or positions worth telling apart (seller/buyer, stand a/b).

    When true, tournament tables break each player's own metrics down by the seat it held.
    False for games whose seats face the same task side by side (paperclip's racers).
    """
    outcome_rule: ClassVar[str] = (
        "In each episode the seat with the highest score wins and every other seat loses; seats"
        " sharing the highest score draw. With two seats the ratings count the win, draw or loss"
        " (Bradley-Terry); with three or more they read the episode's whole order by score"
        " (Plackett-Luce), equal scores tied."
    )
    """What a win, a draw and a loss mean for the tournament tables, in plain words.

    Shown where people read (``arena games``, the rules screen, table captions, reports) and
    never in model prompts: the rules text is part of the prompt, this is not.
    """
    listing_order: ClassVar[int] = 100
    """Where lists of games put this one (lower first, then by name)."""

    @abstractmethod
    def seats(self, options: BaseModel) -> tuple[str, ...]:
        """Seat names in play order for ``options``."""

    @abstractmethod
    def new_state(self, seed: int, options: BaseModel) -> GameState:
        """A fresh seeded state."""

    @abstractmethod
    def state_from_json(self, data: dict[str, Any]) -> GameState:
        """Rebuild a state from ``GameState.to_json()``."""

    @property
    @abstractmethod
    def baselines(self) -> dict[str, BaselineInfo]:
        """The game's scripted players by name."""

    @abstractmethod
    def rules(self, options: BaseModel, seat: str) -> str:
        """The rules as ``seat`` is told them (plain text, no strategy hints)."""

    @abstractmethod
    def prompt(self, observation: BaseModel, rules: str) -> str:
        """The model prompt filled from one seat's observation (one template for every seat)."""

    @abstractmethod
    def render(self, state: GameState, viewer: str | None = None) -> Any:
        """A view of ``state`` for a console or the app (a Rich renderable, kept untyped here).

        ``viewer=None`` is the full spectator view; a seat shows only what it may know.
        """

    # -- derived helpers --------------------------------------------------------------
    def prompt_for(self, state: GameState, seat: str) -> str:
        """The prompt ``seat`` is given in ``state`` now."""
        return self.prompt(state.observation(seat), self.rules(state.options, seat))

    def create(self, seed: int, options: dict[str, Any] | None = None) -> GameState:
        """A new state from a seed and option values as given (validated over the defaults)."""
        return self.new_state(seed, self.parse_options(options or {}))

    def seats_for(self, given: dict[str, Any] | None = None) -> tuple[str, ...]:
        """Seats for option values as given (the defaults when ``None``)."""
        return self.seats(self.parse_options(given or {}))

    @property
    def default_seats(self) -> tuple[str, ...]:
        """Seats with the default options."""
        return self.seats(self.Options())

    @property
    def options(self) -> tuple[GameOption, ...]:
        """The options as the CLI and the app list them."""
        return option_fields(self.Options)

    def parse_options(self, given: dict[str, Any]) -> BaseModel:
        """The options model for ``given`` values; raises ``ValueError`` with one line."""
        resolved = self.resolve_options(given)
        try:
            return self.Options.model_validate(resolved)
        except ValidationError as exc:
            raise ValueError(f"option {one_line(exc, whole='options')}") from None

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


@functools.cache  # every episode resolves its options: read each model's fields once
def option_fields(model: type[BaseModel]) -> tuple[GameOption, ...]:
    """One :class:`GameOption` per field of an options model (``ge``/``le`` become the range)."""
    fields = []
    for name, info in model.model_fields.items():
        minimum = maximum = None
        for meta in info.metadata:
            minimum = getattr(meta, "ge", minimum)
            maximum = getattr(meta, "le", maximum)
        choices: tuple[Any, ...] = ()
        annotation = info.annotation
        if typing.get_origin(annotation) is Literal:
            choices = typing.get_args(annotation)
        fields.append(GameOption(name, info.default, info.description or "", choices, minimum, maximum))
    return tuple(fields)


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
