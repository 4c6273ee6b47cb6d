"""Hidden-valuation bargaining (seed 003): registered as ``bargain``."""

from __future__ import annotations

from arena.registry import BaselineInfo, GameOption, GameSpec
from games.bargain.baselines import BASELINES
from games.bargain.game import BargainGame
from games.bargain.rules import DEFAULT_ROUNDS, SEATS

GAME_SPEC = GameSpec(
    name=BargainGame.name,
    title=BargainGame.title,
    description=BargainGame.description,
    game_class=BargainGame,
    seats=SEATS,
    baselines={name: BaselineInfo(name, description, cls) for name, (cls, description) in BASELINES.items()},
    options=(
        GameOption(
            "rounds",
            DEFAULT_ROUNDS,
            "round limit; one round is one turn of one side (seller in odd rounds)",
            minimum=2,
            maximum=40,
        ),
    ),
)

__all__ = ["GAME_SPEC", "BargainGame"]
