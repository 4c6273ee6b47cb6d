"""The paperclip state-tracking benchmark (seed 002): registered as ``paperclip``."""

from __future__ import annotations

from arena.registry import BaselineInfo, GameOption, GameSpec
from games.paperclip.baselines import BASELINES
from games.paperclip.game import MODES, SEAT_NAMES, PaperclipGame
from games.paperclip.generator import DIMENSIONS, MIX, TIERS
from games.paperclip.grading import REPORTING

GAME_SPEC = GameSpec(
    name=PaperclipGame.name,
    title=PaperclipGame.title,
    description=PaperclipGame.description,
    game_class=PaperclipGame,
    seats=SEAT_NAMES[:2],
    baselines={name: BaselineInfo(name, description, cls) for name, (cls, description) in BASELINES.items()},
    options=(
        GameOption("puzzles", 10, "puzzles per episode", minimum=1, maximum=500),
        GameOption("tier", MIX, "steps: entry 3, medium 5, hard 8-10, or a mix", choices=(*TIERS, MIX)),
        GameOption(
            "dimensions",
            MIX,
            "counts only, counts and colours, partial moves too, or a mix",
            choices=(*DIMENSIONS, MIX),
        ),
        GameOption("distractors", 1, "compare operations inserted per puzzle", minimum=0, maximum=5),
        GameOption("mode", "batch", "all steps in one answer, or one step per turn", choices=MODES),
        GameOption(
            "reporting", "full", "report every box, or only the boxes a step touches", choices=REPORTING
        ),
        GameOption("seats", 2, "number of racing seats (a, b, c, d)", minimum=1, maximum=len(SEAT_NAMES)),
    ),
)

__all__ = ["GAME_SPEC", "PaperclipGame"]
