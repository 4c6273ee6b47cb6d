"""The bargain's definition: facts, options, seats, baselines, prompt and view."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel

from arena.contract.definition import BaselineInfo, GameDefinition
from arena.contract.game import GameState, template_version
from games.bargain import prompt as prompt_text
from games.bargain.observation import BargainObservation
from games.bargain.options import BargainOptions
from games.bargain.rules import SEATS

if TYPE_CHECKING:
    from rich.console import RenderableType

    from games.bargain.game import BargainState

# The state, the baselines and the view load when a game is played or shown, not when it is
# listed: ``arena games`` reads only the facts and options declared here.


class BargainDefinition(GameDefinition):
    """Hidden-valuation bargaining (seed 003)."""

    name: ClassVar[str] = "bargain"
    version: ClassVar[str] = "1.0"
    title: ClassVar[str] = "Bargain"
    description: ClassVar[str] = (
        "A seller with a private cost and a buyer with a private value take turns offering "
        "prices, with cheap-talk messages on the side. A deal inside the zone helps both; "
        "no deal by the round limit gives both nothing."
    )
    prompt_version: ClassVar[str] = template_version(prompt_text.TEMPLATE, prompt_text.RULES)
    Options: ClassVar[type[BaseModel]] = BargainOptions
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

    def seats(self, options: BaseModel) -> tuple[str, ...]:
        return SEATS

    def new_state(self, seed: int, options: BaseModel) -> BargainState:
        from games.bargain.game import BargainState

        assert isinstance(options, BargainOptions)
        return BargainState(self, seed, options)

    def state_from_json(self, data: dict[str, Any]) -> BargainState:
        from games.bargain.game import BargainState

        return BargainState.from_json(self, data)

    @property
    def baselines(self) -> dict[str, BaselineInfo]:
        from games.bargain.baselines import BASELINES

        return {name: BaselineInfo(name, description, cls) for name, (cls, description) in BASELINES.items()}

    def rules(self, options: BaseModel, seat: str) -> str:
        assert isinstance(options, BargainOptions)
        return prompt_text.rules_text(seat, options.rounds)

    def prompt(self, observation: BaseModel, rules: str) -> str:
        assert isinstance(observation, BargainObservation)
        return prompt_text.render(observation, rules)

    def render(self, state: GameState, viewer: str | None = None) -> RenderableType:
        from games.bargain.game import BargainState
        from games.bargain.render import render_bargain

        assert isinstance(state, BargainState)
        return render_bargain(state, viewer)


DEFINITION = BargainDefinition()
