"""The bargain's definition: facts, options, seats, baselines, prompt and view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from arena.contract.game import GameDefinition
from arena.contract.templates import template_version
from games.bargain import prompt as prompt_text
from games.bargain.options import BargainOptions
from games.bargain.rules import SEATS
from games.bargain.view import BargainView

if TYPE_CHECKING:
    from arena.contract.baseline import BaselineInfo
    from games.bargain.game import BargainState
    from games.bargain.observation import BargainObservation

# The state, the baselines and the Rich board load when a game is played or shown, not when it is
# listed: ``arena games`` reads only the facts and options declared here.


class BargainDefinition(GameDefinition[BargainOptions, "BargainObservation", "BargainState"]):
    """Hidden-valuation bargaining (seed 003)."""

    name: ClassVar[str] = "bargain"
    private_information: ClassVar[bool] = True  # each side's own number (cost or value) is its secret
    version: ClassVar[str] = "1.0"
    title: ClassVar[str] = "Bargain"
    description: ClassVar[str] = (
        "A seller with a private cost and a buyer with a private value take turns offering "
        "prices, with cheap-talk messages on the side. A deal inside the zone helps both; "
        "no deal by the round limit gives both nothing."
    )
    prompt_version: ClassVar[str] = template_version(prompt_text.TEMPLATE, prompt_text.RULES)
    Options = BargainOptions
    view = BargainView()
    listing_order: ClassVar[int] = 10
    episode_metrics: ClassVar[frozenset[str]] = frozenset(
        {
            "closed",
            "price",
            "in_zone",
            "seller_gain",
            "buyer_gain",
            "surplus",
            "efficiency",
            "efficiency_seed",
            "balance",
            "rounds_used",
        }
    )
    dealt_metrics: ClassVar[frozenset[str]] = frozenset({"own_number"})
    outcome_rule: ClassVar[str] = (
        "A win is a higher gain than the other side on the same deal (the seller gains price - cost,"
        " the buyer value - price). The two gains always add up to the deal's surplus, so the winner"
        " took more than half of it (on a deal outside the zone: the side that did not lose money)."
        " Equal gains are a draw, and so is no deal (both gain 0); the other side's result is a loss."
    )
    summary_metrics: ClassVar[tuple[str, ...]] = (
        "closed",
        "in_zone",
        "price",
        "surplus",
        "own_number",
        "gain",
        "share",
        "balance",
        "rounds_used",
        "leaks",
        "bluffs",
        "fallbacks",
    )

    def seats(self, options: BargainOptions) -> tuple[str, ...]:
        return SEATS

    def state_class(self) -> type[BargainState]:
        from games.bargain.game import BargainState

        return BargainState

    @property
    def baselines(self) -> Mapping[str, BaselineInfo]:
        from arena.contract.baseline import baseline_table
        from games.bargain.baselines import BASELINES

        return baseline_table(*BASELINES.values())

    def rules(self, options: BargainOptions, seat: str) -> str:
        return prompt_text.rules_text(seat, options.rounds)

    def prompt(self, observation: BargainObservation, rules: str) -> str:
        return prompt_text.render(observation, rules)


DEFINITION = BargainDefinition()
