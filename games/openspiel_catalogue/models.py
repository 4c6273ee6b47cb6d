"""A seat's observation and its move: the pydantic models every OpenSpiel game shares.

The move model is made per set of legal moves (an enum of the library's own
``action_to_string`` names), so a form offers exactly the legal moves and a model's JSON
schema lists them.
"""

from __future__ import annotations

import functools
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model


class OpenSpielObservation(BaseModel):
    """What one seat may know: the library's string for its player, its legal moves, the moves it may see.

    ``view`` is the game's information-state string for the player in an imperfect-information
    game, its observation string in a perfect-information one (``view_kind`` says which).
    ``moves`` holds every move of a perfect-information game (all of them are public) and only
    the seat's own moves otherwise: what others did reaches the seat through ``view`` alone.
    """

    model_config = ConfigDict(frozen=True)

    game: str
    """The library's game string (``liars_dice(numdice=2)``): ``pyspiel.load_game`` takes it."""
    seat: str
    player: int
    view_kind: Literal["information_state_string", "observation_string"]
    view: str
    legal_moves: list[str]
    """The seat's legal moves now by name (empty when it is not its turn)."""
    moves_seen: Literal["all", "own"]
    """Whether ``moves`` holds every move (perfect information) or the seat's own only."""
    moves: list[str]
    """Each move the seat may know as ``SEAT NAME`` (``p0 x3``, ``chance Roll 2``), in order."""
    move_ids: list[int]
    """The library's action ids of ``moves``, in the same order."""
    move_number: int
    """Moves made so far (a simultaneous step counts once)."""
    over: bool


class OpenSpielMove(BaseModel):
    """A move by its name; subclasses made by :func:`move_model` fix the names to the legal ones."""

    move: str
    reason: str = Field("", description="one sentence on why")


@functools.lru_cache(maxsize=4096)
def move_model(legal: tuple[str, ...]) -> type[OpenSpielMove]:
    """The move model whose ``move`` is one of ``legal`` (cached: a game's positions repeat)."""
    if not legal:
        return OpenSpielMove
    choice: Any = Literal[legal]
    model: type[OpenSpielMove] = create_model(
        "OpenSpielMove",
        __base__=OpenSpielMove,
        move=(choice, Field(description="one of the legal moves, exactly as named")),
    )
    return model
