"""The paperclip state-tracking benchmark (seed 002): registered as ``paperclip`` through ``arena.games``."""

from __future__ import annotations

from games.paperclip.definition import DEFINITION, PaperclipDefinition
from games.paperclip.game import MODES, SEAT_NAMES, PaperclipOptions, PaperclipState

__all__ = ["DEFINITION", "MODES", "SEAT_NAMES", "PaperclipDefinition", "PaperclipOptions", "PaperclipState"]
