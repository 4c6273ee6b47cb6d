"""Cattle Trade (Kuhhandel) for 3-5 players: registered as ``cattle`` through ``arena.games``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.cattle.definition import DEFINITION, CattleDefinition
from games.cattle.options import CattleOptions

if TYPE_CHECKING:
    from games.cattle.game import CattleState

__all__ = ["DEFINITION", "CattleDefinition", "CattleOptions", "CattleState"]


def __getattr__(name: str) -> Any:
    """``CattleState`` on first use: the state module is not loaded to list the game (``arena games``)."""
    if name == "CattleState":
        from games.cattle.game import CattleState

        return CattleState
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
