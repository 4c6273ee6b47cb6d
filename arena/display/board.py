"""A game's board as a front end draws it: its view's ``render``, with plain text kept literal."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from arena.contract.game import GameState
from arena.display.sanitize import plain_text


def board(game: GameState, viewer: str | None) -> RenderableType:
    """``game`` drawn for ``viewer`` (``None``: the full view) by the game's view.

    A view may return plain text (the default view does: observations as JSON, which hold
    players' words): it is shown as it is, never read as markup.
    """
    drawn = game.definition.view.render(game, viewer)
    if isinstance(drawn, str):
        return Text(plain_text(drawn, keep_newlines=True))
    result: RenderableType = drawn
    return result
