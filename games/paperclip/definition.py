"""The paperclip benchmark's definition: facts, options, seats, baselines, prompt and view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from arena.contract.game import GameDefinition
from arena.contract.templates import template_version
from games.paperclip import prompt as prompt_text
from games.paperclip.options import SEAT_NAMES, PaperclipOptions
from games.paperclip.view import PaperclipView

if TYPE_CHECKING:
    from arena.contract.baseline import BaselineInfo
    from games.paperclip.game import PaperclipState
    from games.paperclip.observation import PaperclipObservation

# The state, the baselines and the Rich board load when a game is played or shown, not when it is
# listed: ``arena games`` reads only the facts and options declared here.


class PaperclipDefinition(GameDefinition[PaperclipOptions, "PaperclipObservation", "PaperclipState"]):
    """The paperclip state-tracking benchmark (seed 002)."""

    name: ClassVar[str] = "paperclip"
    private_information: ClassVar[bool] = False  # every racer sees the same boxes
    version: ClassVar[str] = "1.0"
    title: ClassVar[str] = "Paperclip"
    description: ClassVar[str] = (
        "A state-tracking benchmark: boxes of coloured clips, a list of moves, merges, "
        "splits, paints and compares. Report every box after every step and answer the "
        "final question; graded step by step, with error tags and the first wrong step."
    )
    prompt_version: ClassVar[str] = template_version(
        prompt_text.RULES, prompt_text.BATCH, prompt_text.STEPWISE, *prompt_text.MODE_TEXT.values()
    )
    Options = PaperclipOptions
    view = PaperclipView()
    listing_order: ClassVar[int] = 20
    episode_metrics: ClassVar[frozenset[str]] = frozenset({"puzzles"})
    seats_differ: ClassVar[bool] = False  # every seat races the same puzzles
    outcome_rule: ClassVar[str] = (
        "A win is a higher score than every other racer on the same puzzles (the mean over puzzles of"
        " 1 for full, 0.5 for core, 0 for wrong or invalid); racers sharing the top score draw (two"
        " perfect racers draw) and the rest lose. With one seat, players are compared on the same"
        " deal seed. With two racers the ratings count a win, draw or loss (Bradley-Terry); with more"
        " they read the whole order by score (Plackett-Luce), equal scores tied."
    )
    summary_metrics: ClassVar[tuple[str, ...]] = (
        "full",
        "core",
        "wrong",
        "invalid",
        "acc_entry",
        "acc_medium",
        "acc_hard",
        "unparsable_rate",
    )

    def seats(self, options: PaperclipOptions) -> tuple[str, ...]:
        return SEAT_NAMES[: options.seats]

    def state_class(self) -> type[PaperclipState]:
        from games.paperclip.game import PaperclipState

        return PaperclipState

    @property
    def baselines(self) -> Mapping[str, BaselineInfo]:
        from arena.contract.baseline import baseline_table
        from games.paperclip.baselines import BASELINES

        return baseline_table(*BASELINES.values())

    def rules(self, options: PaperclipOptions, seat: str) -> str:
        return prompt_text.rules_text(options.mode, options.reporting)

    def prompt(self, observation: PaperclipObservation, rules: str) -> str:
        return prompt_text.render(observation, rules)


DEFINITION = PaperclipDefinition()
