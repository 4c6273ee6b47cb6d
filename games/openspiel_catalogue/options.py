"""The options of an OpenSpiel game, as plain data read off the library's parameter specification.

Each parameter becomes an option with the library's default and its Python type (so
``--option numdice=2`` is read as the whole number the library wants), with the curated
words, ranges and allowed values when there are some. ``move_cap`` is Arena's own. The
listing reads these facts; the pydantic model is made from them when a game is played
(:func:`options_model`), so ``arena games`` builds no model per game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.contract.options import GameOption
from games.openspiel_catalogue.curated import Curated
from games.openspiel_catalogue.game_type import GameTypeFacts
from games.openspiel_catalogue.replay_check import SEED_PARAMETERS

if TYPE_CHECKING:
    from pydantic import BaseModel

MOVE_CAP = "move_cap"


def option_list(facts: GameTypeFacts, curated: Curated | None) -> tuple[GameOption, ...]:
    """One option per library parameter (by name), then ``move_cap``."""
    words = curated.parameters if curated else {}
    options = []
    for name, default in sorted(facts.parameters.items()):
        if name in SEED_PARAMETERS:
            continue  # Arena's: the episode's seed sets it
        said = words.get(name)
        minimum = said.minimum if said is not None else None
        maximum = said.maximum if said is not None else None
        description = said.description if said else f"the library's parameter {name}"
        choices: tuple[object, ...] = said.choices if said is not None else ()
        if name == "players":
            minimum, maximum = facts.min_players, facts.max_players
            if default < facts.min_players:  # hanabi's 0: the library picks (and aborts on 1: a choice list)
                choices = (default, *range(facts.min_players, facts.max_players + 1))
                minimum = maximum = None
                description += f" ({default}: the library's choice)"
        options.append(GameOption(name, default, description, choices, minimum, maximum))
    cap_help = "Arena stops the game after this many moves (0: never); each seat scores its return so far"
    options.append(GameOption(MOVE_CAP, curated.move_cap if curated else 0, cap_help, minimum=0))
    return tuple(options)


def options_model(short_name: str, options: tuple[GameOption, ...]) -> type[BaseModel]:
    """The frozen pydantic model of ``options`` (unknown fields refused), named for the game."""
    from arena.contract.options import options_model as made_from

    name = f"{short_name.title().replace('_', '')}Options"
    return made_from(name, options, module=__name__, strict=True)
