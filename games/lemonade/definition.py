"""The lemonade stand's definition: facts, options, seats, baselines, prompt and view."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel

from arena.contract.definition import BaselineInfo, GameDefinition
from arena.contract.game import GameState, template_version
from games.lemonade import prompt as prompt_text
from games.lemonade.observation import LemonadeObservation
from games.lemonade.options import LemonadeOptions, stand_seats

if TYPE_CHECKING:
    from rich.console import RenderableType

    from games.lemonade.game import LemonadeState

# The state, the baselines and the view load when a game is played or shown, not when it is
# listed: ``arena games`` reads only the facts and options declared here.


class LemonadeDefinition(GameDefinition):
    """The 30-day lemonade stand (seed 000)."""

    name: ClassVar[str] = "lemonade"
    version: ClassVar[str] = "1.0"
    title: ClassVar[str] = "Lemonade stand"
    description: ClassVar[str] = (
        "Run a lemonade stand for 30 days: set the price, how many cups to make and a "
        "promotion each morning. Same weather, traffic and costs for every stand; the "
        "most cash at the end wins."
    )
    prompt_version: ClassVar[str] = template_version(prompt_text.TEMPLATE, prompt_text.RULES)
    Options: ClassVar[type[BaseModel]] = LemonadeOptions
    listing_order: ClassVar[int] = 0
    outcome_rule: ClassVar[str] = (
        "A win is the most cash at the end among the stands of one episode (a bankrupt stand keeps"
        " the cash it stopped with); stands sharing the most cash draw and every other stand loses."
        " With two stands the ratings count the episode as a win, draw or loss (Bradley-Terry); with"
        " three or more they read each episode's whole order by cash (Plackett-Luce), equal cash tied."
    )
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

    def seats(self, options: BaseModel) -> tuple[str, ...]:
        assert isinstance(options, LemonadeOptions)
        return stand_seats(options.stands)

    def new_state(self, seed: int, options: BaseModel) -> LemonadeState:
        from games.lemonade.game import LemonadeState

        assert isinstance(options, LemonadeOptions)
        return LemonadeState(self, seed, options)

    def state_from_json(self, data: dict[str, Any]) -> LemonadeState:
        from games.lemonade.game import LemonadeState

        return LemonadeState.from_json(self, data)

    @property
    def baselines(self) -> dict[str, BaselineInfo]:
        return dict(self._baseline_infos)

    @cached_property
    def _baseline_infos(self) -> dict[str, BaselineInfo]:
        from games.lemonade.baselines import BASELINES

        return {name: BaselineInfo(name, text, cls) for name, (cls, text) in BASELINES.items()}

    def rules(self, options: BaseModel, seat: str) -> str:
        assert isinstance(options, LemonadeOptions)
        return prompt_text.rules_text(options.days, options.market)

    def prompt(self, observation: BaseModel, rules: str) -> str:
        assert isinstance(observation, LemonadeObservation)
        return prompt_text.render(observation, rules)

    def render(self, state: GameState, viewer: str | None = None) -> RenderableType:
        from games.lemonade.game import LemonadeState
        from games.lemonade.render import render_stands

        assert isinstance(state, LemonadeState)
        if viewer is None:
            return render_stands(state, state.seats, audit=True)
        return render_stands(state, (viewer,))


DEFINITION = LemonadeDefinition()
