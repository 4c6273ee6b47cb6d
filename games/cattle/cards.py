"""Cattle Trade's cards: the animals, the money, a hand of money and how a payment is read.

Money cards of one value are alike, so a hand is a sorted list of values and a payment names
values (``"10 10 50"``), or ``auto``: the smallest overpay the hand allows (the paper's payment
helper), with the fewest cards among equal totals. No change is ever given.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter

SPECIES: tuple[str, ...] = (
    "rooster",
    "goose",
    "cat",
    "dog",
    "sheep",
    "goat",
    "donkey",
    "pig",
    "cow",
    "horse",
)
"""The ten species, cheapest first."""
SET_VALUE: dict[str, int] = {
    "rooster": 10,
    "goose": 40,
    "cat": 90,
    "dog": 160,
    "sheep": 250,
    "goat": 350,
    "donkey": 500,
    "pig": 650,
    "cow": 800,
    "horse": 1000,
}
"""The value of a complete set of each species."""
SET_SIZE = 4
"""Cards of a species in the deck, and in a complete set."""
DENOMINATIONS: tuple[int, ...] = (0, 10, 50, 100, 200, 500)
MONEY_DECK: dict[int, int] = {0: 10, 10: 20, 50: 10, 100: 5, 200: 5, 500: 5}
"""Every money card in the game: value -> count (4,700 in all)."""
STARTING_HAND: tuple[int, ...] = (0, 0, 10, 10, 10, 10, 50)
"""Each player's money at the start (= 90)."""
DONKEY_PAYOUTS: tuple[int, ...] = (50, 100, 200, 500)
"""What every player receives from the bank when the 1st, 2nd, 3rd, 4th donkey is drawn."""
BID_STEP = 10
"""Bids are multiples of this."""
MAX_BID = sum(value * count for value, count in MONEY_DECK.items())
"""No bid can be above all the money in the game."""
AUTO = "auto"
"""A payment's word for the smallest overpay the hand allows."""


def total(cards: list[int]) -> int:
    """The value of some money cards."""
    return sum(cards)


def parse_cards(text: str) -> list[int]:
    """The money cards a text names (``"10 10 50"``, ``"10,50"``, ``"[0, 10]"``); ValueError explains."""
    entries = [entry for entry in re.split(r"[\s,;+\[\]]+", text.strip()) if entry]
    if not entries:
        raise ValueError("name at least one money card (for example '10 50') or 'auto'")
    cards = []
    for entry in entries:
        if not entry.isdigit() or int(entry) not in DENOMINATIONS:
            raise ValueError(
                f"{entry!r} is not a money card (cards are {', '.join(map(str, DENOMINATIONS))})"
            )
        cards.append(int(entry))
    return sorted(cards)


def missing_from(hand: list[int], cards: list[int]) -> list[int]:
    """The named cards the hand does not hold (empty when the hand holds them all)."""
    short = Counter(cards) - Counter(hand)
    return sorted(short.elements())


def take(hand: list[int], cards: list[int]) -> list[int]:
    """``hand`` without ``cards`` (which it must hold)."""
    left = Counter(hand) - Counter(cards)
    return sorted(left.elements())


def smallest_overpay(hand: list[int], price: int) -> list[int] | None:
    """The cards paying at least ``price`` with the least overpay, then the fewest cards.

    ``None`` when the hand is worth less than ``price``. 0-cards never help a payment, so
    ``auto`` leaves them in the hand. A search over card counts per value, largest value first,
    that stops growing a combination once it reaches the price (more cards only overpay more).
    """
    if sum(hand) < price:
        return None
    if price <= 0:
        return []
    counts = Counter(card for card in hand if card > 0)
    values = sorted(counts, reverse=True)
    short: dict[int, tuple[int, ...]] = {0: ()}
    """Totals still below the price -> the fewest-card counts reaching them."""
    best: tuple[int, int, tuple[int, ...]] | None = None
    for index, value in enumerate(values):
        grown: dict[int, tuple[int, ...]] = {}
        for paid, picks in short.items():
            for n in range(counts[value] + 1):
                reached, chosen = paid + n * value, (*picks, n)
                if reached >= price:
                    full = chosen + (0,) * (len(values) - index - 1)
                    key = (reached - price, sum(full), full)
                    if best is None or key[:2] < best[:2]:
                        best = key
                    break
                if reached not in grown or sum(chosen) < sum(grown[reached]):
                    grown[reached] = chosen
        short = grown
    assert best is not None
    return sorted(itertools.chain.from_iterable([v] * n for v, n in zip(values, best[2], strict=True)))


def show(cards: list[int]) -> str:
    """Cards as people write them (``0 10 10 50``, or ``none``)."""
    return " ".join(map(str, sorted(cards))) or "none"


def count_cards(count: int | None) -> str:
    """``1 card``, ``3 cards``."""
    return "1 card" if count == 1 else f"{count} cards"


def set_score(animals: dict[str, int]) -> int:
    """(Sum of the values of the complete sets) x (number of complete sets)."""
    complete = [species for species, count in animals.items() if count >= SET_SIZE]
    return sum(SET_VALUE[species] for species in complete) * len(complete)
