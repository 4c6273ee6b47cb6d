"""The options model of an OpenSpiel game, built from the library's parameter specification.

Each parameter becomes a field with the library's default and its Python type (so
``--option numdice=2`` is read as the whole number the library wants), with the curated
words, ranges and allowed values when there are some. ``move_cap`` is Arena's own.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from games.openspiel_catalogue.curated import Curated
from games.openspiel_catalogue.game_type import GameTypeFacts

MOVE_CAP = "move_cap"


def options_model(facts: GameTypeFacts, curated: Curated | None) -> type[BaseModel]:
    """A frozen pydantic model with one field per library parameter, plus ``move_cap``."""
    words = curated.parameters if curated else {}
    fields: dict[str, Any] = {}
    for name, default in sorted(facts.parameters.items()):
        said = words.get(name)
        constraints: dict[str, Any] = {}
        annotation: Any = type(default)
        if said is not None and said.choices:
            annotation = Literal[said.choices]
        if said is not None and said.minimum is not None:
            constraints["ge"] = said.minimum
        if said is not None and said.maximum is not None:
            constraints["le"] = said.maximum
        if name == "players":
            constraints = {"ge": facts.min_players, "le": facts.max_players}
        description = said.description if said else f"the library's parameter {name}"
        fields[name] = (annotation, Field(default, description=description, **constraints))
    fields[MOVE_CAP] = (
        int,
        Field(
            curated.move_cap if curated else 0,
            ge=0,
            description="Arena stops the game after this many moves (0: never);"
            " each seat scores its return so far",
        ),
    )
    model: type[BaseModel] = create_model(
        f"{facts.short_name.title().replace('_', '')}Options",
        __config__=ConfigDict(extra="forbid", frozen=True),
        **fields,
    )
    return model
