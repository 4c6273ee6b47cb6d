"""Scripted Cattle Trade players. They read only their seat's observation (their own money, the
public table and history, what they learned privately), never another seat's money.

- ``random``: a legal move uniformly among the kinds open (the game's own random legal move);
- ``set-racer``: races for sets: bids up to a share of a card's value to the sets it can still
  complete, challenges where it holds more of a species than the target;
- ``tracker``: counts cards: keeps an estimate of every player's money from the public flows and
  its revealed offers, values animals by their marginal effect on the multiplied score
  (:mod:`games.cattle.valuation`) and bluffs with 0-cards when the target's money looks short;
- ``cautious``: keeps a cash reserve, bids low, never bluffs.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel

from arena.contract.baseline import Baseline
from arena.contract.player import DecisionRequest
from games.cattle.actions import (
    BidAction,
    NotesAction,
    OfferAction,
    PayAction,
    ResponseAction,
    SaleAction,
    TurnAction,
)
from games.cattle.cards import (
    AUTO,
    BID_STEP,
    SET_SIZE,
    SET_VALUE,
    STARTING_HAND,
    show,
    smallest_overpay,
    total,
)
from games.cattle.observation import CattleObservation
from games.cattle.valuation import marginal_value


def _observation(request: DecisionRequest) -> CattleObservation:
    observation: Any = request.observation
    if isinstance(observation, CattleObservation):
        return observation
    return CattleObservation.model_validate(
        observation.model_dump() if isinstance(observation, BaseModel) else observation
    )


def challenges(observation: CattleObservation) -> list[tuple[str, str, int]]:
    """(target, species, stake) of every challenge open to the seat (as the table computes them)."""
    if not observation.your_money:
        return []
    animals = {p.seat: p.animals for p in observation.players}
    mine = animals[observation.seat]
    options = []
    seats = observation.seats
    start = seats.index(observation.seat)
    for k in range(1, len(seats)):
        target = seats[(start + k) % len(seats)]
        for species, count in animals[target].items():
            held = mine.get(species, 0)
            if 0 < held < SET_SIZE and count > 0:
                options.append((target, species, 2 if held >= 2 and count >= 2 else 1))
    return options


def bluff_or_cards(hand: list[int], want: int, *, bluff: bool) -> list[int]:
    """An offer of about ``want``: the smallest overpay, padded with 0-cards; only 0-cards to bluff."""
    zeros = [card for card in hand if card == 0]
    if bluff and zeros:
        return zeros[: max(1, min(3, len(zeros)))]
    cards = smallest_overpay(hand, want)
    if cards is None:  # short of ``want``: everything it holds
        return sorted(hand)
    # A 0-card makes the offer look bigger than it is.
    return sorted(cards + zeros[:1]) if cards else zeros[:1]


class CattleBaseline(Baseline[CattleObservation, BaseModel]):
    """A Cattle Trade baseline: one method per moment, each reading the seat's observation."""

    reserve: ClassVar[float] = 0.0
    """Share of its money a baseline never bids away."""

    def act(self, request: DecisionRequest) -> BaseModel:
        observation = _observation(request)
        phase = observation.moment.phase
        if phase == "turn":
            return self.turn(observation)
        if phase == "bidding":
            limit = self.bid_limit(observation)
            standing = observation.moment.high_bid or 0
            floor = BID_STEP if observation.auction_mode == "sealed" else standing + BID_STEP
            cap = int(observation.your_money_total * (1 - self.reserve))
            limit = min(limit, cap)
            if limit < floor:
                return BidAction(action="pass", reason=f"worth at most {limit} to me")
            amount = floor if observation.auction_mode != "sealed" else max(floor, limit - limit % BID_STEP)
            amount -= amount % BID_STEP
            return BidAction(action="bid", amount=max(floor, amount), reason=f"worth up to {limit} to me")
        if phase == "sale":
            return self.sale(observation)
        if phase == "payment":
            return PayAction(cards=AUTO, reason="smallest overpay")
        if phase == "response":
            return self.respond(observation)
        if phase == "reoffer":
            return OfferAction(cards=show(self.reoffer(observation)), reason="offer again")
        return NotesAction(notes="", reason="no notes")

    # -- the moments -------------------------------------------------------------------
    def card_value(self, observation: CattleObservation, seat: str, species: str, count: int = 1) -> float:
        """What ``count`` more ``species`` are worth to ``seat``, in money."""
        animals = next(p.animals for p in observation.players if p.seat == seat)
        return marginal_value(animals, species, count)

    def bid_limit(self, observation: CattleObservation) -> int:
        """The most this baseline pays for the card on auction."""
        species = observation.moment.species
        assert species is not None
        return int(self.card_value(observation, observation.seat, species))

    def turn(self, observation: CattleObservation) -> TurnAction:
        """Challenge where it pays, else auction."""
        options = challenges(observation)
        if options and (observation.deck_left == 0 or self.prefers_trade(observation, options)):
            target, species, stake = self.pick_challenge(observation, options)
            offer = self.challenge_offer(observation, target, species, stake)
            return TurnAction(
                move="challenge",
                target=target,
                species=species,
                cards=show(offer),
                reason=f"trade for {stake} {species}",
            )
        return TurnAction(move="auction", reason="auction the next card")

    def prefers_trade(self, observation: CattleObservation, options: list[tuple[str, str, int]]) -> bool:
        """Whether to challenge while the deck still has cards."""
        return False

    def pick_challenge(
        self, observation: CattleObservation, options: list[tuple[str, str, int]]
    ) -> tuple[str, str, int]:
        """The challenge worth most to this seat."""
        return max(options, key=lambda o: (self.card_value(observation, observation.seat, o[1], o[2]), o[2]))

    def challenge_offer(
        self, observation: CattleObservation, target: str, species: str, stake: int
    ) -> list[int]:
        """The face-down offer for a challenge."""
        value = self.card_value(observation, observation.seat, species, stake)
        want = min(observation.your_money_total, int(value * 0.6))
        return bluff_or_cards(observation.your_money, max(10, want), bluff=False)

    def sale(self, observation: CattleObservation) -> SaleAction:
        """Buy when the card is worth more to this seat than the price, else sell."""
        moment = observation.moment
        assert moment.species is not None and moment.high_bid is not None
        worth = self.card_value(observation, observation.seat, moment.species)
        if worth > moment.high_bid and observation.your_money_total >= moment.high_bid:
            return SaleAction(action="buy", reason=f"worth {worth:.0f} to me, more than {moment.high_bid}")
        return SaleAction(action="sell", reason=f"sell for {moment.high_bid}")

    def respond(self, observation: CattleObservation) -> ResponseAction:
        """Counter with about what the stake is worth to this seat (and to the challenger), else accept."""
        moment = observation.moment
        assert moment.species is not None and moment.stake is not None and moment.challenger is not None
        if not observation.your_money:
            return ResponseAction(action="accept", reason="no money cards to counter with")
        keep = self.card_value(observation, observation.seat, moment.species, 0)
        lose = _loss_value(observation, observation.seat, moment.species, moment.stake)
        want = int(max(keep, lose) * 0.6)
        if want < 10 or observation.your_money_total < 10:
            return ResponseAction(action="accept", reason="the stake is worth little to me")
        cards = bluff_or_cards(observation.your_money, min(want, observation.your_money_total), bluff=False)
        return ResponseAction(action="counter", cards=show(cards), reason=f"counter with {total(cards)}")

    def reoffer(self, observation: CattleObservation) -> list[int]:
        """A new offer after a tie: a little more than before, if the hand allows."""
        last = next((e for e in reversed(observation.private) if e.kind == "offers"), None)
        before = total(last.cards or []) if last else 0
        return bluff_or_cards(
            observation.your_money, min(observation.your_money_total, before + 10), bluff=False
        )


def _loss_value(observation: CattleObservation, seat: str, species: str, stake: int) -> float:
    """What losing ``stake`` ``species`` costs ``seat`` in expected score."""
    animals = dict(next(p.animals for p in observation.players if p.seat == seat))
    after = dict(animals)
    after[species] = max(0, after.get(species, 0) - stake)
    return marginal_value(after, species, stake)


class RandomPlayer(CattleBaseline):
    """A legal move at random: auction or one of the open challenges, random bids up to its money,
    random offers of one to three cards, sells or buys at random."""

    name: ClassVar[str] = "random"

    def act(self, request: DecisionRequest) -> BaseModel:
        observation = _observation(request)
        rng = self.rng
        phase = observation.moment.phase
        hand = observation.your_money
        if phase == "turn":
            options = challenges(observation)
            if options and (observation.deck_left == 0 or rng.random() < 0.35):
                target, species, _ = rng.choice(options)
                return TurnAction(
                    move="challenge",
                    target=target,
                    species=species,
                    cards=show(rng.sample(hand, k=rng.randint(1, min(3, len(hand))))),
                    reason="random",
                )
            return TurnAction(move="auction", reason="random")
        if phase == "bidding":
            standing = 0 if observation.auction_mode == "sealed" else observation.moment.high_bid or 0
            reach = observation.your_money_total
            if reach <= standing or rng.random() < 0.5:
                return BidAction(action="pass", reason="random")
            steps = max(1, min(8, (reach - standing) // BID_STEP))
            return BidAction(
                action="bid", amount=standing + BID_STEP * rng.randint(1, steps), reason="random"
            )
        if phase == "sale":
            price = observation.moment.high_bid or 0
            buy = observation.your_money_total >= price and rng.random() < 0.3
            return SaleAction(action="buy" if buy else "sell", reason="random")
        if phase in ("response", "reoffer") and hand:
            cards = show(rng.sample(hand, k=rng.randint(1, min(3, len(hand)))))
            if phase == "reoffer":
                return OfferAction(cards=cards, reason="random")
            if rng.random() < 0.6:
                return ResponseAction(action="counter", cards=cards, reason="random")
        return super().act(request)


class SetRacer(CattleBaseline):
    """Races for sets: bids up to half a card's set value towards the species it can still complete,
    challenges whenever it holds more of a species than the target."""

    name: ClassVar[str] = "set-racer"

    def bid_limit(self, observation: CattleObservation) -> int:
        species = observation.moment.species
        assert species is not None
        others = max(
            (p.animals.get(species, 0) for p in observation.players if p.seat != observation.seat), default=0
        )
        mine = next(p.animals for p in observation.players if p.seat == observation.seat).get(species, 0)
        if others >= 3 and mine == 0:
            return 0
        return int(SET_VALUE[species] / SET_SIZE * (1.0 + 0.5 * mine))

    def prefers_trade(self, observation: CattleObservation, options: list[tuple[str, str, int]]) -> bool:
        mine = next(p.animals for p in observation.players if p.seat == observation.seat)
        animals = {p.seat: p.animals for p in observation.players}
        return any(mine.get(s, 0) > animals[t].get(s, 0) for t, s, _ in options)

    def pick_challenge(
        self, observation: CattleObservation, options: list[tuple[str, str, int]]
    ) -> tuple[str, str, int]:
        mine = next(p.animals for p in observation.players if p.seat == observation.seat)
        return max(options, key=lambda o: (mine.get(o[1], 0), SET_VALUE[o[1]], o[2]))


class Tracker(CattleBaseline):
    """Counts cards: estimates every player's money from the public flows and its own revealed
    offers, values animals by their marginal effect on the multiplied score, and bluffs with
    0-cards when the target's estimated money is short."""

    name: ClassVar[str] = "tracker"
    money_per_point: ClassVar[float] = 0.5
    """Money it pays per point of expected score (tried 0.3 to 2.5 against the other baselines)."""

    def card_value(self, observation: CattleObservation, seat: str, species: str, count: int = 1) -> float:
        return super().card_value(observation, seat, species, count) * self.money_per_point

    def bid_limit(self, observation: CattleObservation) -> int:
        species = observation.moment.species
        assert species is not None
        mine = self.card_value(observation, observation.seat, species)
        # A card a rival needs is worth denying: bid up to part of what it is worth to them.
        rival = max(
            (
                self.card_value(observation, p.seat, species)
                for p in observation.players
                if p.seat != observation.seat
            ),
            default=0.0,
        )
        return int(max(mine, 0.5 * rival))

    def prefers_trade(self, observation: CattleObservation, options: list[tuple[str, str, int]]) -> bool:
        money = estimated_money(observation)
        return any(
            money.get(t, 0) < self.card_value(observation, observation.seat, s, k) * 0.5
            for t, s, k in options
        )

    def pick_challenge(
        self, observation: CattleObservation, options: list[tuple[str, str, int]]
    ) -> tuple[str, str, int]:
        money = estimated_money(observation)
        return max(
            options,
            key=lambda o: (
                self.card_value(observation, observation.seat, o[1], o[2]) - money.get(o[0], 0),
                o[2],
            ),
        )

    def challenge_offer(
        self, observation: CattleObservation, target: str, species: str, stake: int
    ) -> list[int]:
        money = estimated_money(observation)
        theirs = money.get(target, 0)
        if theirs < 40:
            return bluff_or_cards(observation.your_money, 10, bluff=True)
        value = self.card_value(observation, observation.seat, species, stake)
        want = min(observation.your_money_total, max(10, int(min(value, theirs + 10))))
        return bluff_or_cards(observation.your_money, want, bluff=False)


class Cautious(CattleBaseline):
    """Keeps half its money in reserve, bids at most a quarter of a card's set value, never bluffs,
    and challenges only once the deck is empty."""

    name: ClassVar[str] = "cautious"
    reserve: ClassVar[float] = 0.5

    def bid_limit(self, observation: CattleObservation) -> int:
        species = observation.moment.species
        assert species is not None
        return int(
            min(SET_VALUE[species] / SET_SIZE, self.card_value(observation, observation.seat, species))
        )


def estimated_money(observation: CattleObservation) -> dict[str, int]:
    """Each player's money as the public flows tell it (payments counted at their price).

    Exact for donkey payouts and prices; a payer's overpay and trades between other players
    (only card counts are public) are estimated: each side is taken to hand over what it
    offered at 30 per card. The seat's own private events make its own trades exact.
    """
    money = {seat: total(list(STARTING_HAND)) for seat in observation.seats}
    money[observation.seat] = observation.your_money_total
    for event in observation.history:
        if event.kind == "donkey" and event.amount is not None:
            for seat in money:
                if seat != observation.seat:
                    money[seat] += event.amount
        elif event.kind == "paid" and event.seat and event.other and event.amount is not None:
            for seat, sign in ((event.seat, -1), (event.other, 1)):
                if seat != observation.seat:
                    money[seat] += sign * event.amount
    return {seat: max(0, value) for seat, value in money.items()}


BASELINES: tuple[type[CattleBaseline], ...] = (RandomPlayer, SetRacer, Tracker, Cautious)
