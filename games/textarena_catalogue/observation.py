"""A seat's observation and action: TextArena's messages to that player, and free text back."""

from __future__ import annotations

import functools

from pydantic import BaseModel, Field


class TextArenaMessage(BaseModel):
    """One message the player received, as TextArena sent it."""

    sender: str = Field(description="who sent it: GAME or a player's role")
    text: str
    kind: str = Field(description="TextArena's observation type (PROMPT, GAME_BOARD, PLAYER_ACTION, ...)")


class TextArenaObservation(BaseModel):
    """Everything TextArena told one player so far, and the moves it accepts from it now."""

    game: str = Field(description="the TextArena environment id")
    player: int = Field(description="the player's TextArena id")
    turn: int = Field(description="actions taken in the episode so far")
    your_turn: bool
    messages: list[TextArenaMessage] = Field(description="every message TextArena sent this player, in order")
    moves: list[str] = Field(
        default_factory=list,
        description="the moves the environment accepts from this player now (empty when it is not its turn)",
    )
    examples: list[str] = Field(
        default_factory=list,
        description="where no moves are listed now: example moves in the game's format, which it may refuse",
    )


class TextArenaAction(BaseModel):
    """A move in the environment's own text format (``[4]``, ``[Bid: 3, 4]``)."""

    move: str = Field(min_length=1, max_length=2000, description="your move, in the format the game asks for")
    reason: str = Field("", max_length=2000, description="why (kept private, never sent to the game)")


@functools.lru_cache(maxsize=512)
def listed_move_action(moves: tuple[str, ...]) -> type[TextArenaAction]:
    """The action asked for when the environment's legal moves are listed: ``move`` is one of them.

    The schema carries them as an enum (a grammar-constrained model can only pick one, and an
    API model reads them); validation is :class:`TextArenaAction`'s, the game judges the move.
    """

    class ListedMoveAction(TextArenaAction):
        move: str = Field(
            min_length=1,
            max_length=2000,
            json_schema_extra={"enum": list(moves)},
            description="one of the legal moves listed in the prompt, written exactly as shown",
        )

    ListedMoveAction.__name__ = ListedMoveAction.__qualname__ = TextArenaAction.__name__
    return ListedMoveAction
