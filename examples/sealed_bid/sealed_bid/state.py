"""Rules of the sealed-bid auction: options, observation, action and state."""

from __future__ import annotations

import random
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field

from arena.contract.game import GameDefinition, GameState, SeatResult

SEATS = ("a", "b", "c")
MAX_BID = 100


class SealedBidOptions(BaseModel):
    """How many items are sold."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    items: int = Field(3, ge=1, le=20, description="items sold, one sealed-bid round each")


class Bid(BaseModel):
    """One sealed bid in whole coins."""

    bid: int = Field(ge=0, le=MAX_BID, description=f"your bid, 0 to {MAX_BID}")
    reason: str = Field("", description="one sentence on why")


class Sale(BaseModel):
    """A past round as everyone sees it: who won and the price paid."""

    model_config = ConfigDict(frozen=True)

    item: int
    winner: str
    price: int


class SealedBidObservation(BaseModel):
    """One bidder's view: its own value for the item now, its own result and the public sales."""

    model_config = ConfigDict(frozen=True)

    seat: str
    item: int
    items: int
    your_value: int | None
    your_profit: int
    sales: list[Sale]


class SealedBidState(GameState[SealedBidOptions, SealedBidObservation, Bid]):
    """Values are drawn per item and seat from the game's own generator."""

    def __init__(self, definition: GameDefinition, seed: int, options: SealedBidOptions) -> None:
        super().__init__(definition, seed, options)
        rng = random.Random(f"sealed-bid:{seed}")
        self.values = [{seat: rng.randint(10, MAX_BID) for seat in SEATS} for _ in range(options.items)]
        self.item = 0
        self.sales: list[Sale] = []
        self.bids: list[dict[str, int]] = []
        self.profit = dict.fromkeys(SEATS, 0)

    def pending(self) -> list[str]:
        return list(SEATS) if self.item < self.options.items else []

    def observation(self, seat: str) -> SealedBidObservation:
        value = self.values[self.item][seat] if self.item < self.options.items else None
        return SealedBidObservation(
            seat=seat,
            item=min(self.item + 1, self.options.items),
            items=self.options.items,
            your_value=value,
            your_profit=self.profit[seat],
            sales=list(self.sales),
        )

    def action_model(self, seat: str) -> type[Bid]:
        return Bid

    def validate(self, seat: str, action: Bid) -> str | None:
        return None if self.item < self.options.items else "the auction is over"

    def fallback(self, seat: str) -> Bid:
        """Bid nothing (never loses money)."""
        return Bid(bid=0, reason="fallback: no bid")

    def sample_action(self, seat: str, rng: random.Random) -> Bid:
        return Bid(bid=rng.randint(0, MAX_BID), reason="random bid")

    def apply(self, actions: dict[str, Bid]) -> None:
        if set(actions) != set(self.pending()):
            raise ValueError(f"expected bids from {self.pending()}, got {sorted(actions)}")
        bids = {seat: action.bid for seat, action in actions.items()}
        top = max(bids.values())
        winner = next(seat for seat in SEATS if bids[seat] == top)  # ties go to the earlier seat
        gain = self.values[self.item][winner] - top
        self.profit[winner] += gain
        self.bids.append(bids)
        self.sales.append(Sale(item=self.item + 1, winner=winner, price=top))
        self.item += 1

    def result(self) -> dict[str, SeatResult]:
        return {
            seat: SeatResult(
                score=float(self.profit[seat]),
                metrics={"items_won": sum(sale.winner == seat for sale in self.sales)},
            )
            for seat in SEATS
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "items": self.options.items,
            "item": self.item,
            "values": self.values,
            "bids": self.bids,
            "sales": [sale.model_dump() for sale in self.sales],
            "profit": self.profit,
        }

    @classmethod
    def from_json(cls, definition: GameDefinition, data: dict[str, Any]) -> Self:
        state = cls(definition, data["seed"], SealedBidOptions(items=data["items"]))
        state.item = data["item"]
        state.values = [dict(values) for values in data["values"]]
        state.bids = [dict(bids) for bids in data["bids"]]
        state.sales = [Sale.model_validate(sale) for sale in data["sales"]]
        state.profit = dict(data["profit"])
        return state

    def with_sentinel(self, seat: str, sentinel: int) -> Self | None:
        twin = self.clone()
        for values in twin.values:
            values[seat] = sentinel
        return twin

    def turn_state(self, seat: str) -> dict[str, Any]:
        sale = self.sales[-1]
        return {"item": sale.item, "winner": sale.winner, "price": sale.price, "profit": self.profit[seat]}
