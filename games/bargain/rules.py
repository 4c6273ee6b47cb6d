"""Pure rules of the bargain: the action, legality, the fallback price and the outcome metrics.

One *round* is one turn of one side: the seller acts in rounds 1, 3, 5, ..., the buyer in
rounds 2, 4, 6, ... (the seed's loop, ``for _ in range(max_rounds)``). A turn is either an
offer at a whole-number price or the acceptance of the other side's standing offer; an
acceptance closes the deal at once, at the standing price. An offer made in the last
round can no longer be accepted, so the game then ends without a deal.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from games.bargain.world import Deal

SELLER = "seller"
BUYER = "buyer"
SEATS = (SELLER, BUYER)
PRICE_MIN = 1
PRICE_MAX = 200
MESSAGE_MAX = 280
REASON_MAX = 2000
DEFAULT_ROUNDS = 8
FALLBACK_OPENING_MARGIN = 20
"""A fallback with no earlier own offer opens this far from the seat's own number."""


def other(seat: str) -> str:
    """The opponent of ``seat``."""
    return BUYER if seat == SELLER else SELLER


class BargainAction(BaseModel):
    """One turn: an offer at a price, or acceptance of the other side's standing offer.

    ``message`` is cheap talk shown to the other side; ``reason`` is private and never
    shown to it. Messages longer than 280 characters are cut, not rejected.
    """

    model_config = ConfigDict(extra="ignore")
    FORM_WHEN: ClassVar[dict[str, dict[str, str]]] = {"price": {"action": "offer"}}
    """A person's form asks for a price only for an offer; either action may carry a message."""

    action: Literal["offer", "accept"] = Field(
        description='"offer" to propose a price, or "accept" to take the other side\'s standing offer'
    )
    price: int | None = Field(
        default=None,
        ge=PRICE_MIN,
        le=PRICE_MAX,
        description="whole-number price from 1 to 200; required for an offer, ignored for accept",
    )
    message: str = Field(
        default="", description="optional message the other side will read (at most 280 characters)"
    )
    reason: str = Field(
        default="", max_length=REASON_MAX, description="private reasoning; the other side never sees it"
    )

    @field_validator("message", mode="before")
    @classmethod
    def _cut_message(cls, value: Any) -> Any:
        if value is None:
            return ""
        if isinstance(value, str) and len(value) > MESSAGE_MAX:
            return value[:MESSAGE_MAX]
        return value


def _an_offer_price(schema: dict[str, Any]) -> None:
    """The price of an offer-only turn: a whole number in range, never null."""
    for key in ("anyOf", "default"):
        schema.pop(key, None)
    schema.update(type="integer", minimum=PRICE_MIN, maximum=PRICE_MAX)


class OfferOnly(BargainAction):
    """The turn asked for when there is nothing to accept: an offer, with its price.

    Only the schema differs (what a model is told, and the offline model's grammar); validation
    is :class:`BargainAction`'s, and the game's check names an acceptance of nothing.
    """

    action: Literal["offer", "accept"] = Field(
        json_schema_extra={"enum": ["offer"]},
        description='"offer": there is no offer from the other side to accept yet',
    )
    price: int | None = Field(
        default=None,
        ge=PRICE_MIN,
        le=PRICE_MAX,
        json_schema_extra=_an_offer_price,
        description=f"whole-number price from {PRICE_MIN} to {PRICE_MAX}",
    )


OfferOnly.__name__ = OfferOnly.__qualname__ = BargainAction.__name__


@dataclass(frozen=True, slots=True)
class Move:
    """One recorded turn: who did what in which round, and what they said."""

    round: int
    seat: str
    action: str
    price: int
    message: str

    def public(self) -> dict[str, Any]:
        """The move as both sides see it (everything here is public)."""
        return asdict(self)


def check_action(
    action: BargainAction, *, seat: str, to_move: str | None, standing: Move | None
) -> str | None:
    """Rule checks beyond the schema; an explanation if the action is illegal."""
    if to_move is None:
        return "the negotiation is over"
    if seat != to_move:
        return f"it is the {to_move}'s turn, not the {seat}'s"
    if action.action == "accept":
        if standing is None or standing.seat == seat:
            return "there is no offer from the other side to accept yet; make an offer with a price"
        return None
    if action.price is None:
        return f"an offer needs a whole-number price from {PRICE_MIN} to {PRICE_MAX}"
    return None


def fallback_price(seat: str, secret: int, own_last: int | None, standing: int | None) -> int:
    """The conservative fallback offer: never a loss, never a concession.

    Repeat the seat's own previous offer (or, with none, open ``FALLBACK_OPENING_MARGIN``
    away from its own number), moved onto the safe side of its own number (seller at or
    above its cost, buyer at or below its value) and never more generous than the other
    side's standing offer (a seller never asks less than the buyer already bid).
    """
    if seat == SELLER:
        price = own_last if own_last is not None else secret + FALLBACK_OPENING_MARGIN
        price = max(price, secret, standing or PRICE_MIN)
        return min(price, PRICE_MAX)
    price = own_last if own_last is not None else secret - FALLBACK_OPENING_MARGIN
    price = min(price, secret, standing if standing is not None else PRICE_MAX)
    return max(price, PRICE_MIN)


def gain(seat: str, deal: Deal, price: int | None) -> int:
    """What ``seat`` gains at ``price`` (0 without a deal; negative for a losing price)."""
    if price is None:
        return 0
    return price - deal.cost if seat == SELLER else deal.value - price


def outcome_metrics(deal: Deal, price: int | None) -> dict[str, Any]:
    """The seed's ``score()`` with its degenerate efficiency fixed (per episode, both seats).

    * ``closed``, ``price``, ``in_zone`` (``cost <= price <= value``; False without a deal),
      ``seller_gain = price - cost`` and ``buyer_gain = value - price``. Unlike the seed these
      gains are not clipped at zero: a seat that accepts a losing price shows the loss.
    * ``efficiency_seed`` is the seed's formula as written, ``surplus_total / surplus_total``
      for an in-zone deal: always 1.0 then, else 0.0. It only restates ``in_zone``.
    * Joint surplus ``buyer_gain + seller_gain`` equals ``value - cost`` for *every* deal,
      whatever the price (the price is a transfer), so "realised over available surplus"
      is also just the deal indicator. ``efficiency`` therefore measures individually
      rational efficiency: 1.0 for an in-zone deal, 0.0 for no deal, and for a deal
      outside the zone ``-loss / surplus``, the loser's loss in units of the pie.
    * ``balance`` is the Nash product ``4 * seller_gain * buyer_gain / surplus**2`` of an
      in-zone deal: 1.0 at an even split, 0.0 when one side got everything, no deal or
      a deal outside the zone. It tells a fair deal from a lopsided one.
    """
    surplus = deal.surplus
    closed = price is not None
    seller_gain = gain(SELLER, deal, price)
    buyer_gain = gain(BUYER, deal, price)
    in_zone = closed and deal.cost <= (price or 0) <= deal.value
    if not closed:
        efficiency = 0.0
    elif in_zone:
        efficiency = 1.0
    else:
        efficiency = round(min(seller_gain, buyer_gain) / surplus, 4)
    balance = round(4 * seller_gain * buyer_gain / surplus**2, 4) if in_zone else 0.0
    return {
        "closed": closed,
        "price": price,
        "in_zone": in_zone,
        "seller_gain": seller_gain,
        "buyer_gain": buyer_gain,
        "surplus": surplus,
        "efficiency": efficiency,
        "efficiency_seed": 1.0 if in_zone else 0.0,
        "balance": balance,
    }
