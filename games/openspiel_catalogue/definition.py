"""One Arena definition per OpenSpiel game, made by :func:`definition_for` from the library's GameType.

The definition's facts are class variables (as for every game), so each game gets its own
subclass of :class:`OpenSpielDefinition`. Seats are ``p0``, ``p1``, ... (the library's player
numbers). ``version`` is the library's version and the adapter's (``2.0.2/1``): stored episodes
say what they were played with.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, cast

from pydantic import BaseModel

from arena.contract.game import GameDefinition
from arena.contract.options import GameOption, OptionError, OptionsOnDemand
from arena.contract.templates import template_version
from games.openspiel_catalogue import library, prompt
from games.openspiel_catalogue.curated import CURATED, Curated
from games.openspiel_catalogue.game_type import GameTypeFacts
from games.openspiel_catalogue.options import MOVE_CAP, option_list, options_model
from games.openspiel_catalogue.replay_check import library_seed, refusal_of_play, seed_parameter
from games.openspiel_catalogue.view import OpenSpielView

if TYPE_CHECKING:
    from arena.contract.baseline import BaselineInfo
    from games.openspiel_catalogue.models import OpenSpielObservation
    from games.openspiel_catalogue.state import OpenSpielState

ADAPTER_VERSION = 1
"""Bump with any change to how the adapter plays a game (chance draws, seats, the cap)."""
SEEDED_ADAPTER_VERSION = 2
"""The adapter's version for games with a seed parameter (hanabi, deep_sea, negotiation ...): from 2
the episode's seed sets it, so their episodes are not those of version 1."""
PREFIX = "openspiel"


@dataclass(frozen=True)
class GameFacts:
    """The library's game for one set of options and what the adapter reads off it."""

    game: Any
    perfect: bool
    view_kind: Literal["information_state_string", "observation_string"]


class OpenSpielDefinition(GameDefinition[BaseModel, "OpenSpielObservation", "OpenSpielState"]):
    """An OpenSpiel game: the subclass made for it fills in the class variables."""

    short_name: ClassVar[str]
    """The library's name of the game (``liars_dice``)."""
    curated: ClassVar[Curated | None]
    game_type: ClassVar[GameTypeFacts]
    option_list: ClassVar[tuple[GameOption, ...]]
    """The options as data (:func:`games.openspiel_catalogue.options.option_list`): listings read these."""
    Options = OptionsOnDemand(lambda made: options_model(made.short_name, made.option_list))
    view = OpenSpielView()
    seats_differ: ClassVar[bool] = True

    @property
    def options(self) -> tuple[GameOption, ...]:
        """The options as listed: the data the model is made from."""
        return self.option_list

    @property
    def default_seats(self) -> tuple[str, ...]:
        """:meth:`seats` with the default options, read off the facts (no options model is made)."""
        kind = self.game_type
        if "players" in kind.parameters and int(kind.parameters["players"]) >= kind.min_players:
            return self._seat_names(int(kind.parameters["players"]))
        if kind.min_players == kind.max_players:
            return self._seat_names(kind.min_players)
        return super().default_seats  # the library's game says how many

    def library_parameters(self, options: BaseModel) -> dict[str, Any]:
        """The library's parameters that differ from its defaults (as its game string shows them)."""
        defaults = self.game_type.parameters
        values = options.model_dump()
        return {name: values[name] for name in defaults if name in values and values[name] != defaults[name]}

    @property
    def seed_parameter(self) -> str | None:
        """The library parameter that seeds the game's own generator (set from the episode's seed), if any."""
        return seed_parameter(self.game_type.parameters)

    def game_for(self, seed: int, options: BaseModel) -> Any:
        """The library's game an episode of ``seed`` plays.

        A game with a seed parameter is loaded afresh with the episode's seed: such games keep
        their generator in the game object, so two episodes from one cached game would draw on.
        """
        name = self.seed_parameter
        if name is None:
            return self.facts(options).game
        return library.load_fresh(
            self.short_name, {**self.library_parameters(options), name: library_seed(seed)}
        )

    def resolve_options(self, given: dict[str, Any]) -> dict[str, Any]:
        """As for every game, and the library's seed parameter refused by name: the episode's seed sets it."""
        name = self.seed_parameter
        if name is not None and name in given:
            raise OptionError(
                f"option {name} of {self.name} is set from the episode's seed (give the seed instead: --seed)"
            )
        return super().resolve_options(given)

    def facts(self, options: BaseModel) -> GameFacts:
        """The library's game for ``options`` (cached) and how the adapter shows it."""
        return _facts(self.short_name, tuple(sorted(self.library_parameters(options).items())))

    def parse_options(self, given: dict[str, Any], *, replayed: bool = True) -> BaseModel:
        """The options, checked by the library and by playing them: a refusal is a one-line ValueError.

        The game is built and played twice from one seed (:mod:`.replay_check`) before anything
        is stored: a combination the library refuses, moves it cannot list, or chance it draws
        that the seed does not decide are refused here, not found in a stored episode.
        ``replayed=False`` checks the options and loads the game only.
        """
        options = super().parse_options(given)
        try:
            self.facts(options)
        except ValueError as exc:  # the library refuses the parameters: the command line's to fix
            raise OptionError(str(exc)) from None
        problem = refusal_of_play(self, options) if replayed else None
        if problem:
            raise OptionError(problem)
        return options

    def seats(self, options: BaseModel) -> tuple[str, ...]:
        kind = self.game_type
        if "players" in kind.parameters and int(getattr(options, "players", 0)) >= kind.min_players:
            count = int(getattr(options, "players", 0))
        elif kind.min_players == kind.max_players:  # no need to load the game (listing stays fast)
            count = kind.min_players
        else:  # the library's choice (hanabi's players 0)
            count = self.facts(options).game.num_players()
        return self._seat_names(count)

    @staticmethod
    def _seat_names(count: int) -> tuple[str, ...]:
        return tuple(f"p{player}" for player in range(count))

    def state_class(self) -> type[OpenSpielState]:
        from games.openspiel_catalogue.state import OpenSpielState

        return OpenSpielState

    @property
    def baselines(self) -> Mapping[str, BaselineInfo]:
        from arena.contract.baseline import baseline_table
        from games.openspiel_catalogue.baselines import MctsMove, RandomMove

        fair = self.game_type.sequential and self.game_type.perfect
        return baseline_table(RandomMove, MctsMove) if fair else baseline_table(RandomMove)

    def rules(self, options: BaseModel, seat: str) -> str:
        return prompt.rules_text(self, options, seat)

    def prompt(self, observation: OpenSpielObservation, rules: str) -> str:
        return prompt.render(observation, rules)


@functools.lru_cache(maxsize=256)
def _facts(short_name: str, parameters: tuple[tuple[str, Any], ...]) -> GameFacts:
    game = library.load(short_name, dict(parameters))
    game_type = game.get_type()
    perfect = game_type.information == library.spiel().GameType.Information.PERFECT_INFORMATION
    view_kind: Literal["information_state_string", "observation_string"]
    if (perfect and game_type.provides_observation_string) or not game_type.provides_information_state_string:
        view_kind = "observation_string"
    else:
        view_kind = "information_state_string"
    return GameFacts(game, perfect, view_kind)


def _description(kind: GameTypeFacts) -> str:
    moves = "in turn" if kind.sequential else "simultaneous moves"
    chance = ", with chance" if kind.chance else ""
    information = "perfect information" if kind.perfect else "hidden information"
    players = f"{kind.min_players}-{kind.max_players}"
    if kind.min_players == kind.max_players:
        players = str(kind.min_players)
    return f"OpenSpiel's {kind.long_name}: {players} players, {moves}, {information}{chance}."


def definition_for(game_type: GameTypeFacts) -> OpenSpielDefinition:
    """The definition of the OpenSpiel game of this type (a new subclass with its facts)."""
    short_name = game_type.short_name
    curated = CURATED.get(short_name)
    title = game_type.long_name
    rules = curated.rules if curated else prompt.GENERIC_RULES
    order = list(CURATED).index(short_name) if curated else len(CURATED)
    adapter_version = SEEDED_ADAPTER_VERSION if seed_parameter(game_type.parameters) else ADAPTER_VERSION
    facts: dict[str, Any] = {
        "name": f"{PREFIX}:{short_name}",
        "version": f"{library.version()}/{adapter_version}",
        "title": title,
        "description": curated.description if curated else _description(game_type),
        "prompt_version": template_version(prompt.FRAME, rules, prompt.TEMPLATE),
        "option_list": option_list(game_type, curated),
        "short_name": short_name,
        "curated": curated,
        "game_type": game_type,
        "private_information": not game_type.perfect,  # the library's GameType.information
        "listing_order": 200 + order,
        "__doc__": f"OpenSpiel's {title} ({short_name}) through the adapter.",
    }
    made = cast(type[OpenSpielDefinition], type(f"OpenSpiel_{short_name}", (OpenSpielDefinition,), facts))
    return made()


__all__ = ["MOVE_CAP", "PREFIX", "GameFacts", "OpenSpielDefinition", "definition_for"]
