"""The 30-day lemonade stand (seed 000): registered as ``lemonade`` through ``arena.games``."""

from __future__ import annotations

from games.lemonade.definition import DEFINITION, LemonadeDefinition
from games.lemonade.game import LemonadeOptions, LemonadeState

__all__ = ["DEFINITION", "LemonadeDefinition", "LemonadeOptions", "LemonadeState"]
