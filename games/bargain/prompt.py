"""The one bargain prompt template: goal, rules and state, no strategy hints.

Both seats and every provider get exactly this text with their own role filled in. The
state part is filled only from the seat's observation, so it can never contain the other
side's number. Messages from the other side are quoted as JSON strings, so line breaks
or fake headings inside them cannot pass for part of the prompt.
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING

from games.bargain.rules import MESSAGE_MAX, PRICE_MAX, PRICE_MIN, SELLER
from games.bargain.world import COST_MAX, COST_MIN, MARGIN_MAX, MARGIN_MIN

if TYPE_CHECKING:  # listing the games (``arena games``) builds no observation model
    from games.bargain.observation import BargainObservation, PublicMove

ROLE_TEXT = {
    "seller": {
        "other": "buyer",
        "secret": "cost",
        "gain": "the price minus your cost",
        "goal": "sell the item for as much above your cost as you can",
    },
    "buyer": {
        "other": "seller",
        "secret": "value",
        "gain": "your value minus the price",
        "goal": "buy the item for as far below your value as you can",
    },
}

RULES = """\
You are the {role} in a one-item negotiation between a seller and a buyer.
The seller's cost and the buyer's value are private whole numbers. The cost is drawn
from {cost_min} to {cost_max}; the value is the cost plus a number from {margin_min} to {margin_max},
so a price both sides gain from always exists. Each side knows only its own number.
Your number is your {secret}.
Goal: {goal}.
Your gain is {gain} if a deal is made, and 0 if there is no deal.
Turns: there are at most {rounds} rounds. One round is one turn of one side: the seller
acts in rounds 1, 3, 5, ..., the buyer in rounds 2, 4, 6, .... On your turn you either
- offer: propose a whole-number price from {price_min} to {price_max}. The offer is binding:
  if the {other} accepts it on their next turn, the deal is made at that price; or
- accept: take the {other}'s standing offer (their latest one). The deal is made at
  once at that price; any price you send with accept is ignored.
An offer made in round {rounds}, the last round, cannot be accepted any more. If no offer
has been accepted after round {rounds}, there is no deal and both sides gain 0.
Nothing stops anyone from agreeing to a price at which they lose (a negative gain).
With either action you may send a message of up to {message_max} characters; the {other}
reads it. The {other} never sees your {secret} or your reason. Messages bind no one;
only offers do. A reply that cannot be read or breaks these rules is asked for again
once, then replaced by this fallback: repeat your previous offer (on your first turn,
your {secret} {fallback_sign} 20) but {fallback_bound} your {secret} or the {other}'s
standing offer, with no message."""

TEMPLATE = """\
{rules}

Current state
You are the {role}. Your {secret} is {secret_value}. The {other} does not know it.
This is round {round} of {rounds} ({rounds_left} left including this one).
{standing}
Offers so far (oldest first):
{history}

Reply with only a JSON object with these fields:
- "action": "offer" or "accept"
- "price": whole number from {price_min} to {price_max}, required for "offer" (null for "accept")
- "message": text for the {other} (may be empty, at most {message_max} characters)
- "reason": why, in your own words (private, the {other} never sees it)"""


@functools.cache
def rules_text(role: str, rounds: int) -> str:
    """The rules as ``role`` is told them."""
    words = ROLE_TEXT[role]
    return RULES.format(
        role=role,
        rounds=rounds,
        cost_min=COST_MIN,
        cost_max=COST_MAX,
        margin_min=MARGIN_MIN,
        margin_max=MARGIN_MAX,
        price_min=PRICE_MIN,
        price_max=PRICE_MAX,
        message_max=MESSAGE_MAX,
        fallback_sign="plus" if role == SELLER else "minus",
        fallback_bound="never below" if role == SELLER else "never above",
        **words,
    )


def history_line(move: PublicMove) -> str:
    """One past turn as the prompt shows it."""
    if move.action == "accept":
        line = f"round {move.round}: {move.seat} accepts {move.price}"
    else:
        line = f"round {move.round}: {move.seat} offers {move.price}"
    if move.message:
        line += f", message: {json.dumps(move.message, ensure_ascii=False)}"
    return line


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def render(observation: BargainObservation, rules: str) -> str:
    """Fill the template from a seat's observation (and nothing else)."""
    role = observation.role
    words = ROLE_TEXT[role]
    standing = observation.standing_offer
    if standing is None:
        standing_text = f"There is no offer from the {words['other']} to accept yet."
    else:
        standing_text = f"The {words['other']}'s standing offer is {standing} (you may accept it)."
    if observation.round == observation.rounds:
        standing_text += " This is the last round: an offer now cannot be accepted any more."
    history = "\n".join(history_line(move) for move in observation.offers) or "(none yet)"
    return TEMPLATE.format(
        rules=rules,
        role=role,
        other=words["other"],
        secret=words["secret"],
        secret_value=observation.secret,
        round=observation.round,
        rounds=observation.rounds,
        rounds_left=_plural(observation.rounds_left, "round"),
        standing=standing_text,
        history=history,
        price_min=PRICE_MIN,
        price_max=PRICE_MAX,
        message_max=MESSAGE_MAX,
    )
