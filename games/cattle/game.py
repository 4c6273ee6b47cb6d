"""Cattle Trade's state: the contract's hooks over :class:`games.cattle.table.Table`.

The table holds the rules; this class says which action model applies, checks actions,
makes each seat's observation (its own money and nothing of anyone else's), the fallbacks,
the random legal moves and the results with the behaviour metrics (:mod:`games.cattle.metrics`).
"""

from __future__ import annotations

import random
from typing import Any, Self

from pydantic import BaseModel

from arena.contract.game import GameDefinition, GameState, SeatResult
from games.cattle.actions import (
    BidAction,
    NotesAction,
    OfferAction,
    PayAction,
    ResponseAction,
    SaleAction,
    TurnAction,
)
from games.cattle.cards import AUTO, BID_STEP, SET_SIZE, parse_cards, set_score, show, smallest_overpay, total
from games.cattle.metrics import seat_metrics
from games.cattle.observation import CattleObservation
from games.cattle.options import CattleOptions
from games.cattle.seat_view import EventCache, moment, observe
from games.cattle.table import Table

ACTION_MODELS: dict[str, type[BaseModel]] = {
    "turn": TurnAction,
    "bidding": BidAction,
    "sale": SaleAction,
    "payment": PayAction,
    "response": ResponseAction,
    "reoffer": OfferAction,
    "notes": NotesAction,
    "over": TurnAction,
}


class CattleState(GameState[CattleOptions, CattleObservation, BaseModel]):
    """Seeded Cattle Trade for 3 to 5 players; the action model depends on the moment."""

    def __init__(self, definition: GameDefinition, seed: int, options: CattleOptions) -> None:
        super().__init__(definition, seed, options)
        self.table = Table.deal(seed, list(self.seats), options.auction, options.turn_cap, options.notes)
        self.events = EventCache()
        self.step_start = 0
        """Where the last step's public events begin in the history."""
        self.step_seats: list[str] = []
        """Who acted in the last step."""

    # -- contract -------------------------------------------------------------------
    def pending(self) -> list[str]:
        return self.table.pending()

    def over(self) -> bool:
        return self.table.phase == "over"

    def action_model(self, seat: str) -> type[BaseModel]:
        return ACTION_MODELS[self.table.phase]

    def observation(self, seat: str) -> CattleObservation:
        return observe(self.table, seat, self.events)

    def validate(self, seat: str, action: BaseModel) -> str | None:
        table = self.table
        if seat not in table.pending():
            return f"it is not {seat}'s move"
        expected = ACTION_MODELS[table.phase]
        if not isinstance(action, expected):
            return f"expected a {expected.__name__} now"
        if isinstance(action, TurnAction):
            return table.turn_problem(seat, action.move, action.target, action.species, action.cards)
        if isinstance(action, BidAction):
            return table.bid_problem(seat, action.action, action.amount)
        if isinstance(action, SaleAction):
            return table.sale_problem(action.action)
        if isinstance(action, PayAction):
            cards = table.payment_cards(action.cards)
            return cards if isinstance(cards, str) else None
        if isinstance(action, ResponseAction):
            return table.response_problem(action.action, action.cards)
        if isinstance(action, OfferAction):
            return table.offer_problem(seat, action.cards)
        return None

    def fallback(self, seat: str) -> BaseModel:
        """Documented fallbacks: auction (or the smallest challenge offer once the deck is empty),
        pass, sell, pay ``auto``, accept, offer the smallest card, keep the old notes."""
        table = self.table
        reason = "fallback"
        phase = table.phase
        if phase == "turn":
            if table.deck:
                return TurnAction(move="auction", reason=f"{reason}: auction")
            target, species, _ = table.challenges_open(seat)[0]
            card = str(min(table.money[seat]))
            return TurnAction(
                move="challenge",
                target=target,
                species=species,
                cards=card,
                reason=f"{reason}: smallest offer",
            )
        if phase == "bidding":
            return BidAction(action="pass", reason=f"{reason}: pass")
        if phase == "sale":
            return SaleAction(action="sell", reason=f"{reason}: sell")
        if phase == "payment":
            return PayAction(cards=AUTO, reason=f"{reason}: the smallest overpay")
        if phase == "response":
            return ResponseAction(action="accept", reason=f"{reason}: accept")
        if phase == "reoffer":
            return OfferAction(cards=str(min(table.money[seat])), reason=f"{reason}: smallest offer")
        return NotesAction(notes=table.notes.get(seat, ""), reason=f"{reason}: notes kept")

    def sample_action(self, seat: str, rng: random.Random) -> BaseModel:
        table = self.table
        phase = table.phase
        hand = table.money[seat]
        if phase == "turn":
            options = table.challenges_open(seat)
            if options and (not table.deck or rng.random() < 0.35):
                target, species, _ = rng.choice(options)
                return TurnAction(
                    move="challenge",
                    target=target,
                    species=species,
                    cards=show(_some_cards(hand, rng)),
                    reason="random legal action",
                )
            return TurnAction(move="auction", reason="random legal action")
        if phase == "bidding":
            assert table.auction is not None
            standing = table.auction.high_bid
            # Mostly within the hand (a rare bid beyond it exercises the insolvent winner).
            reach = total(hand) + (200 if rng.random() < 0.05 else 0)
            if reach <= standing or rng.random() < 0.45:
                return BidAction(action="pass", reason="random legal action")
            steps = max(1, min(8, (reach - standing) // BID_STEP))
            amount = standing + BID_STEP * rng.randint(1, steps)
            return BidAction(action="bid", amount=amount, reason="random legal action")
        if phase == "sale":
            affordable = table.sale_problem("buy") is None
            action = "buy" if affordable and rng.random() < 0.3 else "sell"
            return SaleAction(action=action, reason="random legal action")
        if phase == "payment":
            assert table.payment is not None
            cards = smallest_overpay(hand, table.payment.price)
            assert cards is not None
            if rng.random() < 0.5:
                return PayAction(cards=AUTO, reason="random legal action")
            rest = list(hand)
            for card in cards:
                rest.remove(card)
            extra = rng.sample(rest, k=rng.randint(0, min(2, len(rest))))
            return PayAction(cards=show(cards + extra), reason="random legal action")
        if phase == "response":
            if not hand or rng.random() < 0.4:
                return ResponseAction(action="accept", reason="random legal action")
            return ResponseAction(
                action="counter", cards=show(_some_cards(hand, rng)), reason="random legal action"
            )
        if phase == "reoffer":
            return OfferAction(cards=show(_some_cards(hand, rng)), reason="random legal action")
        return NotesAction(notes="", reason="random legal action")

    def apply(self, actions: dict[str, BaseModel]) -> None:
        table = self.table
        pending = table.pending()
        if set(actions) != set(pending):
            raise ValueError(f"expected actions for {sorted(pending)}, got {sorted(actions)}")
        for seat, action in actions.items():
            problem = self.validate(seat, action)
            if problem:
                raise ValueError(f"{seat}: {problem}")
        phase = table.phase
        self.step_start = len(table.history)
        self.step_seats = list(pending)
        if phase == "turn":
            ((seat, turn),) = actions.items()
            assert isinstance(turn, TurnAction)
            table.take_turn(seat, turn.move, turn.target, turn.species, turn.cards)
        elif phase == "bidding":
            bids = {}
            for seat, bid in actions.items():
                assert isinstance(bid, BidAction)
                bids[seat] = bid.amount if bid.action == "bid" else None
            table.take_bids(bids)
        elif phase == "sale":
            (sale,) = actions.values()
            assert isinstance(sale, SaleAction)
            table.take_sale(sale.action)
        elif phase == "payment":
            (pay,) = actions.values()
            assert isinstance(pay, PayAction)
            cards = table.payment_cards(pay.cards)
            assert not isinstance(cards, str)
            table.take_payment(cards)
        elif phase == "response":
            (answer,) = actions.values()
            assert isinstance(answer, ResponseAction)
            table.take_response(answer.action, answer.cards)
        elif phase == "reoffer":
            assert table.challenge is not None
            offers = {
                seat: parse_cards(offer.cards)
                for seat, offer in actions.items()
                if isinstance(offer, OfferAction)
            }
            table.take_reoffers(offers[table.challenge.challenger], offers[table.challenge.target])
        elif phase == "notes":
            ((seat, notes),) = actions.items()
            assert isinstance(notes, NotesAction)
            table.take_notes(seat, notes.notes)

    def result(self) -> dict[str, SeatResult]:
        scores = self.table.scores()
        return {
            seat: SeatResult(score=float(scores[seat]), metrics=seat_metrics(self.table, seat))
            for seat in self.seats
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "options": self.options.model_dump(mode="json"),
            "table": self.table.to_json(),
            "step_start": self.step_start,
            "step_seats": list(self.step_seats),
        }

    @classmethod
    def from_json(cls, definition: GameDefinition, data: dict[str, Any]) -> Self:
        state = cls.__new__(cls)
        GameState.__init__(state, definition, data["seed"], CattleOptions.model_validate(data["options"]))
        state.table = Table.from_json(data["table"])
        state.events = EventCache()
        state.step_start = data["step_start"]
        state.step_seats = list(data["step_seats"])
        return state

    def turn_state(self, seat: str) -> dict[str, Any]:
        """The table after the step, hidden money included, with only this step's public events.

        Not the observation: it holds the whole history, which stored once per turn grew an
        episode's rows with the square of its length (about 18 MB for a 300-step game).
        """
        table = self.table
        return {
            "turn": table.turn,
            "phase": table.phase,
            "deck_left": len(table.deck),
            "donkeys": table.donkeys,
            "money": {s: list(hand) for s, hand in table.money.items()},
            "animals": {s: dict(animals) for s, animals in table.animals.items()},
            "scores": table.scores(),
            "moment": moment(table).model_dump(mode="json", exclude_defaults=True),
            "events": table.history[self.step_start :],
            "private": [e for e in table.private[seat] if e["turn"] == table.turn],
            "end_reason": table.end_reason,
        }

    def with_sentinel(self, seat: str, sentinel: int) -> Self | None:
        """A copy where ``seat``'s money cards all read ``sentinel``."""
        twin = self.clone()
        twin.table.money[seat] = [sentinel] * max(1, len(self.table.money[seat]))
        twin.events = self.events  # the same events so far: made once (money is not in them)
        return twin

    # -- helpers --------------------------------------------------------------------
    def score(self, seat: str) -> int:
        """``seat``'s score as it stands."""
        return set_score(self.table.animals[seat])

    def complete_sets(self, seat: str) -> list[str]:
        """The species ``seat`` holds all four of."""
        return [s for s, n in self.table.animals[seat].items() if n >= SET_SIZE]


def _some_cards(hand: list[int], rng: random.Random) -> list[int]:
    """One to three cards of ``hand`` at random (a legal face-down offer)."""
    return rng.sample(hand, k=rng.randint(1, min(3, len(hand))))
