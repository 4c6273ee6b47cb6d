"""Hidden-valuation bargaining (seed 003): registered as ``bargain`` through ``arena.games``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.bargain.definition import DEFINITION, BargainDefinition
from games.bargain.options import BargainOptions

if TYPE_CHECKING:
    from games.bargain.game import BargainState

__all__ = ["DEFINITION", "BargainDefinition", "BargainOptions", "BargainState"]


def __getattr__(name: str) -> Any:
    """``BargainState`` on first use: the state module is not loaded to list the game (``arena games``)."""
    if name == "BargainState":
        from games.bargain.game import BargainState

        return BargainState
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
