"""The lemonade stand's definition: facts, options, seats, baselines, prompt and view."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, ClassVar

from arena.contract.game import GameDefinition
from arena.contract.templates import template_version
from games.lemonade import prompt as prompt_text
from games.lemonade.options import LemonadeOptions, stand_seats
from games.lemonade.view import LemonadeView

if TYPE_CHECKING:
    from arena.contract.baseline import BaselineInfo
    from games.lemonade.game import LemonadeState
    from games.lemonade.observation import LemonadeObservation

# The state, the baselines and the Rich board load when a game is played or shown, not when it is
# listed: ``arena games`` reads only the facts and options declared here.


class LemonadeDefinition(GameDefinition[LemonadeOptions, "LemonadeObservation", "LemonadeState"]):
    """The 30-day lemonade stand (seed 000)."""

    name: ClassVar[str] = "lemonade"
    private_information: ClassVar[bool] = True  # each stand's cash is its own
    version: ClassVar[str] = "1.0"
    title: ClassVar[str] = "Lemonade stand"
    description: ClassVar[str] = (
        "Run a lemonade stand for 30 days: set the price, how many cups to make and a "
        "promotion each morning. Same weather, traffic and costs for every stand; the "
        "most cash at the end wins."
    )
    prompt_version: ClassVar[str] = template_version(prompt_text.TEMPLATE, prompt_text.RULES)
    Options = LemonadeOptions
    view = LemonadeView()
    listing_order: ClassVar[int] = 0
    outcome_rule: ClassVar[str] = (
        "A win is the most cash at the end among the stands of one episode (a bankrupt stand keeps"
        " the cash it stopped with); stands sharing the most cash draw and every other stand loses."
        " With two stands the ratings count the episode as a win, draw or loss (Bradley-Terry); with"
        " three or more they read each episode's whole order by cash (Plackett-Luce), equal cash tied."
    )
    rules_notes: ClassVar[str] = prompt_text.DEMAND_NOTE
    summary_metrics: ClassVar[tuple[str, ...]] = (
        "final_cash",
        "revenue",
        "ingredient_cost",
        "wasted_cups",
        "gross_margin",
        "decision_changes",
        "bankrupt",
        "fallbacks",
        "claims",
        "false_claims",
    )

    def seats(self, options: LemonadeOptions) -> tuple[str, ...]:
        return stand_seats(options.stands)

    def state_class(self) -> type[LemonadeState]:
        from games.lemonade.game import LemonadeState

        return LemonadeState

    @cached_property
    def baselines(self) -> Mapping[str, BaselineInfo]:  # built once: every episode's baselines read it
        from arena.contract.baseline import baseline_table
        from games.lemonade.baselines import BASELINES

        return baseline_table(*BASELINES.values())

    def rules(self, options: LemonadeOptions, seat: str) -> str:
        return prompt_text.rules_text(options.days, options.market)

    def prompt(self, observation: LemonadeObservation, rules: str) -> str:
        return prompt_text.render(observation, rules)


DEFINITION = LemonadeDefinition()
