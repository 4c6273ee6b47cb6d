"""A catalogue game's options are data: listed as they are, their pydantic model made when it is played.

``arena games`` lists 23 catalogue games; making an options model for each took about a
fifth of its start-up. The listing now reads the data, and ``Options`` is made from the same
data on first use, so the two cannot say different things: these tests check that what is
listed is what the model holds, and that listing makes no catalogue model at all.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from pydantic import BaseModel

from arena.contract.options import option_fields
from arena.plugins.games import game_names, get_game

CATALOGUE_GAMES = [name for name in game_names() if ":" in name]


def test_both_catalogues_are_listed() -> None:
    prefixes = {name.partition(":")[0] for name in CATALOGUE_GAMES}
    assert prefixes == {"openspiel", "textarena"}


@pytest.mark.parametrize("name", CATALOGUE_GAMES)
def test_the_listed_options_and_seats_are_those_of_the_model_made_from_them(name: str) -> None:
    definition = get_game(name)
    model: type[BaseModel] = definition.Options
    assert definition.options == option_fields(model)
    assert definition.default_seats == definition.seats(model())
    assert definition.Options is get_game(name).Options  # made once per game
    assert definition.Options is type(definition)().Options  # and per class, not per instance


def test_a_game_loaded_by_name_outside_the_curated_list_lists_what_its_model_holds() -> None:
    definition = get_game("openspiel:oh_hell")  # players is a parameter, no curated words
    model: type[BaseModel] = definition.Options
    assert definition.options == option_fields(model)
    assert definition.default_seats == definition.seats(model())


# The listing in a fresh interpreter, then the pydantic models that exist by module.
LIST_THEN_COUNT_MODELS = """
import contextlib, io, json
from arena.cli.main import main
with contextlib.redirect_stdout(io.StringIO()):
    for listing in (["games"], ["games", "openspiel"], ["games", "textarena"]):
        main(listing)
from pydantic import BaseModel
def every(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from every(sub)
print(json.dumps(sorted({model.__module__ for model in every(BaseModel)})))
"""


def test_listing_the_games_makes_no_catalogue_options_model() -> None:
    done = subprocess.run(
        [sys.executable, "-c", LIST_THEN_COUNT_MODELS], capture_output=True, text=True, check=True, cwd="/"
    )
    modules = json.loads(done.stdout)
    assert "games.lemonade.options" in modules  # the built-in games' models are classes in their modules
    assert "games.openspiel_catalogue.options" not in modules
    assert "games.textarena_catalogue.definition" not in modules
