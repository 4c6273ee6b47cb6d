"""The 30-day lemonade stand (seed 000): registered as ``lemonade``."""

from __future__ import annotations

from arena.registry import BaselineInfo, GameOption, GameSpec
from games.lemonade.baselines import BASELINES
from games.lemonade.game import LemonadeGame

GAME_SPEC = GameSpec(
    name=LemonadeGame.name,
    title=LemonadeGame.title,
    description=LemonadeGame.description,
    game_class=LemonadeGame,
    seats=("a", "b"),
    baselines={name: BaselineInfo(name, description, cls) for name, (cls, description) in BASELINES.items()},
    options=(
        GameOption("days", 30, "number of days", minimum=1, maximum=1000),
        GameOption("stands", 2, "number of stands (seats a, b, ...)", minimum=1, maximum=8),
        GameOption(
            "market", "identical", "identical worlds, or one shared street", choices=("identical", "shared")
        ),
    ),
)

__all__ = ["GAME_SPEC", "LemonadeGame"]
