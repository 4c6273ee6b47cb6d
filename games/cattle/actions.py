"""Cattle Trade's actions, one pydantic model per kind of moment (the state says which applies).

Money is named as text (``"10 10 50"``, or ``auto`` where a payment allows it): cards of one
value are alike, and one text field serves a model's JSON, the console and the app's form.
Each model's ``reason`` is private: no other seat ever reads it.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from games.cattle.cards import BID_STEP, MAX_BID, SPECIES

REASON_MAX = 2000
NOTES_MAX = 1200
SEAT_NAMES: tuple[str, ...] = ("p1", "p2", "p3", "p4", "p5")
"""Every seat name the game can have (3 to 5 players: the first ``players`` of these)."""

Seat = Literal["p1", "p2", "p3", "p4", "p5"]
Species = Literal["rooster", "goose", "cat", "dog", "sheep", "goat", "donkey", "pig", "cow", "horse"]
assert Species.__args__ == SPECIES  # type: ignore[attr-defined]  # one list of species

_REASON = Field(default="", max_length=REASON_MAX, description="private reasoning; no other player sees it")
_CARDS = (
    "your money cards to lay face down, by value, separated by spaces (for example '0 10 50');"
    " at least one card, 0-cards allowed (a bluff)"
)


class _Action(BaseModel):
    model_config = ConfigDict(extra="ignore")


class TurnAction(_Action):
    """The active player's turn: auction the top card of the deck, or challenge someone to a trade."""

    FORM_WHEN: ClassVar[dict[str, dict[str, str]]] = {
        "target": {"move": "challenge"},
        "species": {"move": "challenge"},
        "cards": {"move": "challenge"},
    }

    move: Literal["auction", "challenge"] = Field(
        description='"auction" the top card of the deck, or "challenge" a player to a trade'
    )
    target: Seat | None = Field(default=None, description="challenge: the player you challenge")
    species: Species | None = Field(
        default=None, description="challenge: the species you both own, which the trade is for"
    )
    cards: str | None = Field(default=None, description=f"challenge: {_CARDS}")
    reason: str = _REASON


class BidAction(_Action):
    """A bid in an auction, or a pass."""

    FORM_WHEN: ClassVar[dict[str, dict[str, str]]] = {"amount": {"action": "bid"}}

    action: Literal["bid", "pass"] = Field(description='"bid" an amount, or "pass"')
    amount: int | None = Field(
        default=None,
        ge=BID_STEP,
        le=MAX_BID,
        multiple_of=BID_STEP,
        description=f"bid: a multiple of {BID_STEP} above the standing bid",
    )
    reason: str = _REASON


class SaleAction(_Action):
    """The auctioneer's choice once bidding closed: sell to the high bidder, or buy the card."""

    action: Literal["sell", "buy"] = Field(
        description='"sell": the high bidder pays you the bid and takes the card; "buy": you pay the'
        " high bidder the bid and keep the card (needs that much money)"
    )
    reason: str = _REASON


class PayAction(_Action):
    """A payment: the cards to hand over, or ``auto``. No change is given."""

    cards: str = Field(
        default="auto",
        description="the money cards you pay, by value, separated by spaces (for example '50 10'),"
        " worth at least the price (no change is given), or 'auto' for the smallest overpay",
    )
    reason: str = _REASON


class ResponseAction(_Action):
    """The challenged player's answer: accept the offer, or counter with hidden cards."""

    FORM_WHEN: ClassVar[dict[str, dict[str, str]]] = {"cards": {"action": "counter"}}

    action: Literal["accept", "counter"] = Field(
        description='"accept": take the challenger\'s cards and hand over the stake; "counter": lay'
        " your own cards, and the higher total wins the stake"
    )
    cards: str | None = Field(default=None, description=f"counter: {_CARDS}")
    reason: str = _REASON


class OfferAction(_Action):
    """A fresh hidden offer after a tie."""

    cards: str = Field(description=_CARDS)
    reason: str = _REASON


class NotesAction(_Action):
    """Notes to self, shown as "your notes" in the seat's next observations."""

    notes: str = Field(
        default="",
        max_length=NOTES_MAX,
        description=f"your notes for later turns, at most {NOTES_MAX} characters (they replace the old ones)",
    )
    reason: str = _REASON


CattleAction = TurnAction | BidAction | SaleAction | PayAction | ResponseAction | OfferAction | NotesAction
