"""A person's plan for Cattle Trade, read off what their seat sees: win an auction, pay, challenge.

The console and the app tests type what :meth:`CattlePerson.entries` says into the real front
ends; the plan decides only from the seat's observation, as a person at the screen would.
It bids until it has won (and paid for) one auction, pays with named cards (first a card it
does not hold, then an overpay it confirms), challenges once a trade is open (a bluff with a
0-card when it holds one), counters a challenge with its smallest card, and sells.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.cattle.cards import SET_SIZE, missing_from, show, smallest_overpay
from games.cattle.observation import CattleObservation

NOT_HELD = 500
"""A card the first payment names although the hand does not hold it (checked when that is so)."""


@dataclass
class CattlePerson:
    """What to type at each form; remembers what it has done so far."""

    paid: bool = False
    challenged: bool = False
    countered: bool = False
    wrong_payment_tried: bool = False
    done: list[str] = field(default_factory=list)
    """What it did, in order (``bid 40``, ``pay 10 50``, ``challenge p2 cat``, ...)."""

    def finished(self, observation: CattleObservation) -> bool:
        """True once it has paid for an auction and its challenge was answered (its turn came round)."""
        return self.paid and self.challenged and observation.moment.phase in ("turn", "bidding")

    def entries(self, observation: CattleObservation) -> dict[str, str]:
        """The entries for this form, by field name (fields not named are left as they are)."""
        moment, hand = observation.moment, observation.your_money
        phase = moment.phase
        if phase == "turn":
            trade = self.trade(observation)
            if trade is None or self.challenged:
                self.done.append("auction")
                return {"move": "auction"}
            target, species = trade
            cards = "0" if 0 in hand else str(min(hand))
            self.challenged = True
            self.done.append(f"challenge {target} {species} with {cards}")
            return {"move": "challenge", "target": target, "species": species, "cards": cards}
        if phase == "bidding":
            bid = (moment.high_bid or 0) + 10
            if self.paid or bid > observation.your_money_total:
                self.done.append("pass")
                return {"action": "pass"}
            self.done.append(f"bid {bid}")
            return {"action": "bid", "amount": str(bid)}
        if phase == "sale":
            self.done.append("sell")
            return {"action": "sell"}
        if phase == "payment":
            assert moment.price is not None
            if not self.wrong_payment_tried and missing_from(hand, [NOT_HELD]):
                self.wrong_payment_tried = True
                return {"cards": str(NOT_HELD)}
            paying = show(self.overpay(hand, moment.price))
            self.paid = True
            self.done.append(f"pay {paying}")
            return {"cards": paying}
        if phase == "response":
            if not hand:
                return {"action": "accept"}
            self.countered = True
            self.done.append(f"counter with {min(hand)}")
            return {"action": "counter", "cards": str(min(hand))}
        if phase == "reoffer":
            return {"cards": str(min(hand))}
        return {"notes": ""}

    @staticmethod
    def trade(observation: CattleObservation) -> tuple[str, str] | None:
        """A (target, species) this seat may challenge now, if any."""
        mine = next(p for p in observation.players if p.seat == observation.seat).animals
        if not observation.your_money:
            return None
        for player in observation.players:
            for species, count in player.animals.items():
                # both own some (then neither can hold all four: no complete set is challenged)
                if player.seat != observation.seat and count and 0 < mine.get(species, 0) < SET_SIZE:
                    return player.seat, species
        return None

    @staticmethod
    def overpay(hand: list[int], price: int) -> list[int]:
        """The smallest overpay and, where the hand has one left, one more card worth something."""
        cards = smallest_overpay(hand, price)
        assert cards is not None, "the plan bids only what it holds"
        rest = list(hand)
        for card in cards:
            rest.remove(card)
        extra = [card for card in rest if card > 0][:1]
        return sorted(cards + extra)
