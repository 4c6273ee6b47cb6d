"""What a person's money entry comes to as it is typed: their cards, the price, the running total.

Shown by both front ends with the ``cards`` and ``amount`` fields (:meth:`CattleView.entry_note`):
a blank entry shows what the person has to work with (``you hold 0 10 10 50 (= 70); price 60``),
a typed one what it makes (``= 70, price 60, 10 over``, ``= 0 in 2 cards, only 0-cards: a bluff``,
``= 10; you do not hold 500``). Only the seat's own money and public facts are named. The game's
check still decides on submit; these lines only inform.
"""

from __future__ import annotations

import re

from games.cattle.cards import AUTO, DENOMINATIONS, count_cards, missing_from, show, smallest_overpay, total
from games.cattle.table import Table


def entry_note(table: Table, seat: str, field: str, text: str) -> str | None:
    """The line for ``text`` typed into ``field`` of ``seat``'s form now, or None."""
    if seat not in table.pending():
        return None
    if field == "cards":
        return _cards_note(table, seat, text)
    if field == "amount" and table.phase == "bidding":
        return _bid_note(table, seat, text)
    if field in ("target", "species") and table.phase == "turn":
        return _trades_note(table, seat)
    return None


def _trades_note(table: Table, seat: str) -> str:
    """The challenges open to ``seat`` (the target and species lists name every seat and species)."""
    open_now = [
        f"{target} {species} (stake {stake})" for target, species, stake in table.challenges_open(seat)
    ]
    return "trades open: " + ", ".join(open_now) if open_now else "no trade is open to you"


def _cards_note(table: Table, seat: str, text: str) -> str:
    hand = table.money[seat]
    price = table.payment.price if table.phase == "payment" and table.payment is not None else None
    entry = text.strip()
    if not entry:
        held = f"you hold {show(hand)} (= {total(hand)})"
        if price is not None:
            return f"{held}; price {price}" + (", or 'auto'" if total(hand) >= price else "")
        challenge = table.challenge
        if table.phase == "response" and challenge is not None:
            return f"{held}; {challenge.challenger} laid {count_cards(len(challenge.challenger_cards))}"
        return held
    if entry.lower() == AUTO:
        if price is None:
            return "'auto' is only for a payment: name your cards"
        auto = smallest_overpay(hand, price)
        if auto is None:
            return f"you hold {total(hand)}, less than the price of {price}"
        return f"auto pays {show(auto)} {_against_price(total(auto), price)}"
    cards, wrong = _read_cards(entry)
    made = f"= {total(cards)}"
    if wrong:
        return f"{made}; {wrong!r} is not a money card ({' '.join(map(str, DENOMINATIONS))})"
    short = missing_from(hand, cards)
    if short:
        return f"{made}; you do not hold {show(short)} (you hold {show(hand)})"
    if price is not None:
        return _against_price(total(cards), price)
    bluff = ", only 0-cards: a bluff" if cards and not total(cards) else ""
    return f"{made} in {count_cards(len(cards))}{bluff}"


def _against_price(paid: int, price: int) -> str:
    """``= 70, price 60, 10 over (lost: no change)``, ``= 60, price 60, exact``, ``= 50, ... 10 short``."""
    if paid > price:
        return f"= {paid}, price {price}, {paid - price} over (lost: no change)"
    if paid == price:
        return f"= {paid}, price {price}, exact"
    return f"= {paid}, price {price}, {price - paid} short"


def _read_cards(entry: str) -> tuple[list[int], str | None]:
    """The money cards named so far, and the first word that is not one (as typed)."""
    cards: list[int] = []
    for word in (w for w in re.split(r"[\s,;+\[\]]+", entry) if w):
        if not word.isdigit() or int(word) not in DENOMINATIONS:
            return cards, word
        cards.append(int(word))
    return cards, None


def _bid_note(table: Table, seat: str, text: str) -> str:
    assert table.auction is not None
    auction = table.auction
    held = total(table.money[seat])
    if table.auction_mode == "sealed":
        standing = "one sealed bid each"
    elif auction.high_bidder:
        standing = f"standing bid {auction.high_bid} by {auction.high_bidder}"
    else:
        standing = "no bid yet"
    entry = text.strip()
    if entry.isdigit() and int(entry) > held:
        return (
            f"more than the {held} you hold: a winner who cannot pay shows their cards"
            " and the auction is repeated without them"
        )
    return f"{standing}; you hold {held} in {count_cards(len(table.money[seat]))}"
