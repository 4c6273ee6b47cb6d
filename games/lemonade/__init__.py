"""The 30-day lemonade stand (seed 000): registered as ``lemonade`` through ``arena.games``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.lemonade.definition import DEFINITION, LemonadeDefinition
from games.lemonade.options import LemonadeOptions

if TYPE_CHECKING:
    from games.lemonade.game import LemonadeState

__all__ = ["DEFINITION", "LemonadeDefinition", "LemonadeOptions", "LemonadeState"]


def __getattr__(name: str) -> Any:
    """``LemonadeState`` on first use: the state module is not loaded to list the game (``arena games``)."""
    if name == "LemonadeState":
        from games.lemonade.game import LemonadeState

        return LemonadeState
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
