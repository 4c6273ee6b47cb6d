"""Small helpers for tests that drive a game state directly."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from arena.contract.game import GameState
from arena.plugins.games import get_game
from games.bargain import BargainState
from games.lemonade import LemonadeState
from games.paperclip import PaperclipState


def new_bargain(seed: int, **options: Any) -> BargainState:
    """A bargain state as the registry makes it."""
    state = get_game("bargain").create(seed, options)
    assert isinstance(state, BargainState)
    return state


def new_lemonade(seed: int, **options: Any) -> LemonadeState:
    """A lemonade state as the registry makes it."""
    state = get_game("lemonade").create(seed, options)
    assert isinstance(state, LemonadeState)
    return state


def new_paperclip(seed: int, **options: Any) -> PaperclipState:
    """A paperclip state as the registry makes it."""
    state = get_game("paperclip").create(seed, options)
    assert isinstance(state, PaperclipState)
    return state


def prompt_of(state: GameState, seat: str) -> str:
    """The prompt ``seat`` gets now."""
    return state.definition.prompt_for(state, seat)


def rules_of(state: GameState, seat: str) -> str:
    """The rules ``seat`` is told."""
    return state.definition.rules(state.options, seat)


def observed(state: GameState, seat: str) -> dict[str, Any]:
    """``seat``'s observation as stored (JSON data)."""
    return state.observation(seat).model_dump(mode="json")


def render_text(state: GameState, viewer: str | None, width: int = 140) -> str:
    """The game's view for ``viewer`` as plain text."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None)
    console.print(state.definition.render(state, viewer))
    return buffer.getvalue()
