"""Cattle Trade's definition: facts, options, seats, baselines, prompt and view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from arena.contract.game import GameDefinition
from arena.contract.templates import template_version
from games.cattle import prompt as prompt_text
from games.cattle.actions import SEAT_NAMES
from games.cattle.options import CattleOptions
from games.cattle.view import CattleView

if TYPE_CHECKING:
    from arena.contract.baseline import BaselineInfo
    from games.cattle.game import CattleState
    from games.cattle.observation import CattleObservation


class CattleDefinition(GameDefinition[CattleOptions, "CattleObservation", "CattleState"]):
    """Cattle Trade (Kuhhandel) for 3 to 5 players, after the Cattle Trade benchmark (arXiv 2605.14537)."""

    name: ClassVar[str] = "cattle"
    private_information: ClassVar[bool] = True  # each player's hand of money cards is its secret
    version: ClassVar[str] = "1.0"
    title: ClassVar[str] = "Cattle Trade"
    description: ClassVar[str] = (
        "3 to 5 players auction animals, challenge each other to hidden-offer trades, bluff with"
        " 0-cards and race to complete sets; score = (sum of set values) x (number of sets)."
    )
    prompt_version: ClassVar[str] = template_version(
        prompt_text.TEMPLATE,
        prompt_text.RULES,
        prompt_text.NOTES_RULE,
        *prompt_text.AUCTION_TEXT.values(),
        *prompt_text.FIELDS.values(),
    )
    Options = CattleOptions
    view = CattleView()
    listing_order: ClassVar[int] = 40
    seats_differ: ClassVar[bool] = False
    episode_metrics: ClassVar[frozenset[str]] = frozenset({"turns", "turn_capped"})
    outcome_rule: ClassVar[str] = (
        "Players are ranked by score (complete sets' values times their number); equal scores share"
        " a rank. A win is rank 1, shared or not. The ratings read each game's whole order"
        " (Plackett-Luce), equal scores tied."
    )
    summary_metrics: ClassVar[tuple[str, ...]] = (
        "win",
        "rank",
        "complete_sets",
        "capital_efficiency",
        "bid_aggressiveness_early",
        "bid_aggressiveness_late",
        "overbid_rate",
        "buy_right_rate",
        "bluff_rate",
        "bluff_success",
        "challenge_tightness",
        "money_end",
        "fallbacks",
    )

    def seats(self, options: CattleOptions) -> tuple[str, ...]:
        return SEAT_NAMES[: options.players]

    def state_class(self) -> type[CattleState]:
        from games.cattle.game import CattleState

        return CattleState

    @property
    def baselines(self) -> Mapping[str, BaselineInfo]:
        from arena.contract.baseline import baseline_table
        from games.cattle.baselines import BASELINES

        return baseline_table(*BASELINES)

    def rules(self, options: CattleOptions, seat: str) -> str:
        return prompt_text.rules_text(
            seat, self.seats(options), options.auction, options.turn_cap, options.notes
        )

    def prompt(self, observation: CattleObservation, rules: str) -> str:
        return prompt_text.render(observation, rules)


DEFINITION = CattleDefinition()
