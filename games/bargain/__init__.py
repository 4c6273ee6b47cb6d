"""Hidden-valuation bargaining (seed 003): registered as ``bargain`` through ``arena.games``."""

from __future__ import annotations

from games.bargain.definition import DEFINITION, BargainDefinition
from games.bargain.game import BargainOptions, BargainState

__all__ = ["DEFINITION", "BargainDefinition", "BargainOptions", "BargainState"]
