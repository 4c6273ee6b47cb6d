"""The sealed-bid auction's definition, prompt, view and baseline."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text

from arena.contract.baseline import Baseline, BaselineInfo, baseline_table
from arena.contract.game import GameDefinition, GameView
from arena.contract.templates import template_version
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


class ShadeBidder(Baseline[SealedBidObservation, Bid]):
    """Bids two thirds of its value (the equilibrium bid with three bidders and uniform values)."""

    name = "shade"

    def choose(self, observation: SealedBidObservation) -> Bid:
        value = observation.your_value
        assert value is not None, "a bidder is asked only while an item is for sale"
        return Bid(bid=value * 2 // 3, reason=f"two thirds of my value {value}")


class SealedBidView(GameView[SealedBidState, Bid]):
    """The sales so far and each bidder's profit; a bidder also sees its value for the next item."""

    def render(self, state: SealedBidState, viewer: str | None) -> Any:
        table = Table("item", "winner", "price", title="sales", header_style="bold")
        for sale in state.sales:
            table.add_row(str(sale.item), sale.winner, str(sale.price))
        shown = SEATS if viewer is None else (viewer,)
        lines = [Text(f"{seat}: profit {state.profit[seat]}") for seat in shown]
        if viewer is not None and state.item < state.options.items:
            lines.append(Text(f"item {state.item + 1} is worth {state.values[state.item][viewer]} to you"))
        return Group(table, *lines)

    def describe_action(self, state: SealedBidState, seat: str, action: Bid) -> str:
        return f"bid {action.bid}"

    def progress(self, state: SealedBidState) -> tuple[int, int]:
        return (state.item, state.options.items)


class SealedBidDefinition(GameDefinition[SealedBidOptions, SealedBidObservation, SealedBidState]):
    """A three-seat first-price sealed-bid auction with hidden values."""

    name: ClassVar[str] = "sealed_bid"
    private_information: ClassVar[bool] = True  # each bidder's value and bid are its own
    version: ClassVar[str] = "0.1"
    title: ClassVar[str] = "Sealed-bid auction"
    description: ClassVar[str] = (
        "Three bidders, hidden values, one sealed bid each per item; the highest bid wins and pays it."
    )
    prompt_version: ClassVar[str] = template_version(RULES, TEMPLATE)
    Options = SealedBidOptions
    view = SealedBidView()
    summary_metrics: ClassVar[tuple[str, ...]] = ("items_won",)

    def seats(self, options: SealedBidOptions) -> tuple[str, ...]:
        return SEATS

    def state_class(self) -> type[SealedBidState]:
        return SealedBidState

    @property
    def baselines(self) -> Mapping[str, BaselineInfo]:
        return baseline_table(ShadeBidder)

    def rules(self, options: SealedBidOptions, seat: str) -> str:
        return RULES.format(items=options.items, max_bid=MAX_BID)

    def prompt(self, observation: SealedBidObservation, rules: str) -> str:
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


DEFINITION = SealedBidDefinition()
