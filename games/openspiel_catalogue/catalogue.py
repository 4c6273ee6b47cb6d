"""The ``openspiel`` catalogue: the curated OpenSpiel games listed, any other loadable one by name.

Listing reads the curated names only (no import of the library). Loading refuses, in one
line, the games Arena cannot play faithfully: those that need other games or files to load,
mean-field games, games that draw chance inside the library (so an episode would not follow
from its seed) and games without a text view for a player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from arena.contract.catalogue import Catalogue, CatalogueError
from games.openspiel_catalogue import library
from games.openspiel_catalogue.curated import CURATED
from games.openspiel_catalogue.replay_check import seed_parameter, start_problem

if TYPE_CHECKING:
    from arena.contract.game import GameDefinition


class OpenSpielCatalogue(Catalogue):
    """OpenSpiel (``pip install open-spiel``): board, card and bargaining games with chance and secrets."""

    prefix: ClassVar[str] = "openspiel"
    title: ClassVar[str] = library.LIBRARY
    install_hint: ClassVar[str] = "pip install 'arena[openspiel]'"

    def __init__(self) -> None:
        self._loaded: dict[str, GameDefinition] = {}

    def listed(self) -> tuple[str, ...]:
        return tuple(CURATED) if library.installed() else ()

    def unavailable(self) -> dict[str, str]:
        if library.installed():
            return {}
        return dict.fromkeys(CURATED, f"the open-spiel library is not installed ({self.install_hint})")

    def load(self, name: str) -> GameDefinition:
        if name in self._loaded:
            return self._loaded[name]
        if not library.installed():
            raise CatalogueError(f"openspiel:{name} needs the open-spiel library ({self.install_hint})")
        from games.openspiel_catalogue.definition import definition_for
        from games.openspiel_catalogue.game_type import SNAPSHOT, SNAPSHOT_VERSION, read_game_type

        if name in CURATED and name in SNAPSHOT and library.version() == SNAPSHOT_VERSION:
            definition = definition_for(SNAPSHOT[name])  # listed without importing the library
            self._loaded[name] = definition
            return definition
        game_type = library.registry().get(name)
        if game_type is None:
            known = len(library.registry())
            raise CatalogueError(
                f"unknown OpenSpiel game {name!r} (`arena games` lists the curated ones;"
                f" the library has {known}, see pyspiel.registered_games())"
            )
        problem = refusal(game_type)
        if problem:
            raise CatalogueError(f"openspiel:{name} cannot be played here: {problem}")
        try:
            library.load(name, {})
            definition = definition_for(read_game_type(game_type))
            problem = start_problem(definition, definition.parse_options({}, replayed=False))
        except ValueError as exc:
            raise CatalogueError(f"openspiel:{name} cannot be played here: {exc}") from None
        if problem:
            raise CatalogueError(f"openspiel:{name} cannot be played here: {problem}")
        self._loaded[name] = definition
        return definition


def refusal(kind: Any) -> str | None:
    """Why Arena cannot play a game of this GameType faithfully, or ``None``."""
    spiel_type = library.spiel().GameType
    if not kind.default_loadable:
        return "it needs another game or a file to load (not default-loadable)"
    if kind.dynamics not in (spiel_type.Dynamics.SEQUENTIAL, spiel_type.Dynamics.SIMULTANEOUS):
        return "it is a mean-field game (Arena plays sequential and simultaneous-move games)"
    sampled = kind.chance_mode == spiel_type.ChanceMode.SAMPLED_STOCHASTIC
    if sampled and seed_parameter(kind.parameter_specification) is None:
        return (
            "it draws chance inside the library and takes no seed (rng_seed or seed) for the episode's"
            " seed to set, so episodes would not replay"
        )
    if not (kind.provides_information_state_string or kind.provides_observation_string):
        return "it gives no text view of the game for a player"
    return None


CATALOGUE = OpenSpielCatalogue()
