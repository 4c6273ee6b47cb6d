"""The paperclip state-tracking benchmark (seed 002): registered as ``paperclip`` through ``arena.games``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.paperclip.definition import DEFINITION, PaperclipDefinition
from games.paperclip.options import MODES, SEAT_NAMES, PaperclipOptions

if TYPE_CHECKING:
    from games.paperclip.game import PaperclipState

__all__ = ["DEFINITION", "MODES", "SEAT_NAMES", "PaperclipDefinition", "PaperclipOptions", "PaperclipState"]


def __getattr__(name: str) -> Any:
    """``PaperclipState`` on first use: the state module is not loaded to list the game (``arena games``)."""
    if name == "PaperclipState":
        from games.paperclip.game import PaperclipState

        return PaperclipState
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
