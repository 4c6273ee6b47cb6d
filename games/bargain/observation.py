"""What one side of the bargain may know: its own number and the public moves, typed.

The single source of the prompt, the baselines and a seat's view. The other side's number
and the honesty ledger are never in it (a flag on the other side's message would hint at
its number).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer


class PublicMove(BaseModel):
    """One move as both sides see it."""

    model_config = ConfigDict(frozen=True)

    round: int
    seat: str
    action: Literal["offer", "accept"]
    price: int
    message: str


class BargainObservation(BaseModel):
    """One side's view now: its role and own number, the rounds and every public move."""

    model_config = ConfigDict(frozen=True)

    role: Literal["seller", "buyer"]
    your_cost: int | None = None
    your_value: int | None = None
    round: int
    rounds: int
    rounds_left: int
    offers: list[PublicMove]
    standing_offer: int | None
    your_last_offer: int | None
    status: Literal["open", "deal", "no_deal"]
    price: int | None

    @property
    def secret(self) -> int:
        """This side's own number (cost for the seller, value for the buyer)."""
        number = self.your_cost if self.role == "seller" else self.your_value
        assert number is not None, "an observation always carries its own side's number"
        return number

    @model_serializer(mode="wrap")
    def _only_own_number(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # A seat's stored observation names only its own number's key.
        data: dict[str, Any] = handler(self)
        data.pop("your_value" if self.role == "seller" else "your_cost", None)
        return data
