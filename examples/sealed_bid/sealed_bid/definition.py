"""The sealed-bid auction's definition, prompt, view and baseline."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from pydantic import BaseModel
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from arena.contract.definition import BaselineInfo, GameDefinition
from arena.contract.game import GameState, template_version
from arena.contract.player import BasePlayer, Decision, DecisionRequest
from sealed_bid.state import MAX_BID, SEATS, Bid, SealedBidObservation, SealedBidOptions, SealedBidState

RULES = """\
Three bidders take part in {items} sealed-bid auctions, one item at a time. For each item
you privately learn what it is worth to you (10 to {max_bid} coins); the others' values are
drawn independently and you never see them. Everyone bids at the same time; the highest bid
wins the item and pays its bid (a tie goes to the bidder listed first). Your score is the
sum of value minus price over the items you win."""

TEMPLATE = """\
{rules}

Item {item} of {items}. It is worth {value} coins to you. Your profit so far: {profit}.
Past sales: {sales}

Reply with only a JSON object: {{"bid": whole number 0 to {max_bid}, "reason": one sentence}}"""


class ShadeBidder(BasePlayer):
    """Bids two thirds of its value (the equilibrium bid with three bidders and uniform values)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.spec = "baseline:shade"

    async def decide(self, request: DecisionRequest) -> Decision:
        observation = request.observation
        assert isinstance(observation, SealedBidObservation) and observation.your_value is not None
        bid = observation.your_value * 2 // 3
        return Decision(action=Bid(bid=bid, reason=f"two thirds of my value {observation.your_value}"))


class SealedBidDefinition(GameDefinition):
    """A three-seat first-price sealed-bid auction with hidden values."""

    name: ClassVar[str] = "sealed_bid"
    version: ClassVar[str] = "0.1"
    title: ClassVar[str] = "Sealed-bid auction"
    description: ClassVar[str] = (
        "Three bidders, hidden values, one sealed bid each per item; the highest bid wins and pays it."
    )
    prompt_version: ClassVar[str] = template_version(RULES, TEMPLATE)
    Options: ClassVar[type[BaseModel]] = SealedBidOptions
    summary_metrics: ClassVar[tuple[str, ...]] = ("items_won",)

    def seats(self, options: BaseModel) -> tuple[str, ...]:
        return SEATS

    def new_state(self, seed: int, options: BaseModel) -> SealedBidState:
        assert isinstance(options, SealedBidOptions)
        return SealedBidState(self, seed, options)

    def state_from_json(self, data: dict[str, Any]) -> SealedBidState:
        return SealedBidState.from_json(self, data)

    @property
    def baselines(self) -> dict[str, BaselineInfo]:
        return {"shade": BaselineInfo("shade", ShadeBidder.__doc__ or "", ShadeBidder)}

    def rules(self, options: BaseModel, seat: str) -> str:
        assert isinstance(options, SealedBidOptions)
        return RULES.format(items=options.items, max_bid=MAX_BID)

    def prompt(self, observation: BaseModel, rules: str) -> str:
        assert isinstance(observation, SealedBidObservation)
        sales = (
            ", ".join(f"item {s.item} to {s.winner} at {s.price}" for s in observation.sales) or "none yet"
        )
        return TEMPLATE.format(
            rules=rules,
            item=observation.item,
            items=observation.items,
            value=observation.your_value,
            profit=observation.your_profit,
            sales=sales,
            max_bid=MAX_BID,
        )

    def render(self, state: GameState, viewer: str | None = None) -> RenderableType:
        assert isinstance(state, SealedBidState)
        table = Table("item", "winner", "price", title="sales", header_style="bold")
        for sale in state.sales:
            table.add_row(str(sale.item), sale.winner, str(sale.price))
        shown = SEATS if viewer is None else (viewer,)
        lines = [Text(f"{seat}: profit {state.profit[seat]}") for seat in shown]
        if viewer is not None and state.item < state.options.items:
            lines.append(Text(f"item {state.item + 1} is worth {state.values[state.item][viewer]} to you"))
        return Group(table, *lines)


DEFINITION = SealedBidDefinition()
