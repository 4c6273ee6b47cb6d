"""Cattle Trade's rules as one mutable table: whose move it is, what is legal, what happens next.

The table knows nothing of seats' players or prompts. Every field is JSON (lists, dicts,
strings, ints), so :meth:`Table.to_json` is the table itself and a stored episode rebuilds
exactly. The only random draw is the deck's shuffle, from the episode seed.

Phases: ``turn`` (the active player auctions or challenges), ``bidding``, ``sale`` (the
auctioneer sells or buys), ``payment``, ``response`` (the challenged player accepts or
counters), ``reoffer`` (both offer again after a tie), ``notes`` and ``over``.
"""

from __future__ import annotations

import copy
import random
from dataclasses import asdict, dataclass, field
from typing import Any

from games.cattle.cards import (
    AUTO,
    DONKEY_PAYOUTS,
    MONEY_DECK,
    SET_SIZE,
    SPECIES,
    STARTING_HAND,
    missing_from,
    parse_cards,
    set_score,
    show,
    smallest_overpay,
    take,
    total,
)

Record = dict[str, Any]
"""An event, as :class:`games.cattle.observation.Event` reads it."""


@dataclass
class Auction:
    """The auction in progress."""

    species: str
    auctioneer: str
    excluded: list[str] = field(default_factory=list)
    high_bid: int = 0
    high_bidder: str | None = None
    cursor: str | None = None
    """Sequential mode: whose bid it is."""
    passed: list[str] = field(default_factory=list)
    """Sequential mode: who passed since the last bid."""
    round: int = 0
    """Canonical mode: call rounds played."""


@dataclass
class Payment:
    """A price owed: ``payer`` hands ``payee`` cards worth ``price`` or more; ``receiver`` gets the animal."""

    payer: str
    payee: str
    price: int
    species: str
    receiver: str
    buy_right: bool


@dataclass
class Challenge:
    """A trade challenge in progress; offers lie face down until they are compared."""

    challenger: str
    target: str
    species: str
    stake: int
    challenger_cards: list[int]
    target_cards: list[int] | None = None
    ties: int = 0


@dataclass
class Table:
    """The whole game: money, animals, deck, the moment, and every record the metrics need."""

    seats: list[str]
    auction_mode: str
    turn_cap: int
    keep_notes: bool
    deck: list[str]
    bank: list[int]
    money: dict[str, list[int]]
    animals: dict[str, dict[str, int]]
    donkeys: int = 0
    active: int = 0
    turn: int = 1
    phase: str = "turn"
    auction: Auction | None = None
    payment: Payment | None = None
    challenge: Challenge | None = None
    notes_seat: str | None = None
    history: list[Record] = field(default_factory=list)
    private: dict[str, list[Record]] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    end_reason: str | None = None
    ledger: list[Record] = field(default_factory=list)
    """Full records for the metrics (hidden values included): wins, payments, offers."""

    # -- making and storing -------------------------------------------------------------
    @classmethod
    def deal(cls, seed: int, seats: list[str], auction_mode: str, turn_cap: int, keep_notes: bool) -> Table:
        """A new game: the deck shuffled by ``seed``, each player's starting money from the bank."""
        deck = [species for species in SPECIES for _ in range(SET_SIZE)]
        random.Random(f"cattle:{seed}").shuffle(deck)
        bank = sorted(value for value, count in MONEY_DECK.items() for _ in range(count))
        money = {}
        for seat in seats:
            bank = take(bank, list(STARTING_HAND))
            money[seat] = list(STARTING_HAND)
        table = cls(
            seats=list(seats),
            auction_mode=auction_mode,
            turn_cap=turn_cap,
            keep_notes=keep_notes,
            deck=deck,
            bank=bank,
            money=money,
            animals={seat: {} for seat in seats},
            private={seat: [] for seat in seats},
            notes={seat: "" for seat in seats},
        )
        table.start_turn()
        return table

    def to_json(self) -> dict[str, Any]:
        """The table as JSON: fresh containers, the (never changed) event records shared."""
        data: dict[str, Any] = {name: getattr(self, name) for name in self.__dataclass_fields__}
        for name in ("auction", "payment", "challenge"):
            if data[name] is not None:
                data[name] = asdict(data[name])
        return data | self._copied_containers()

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        """The table :meth:`to_json` wrote (with its own containers: the table changes them)."""
        parts = dict(data)
        for name, kind in (("auction", Auction), ("payment", Payment), ("challenge", Challenge)):
            if parts.get(name) is not None:
                parts[name] = kind(**copy.deepcopy(parts[name]))
        table = cls(**parts)
        for name, value in table._copied_containers().items():
            setattr(table, name, value)
        return table

    def _copied_containers(self) -> dict[str, Any]:
        # Event and ledger records are never changed once written, so the lists are copied and
        # the records shared: a full deep copy made every step's to_json cost milliseconds.
        return {
            "seats": list(self.seats),
            "deck": list(self.deck),
            "bank": list(self.bank),
            "money": {seat: list(hand) for seat, hand in self.money.items()},
            "animals": {seat: dict(animals) for seat, animals in self.animals.items()},
            "history": list(self.history),
            "private": {seat: list(events) for seat, events in self.private.items()},
            "notes": dict(self.notes),
            "ledger": list(self.ledger),
        }

    # -- what is asked now --------------------------------------------------------------
    @property
    def active_seat(self) -> str:
        """The player whose turn it is."""
        return self.seats[self.active]

    def pending(self) -> list[str]:
        """Seats that act now (several in a canonical call round, a sealed auction and a re-offer)."""
        if self.phase == "turn":
            return [self.active_seat]
        if self.phase == "bidding":
            return self.bidders_now()
        if self.phase == "sale":
            assert self.auction is not None
            return [self.auction.auctioneer]
        if self.phase == "payment":
            assert self.payment is not None
            return [self.payment.payer]
        if self.phase == "response":
            assert self.challenge is not None
            return [self.challenge.target]
        if self.phase == "reoffer":
            assert self.challenge is not None
            return [self.challenge.challenger, self.challenge.target]
        if self.phase == "notes":
            assert self.notes_seat is not None
            return [self.notes_seat]
        return []

    def left_of(self, seat: str) -> list[str]:
        """Every other seat, clockwise from ``seat``'s left."""
        start = self.seats.index(seat)
        return [self.seats[(start + k) % len(self.seats)] for k in range(1, len(self.seats))]

    def eligible_bidders(self) -> list[str]:
        """Who may bid in this auction, clockwise from the auctioneer's left."""
        assert self.auction is not None
        return [s for s in self.left_of(self.auction.auctioneer) if s not in self.auction.excluded]

    def bidders_now(self) -> list[str]:
        """Who bids in this step of the auction."""
        assert self.auction is not None
        if self.auction_mode == "sequential":
            return [self.auction.cursor] if self.auction.cursor else []
        if self.auction_mode == "sealed":
            return self.eligible_bidders()
        return [s for s in self.eligible_bidders() if s != self.auction.high_bidder]

    def challenges_open(self, seat: str) -> list[tuple[str, str, int]]:
        """(target, species, stake) of every challenge ``seat`` may start (it needs money cards)."""
        if not self.money[seat]:
            return []
        mine = self.animals[seat]
        options = []
        for target in self.left_of(seat):
            theirs = self.animals[target]
            for species in SPECIES:
                if 0 < mine.get(species, 0) < SET_SIZE and theirs.get(species, 0) > 0:
                    stake = 2 if mine[species] >= 2 and theirs[species] >= 2 else 1
                    options.append((target, species, stake))
        return options

    def complete(self) -> bool:
        """True when every species is one player's complete set."""
        return all(
            any(self.animals[s].get(species, 0) == SET_SIZE for s in self.seats) for species in SPECIES
        )

    # -- checks -------------------------------------------------------------------------
    def offer_problem(self, seat: str, text: str | None) -> str | None:
        """Why ``text`` is not a legal face-down offer for ``seat``, or ``None``."""
        if not (text or "").strip():
            # Names the field, so a form asking field by field waits for the cards before objecting.
            return "cards: name at least one money card to lay face down (0-cards allowed)"
        try:
            cards = parse_cards(text or "")
        except ValueError as exc:
            return str(exc)
        short = missing_from(self.money[seat], cards)
        if short:
            return f"you do not hold {show(short)} (you hold {show(self.money[seat])})"
        return None

    def turn_problem(
        self, seat: str, move: str, target: str | None, species: str | None, cards: str | None
    ) -> str | None:
        """Why a turn action is illegal, or ``None``."""
        if move == "auction":
            return None if self.deck else "the deck is empty: only trade challenges remain"
        if target is None or species is None:
            return "a challenge names a target and a species"
        if target not in self.seats or target == seat:
            return f"target must be another player: {', '.join(self.left_of(seat))}"
        if self.animals[target].get(species, 0) >= SET_SIZE:
            return f"{target}'s {species} are a complete set and cannot be challenged"
        if not any(t == target and s == species for t, s, _ in self.challenges_open(seat)):
            mine, theirs = self.animals[seat].get(species, 0), self.animals[target].get(species, 0)
            return f"you and {target} must both own {species} (you {mine}, {target} {theirs})"
        return self.offer_problem(seat, cards)

    def bid_problem(self, seat: str, action: str, amount: int | None) -> str | None:
        """Why a bid is illegal, or ``None``."""
        if action == "pass":
            return None
        assert self.auction is not None
        if amount is None:
            return "a bid needs an amount"
        if amount <= self.auction.high_bid:
            return f"a bid must beat the standing bid of {self.auction.high_bid}"
        return None

    def sale_problem(self, action: str) -> str | None:
        """Why the auctioneer's choice is illegal, or ``None``."""
        assert self.auction is not None
        if action == "buy" and total(self.money[self.auction.auctioneer]) < self.auction.high_bid:
            held = total(self.money[self.auction.auctioneer])
            return f"buying needs {self.auction.high_bid} and you hold {held}"
        return None

    def payment_cards(self, text: str) -> list[int] | str:
        """The cards a payment text names (``auto`` resolved), or why they cannot pay."""
        assert self.payment is not None
        hand, price = self.money[self.payment.payer], self.payment.price
        if text.strip().lower() == AUTO:
            auto = smallest_overpay(hand, price)
            return auto if auto is not None else f"you hold {total(hand)}, less than {price}"
        try:
            cards = parse_cards(text)
        except ValueError as exc:
            return str(exc)
        short = missing_from(hand, cards)
        if short:
            return f"you do not hold {show(short)} (you hold {show(hand)})"
        if total(cards) < price:
            return f"those cards make {total(cards)}, less than the price of {price} (no change is given)"
        return cards

    def response_problem(self, action: str, cards: str | None) -> str | None:
        """Why the challenged player's answer is illegal, or ``None``."""
        assert self.challenge is not None
        if action == "accept":
            return None
        if not self.money[self.challenge.target]:
            return "you hold no money cards: you can only accept"
        return self.offer_problem(self.challenge.target, cards)

    # -- moves --------------------------------------------------------------------------
    def start_turn(self) -> None:
        """Begin the next turn: end the game, skip who cannot move, or ask the active player."""
        if self.complete():
            return self.end("complete")
        if self.turn > self.turn_cap:
            return self.end("turn_cap")
        for _ in self.seats:
            seat = self.active_seat
            if self.deck or self.challenges_open(seat):
                break
            self.active = (self.active + 1) % len(self.seats)
        else:
            return self.end("stuck")
        if self.deck and not self.challenges_open(self.active_seat):
            # With nothing to trade, auctioning is the only move: no one is asked a question
            # with one answer.
            return self.begin_auction(self.active_seat)
        self.phase = "turn"

    def end(self, reason: str) -> None:
        """The game is over."""
        self.phase = "over"
        self.end_reason = reason
        self.auction = self.payment = self.challenge = None

    def event(self, kind: str, **fields: Any) -> Record:
        """A public event, recorded in the history."""
        record = {"turn": self.turn, "kind": kind, **fields}
        self.history.append(record)
        return record

    def tell(self, seat: str, kind: str, **fields: Any) -> None:
        """A private event only ``seat`` learns."""
        self.private[seat].append({"turn": self.turn, "kind": kind, **fields})

    def give(self, giver: str, receiver: str, cards: list[int]) -> None:
        """Money cards change hands."""
        self.money[giver] = take(self.money[giver], cards)
        self.receive(receiver, cards)

    def receive(self, seat: str, cards: list[int]) -> None:
        """Money cards join ``seat``'s hand (from another hand, the bank or the table)."""
        self.money[seat] = sorted(self.money[seat] + cards)

    def move_animals(self, giver: str, receiver: str, species: str, count: int) -> None:
        """Animals change hands."""
        self.animals[giver][species] -= count
        if not self.animals[giver][species]:
            del self.animals[giver][species]
        self.animals[receiver][species] = self.animals[receiver].get(species, 0) + count

    def take_turn(
        self, seat: str, move: str, target: str | None, species: str | None, cards: str | None
    ) -> None:
        """The active player's move (already checked)."""
        if move == "auction":
            return self.begin_auction(seat)
        assert target is not None and species is not None
        offer = parse_cards(cards or "")
        stake = next(s for t, sp, s in self.challenges_open(seat) if t == target and sp == species)
        self.money[seat] = take(self.money[seat], offer)
        self.challenge = Challenge(seat, target, species, stake, offer)
        self.event("challenge", seat=seat, other=target, species=species, stake=stake, count=len(offer))
        self.phase = "response"

    def begin_auction(self, seat: str) -> None:
        """Draw the top card; a donkey pays every player first; then the bidding opens."""
        species = self.deck.pop()
        if species == "donkey":
            self.donkeys += 1
            payout = DONKEY_PAYOUTS[self.donkeys - 1]
            self.event("donkey", amount=payout, count=self.donkeys)
            for player in self.seats:
                if payout in self.bank:  # the bank holds one card per player for each payout
                    self.bank = take(self.bank, [payout])
                    self.receive(player, [payout])
        self.event("auction", seat=seat, species=species)
        self.auction = Auction(species, seat)
        self.open_bidding()

    def open_bidding(self) -> None:
        """Start (or, after an insolvent winner, restart) the bidding."""
        auction = self.auction
        assert auction is not None
        auction.high_bid, auction.high_bidder, auction.passed, auction.round = 0, None, [], 0
        bidders = self.eligible_bidders()
        if not bidders:
            return self.close_bidding()
        auction.cursor = bidders[0] if self.auction_mode == "sequential" else None
        self.phase = "bidding"

    def take_bids(self, bids: dict[str, int | None]) -> None:
        """Apply this step's bids (``None`` = pass), already checked."""
        auction = self.auction
        assert auction is not None
        order = self.eligible_bidders()
        if self.auction_mode == "sequential":
            seat = auction.cursor
            assert seat is not None
            amount = bids[seat]
            if amount is None:
                auction.passed.append(seat)
                self.event("pass", seat=seat)
            else:
                auction.high_bid, auction.high_bidder, auction.passed = amount, seat, []
                self.event("bid", seat=seat, amount=amount)
            others = [s for s in order if s != auction.high_bidder]
            if all(s in auction.passed for s in others):
                return self.close_bidding()
            # Next clockwise who may still bid: not the high bidder, not who passed since the last
            # bid (a new bid reopens the round for everyone who passed).
            start = order.index(seat)
            auction.cursor = next(
                s
                for s in order[start + 1 :] + order[: start + 1]
                if s != auction.high_bidder and s not in auction.passed
            )
            return None
        offered = [(s, bids[s]) for s in order if bids.get(s) is not None]
        if self.auction_mode == "sealed":
            for seat in order:
                amount = bids.get(seat)
                if amount is None:
                    self.event("pass", seat=seat)
                else:
                    self.event("bid", seat=seat, amount=amount)
            if offered:
                best = max(amount for _, amount in offered if amount is not None)
                auction.high_bid = best
                auction.high_bidder = next(s for s, amount in offered if amount == best)
            return self.close_bidding()
        auction.round += 1
        if not offered:
            return self.close_bidding()
        best = max(amount for _, amount in offered if amount is not None)
        for seat, amount in offered:
            self.event("bid", seat=seat, amount=amount, count=auction.round)
        auction.high_bid = best
        auction.high_bidder = next(s for s, amount in offered if amount == best)
        if not self.bidders_now():  # nobody left to outbid the high bidder
            return self.close_bidding()
        return None

    def close_bidding(self) -> None:
        """No bid: the auctioneer takes the card free; else the auctioneer sells or buys."""
        auction = self.auction
        assert auction is not None
        if auction.high_bidder is None:
            self.move_in(auction.auctioneer, auction.species)
            self.event("free", seat=auction.auctioneer, species=auction.species)
            self.note_won(auction.auctioneer, auction.species, 0, buy_right=False, free=True)
            return self.end_turn()
        self.phase = "sale"
        return None

    def animals_before(self, seat: str, species: str) -> dict[str, int]:
        """``seat``'s animals as they were before it received one ``species`` (for valuations)."""
        before = dict(self.animals[seat])
        before[species] -= 1
        return {s: n for s, n in before.items() if n}

    def note_won(self, seat: str, species: str, price: int, *, buy_right: bool, free: bool) -> None:
        """Ledger: ``seat`` got an auctioned ``species`` (it is in its hand already)."""
        self.ledger.append(
            {
                "kind": "won",
                "seat": seat,
                "species": species,
                "price": price,
                "turn": self.turn,
                "buy_right": buy_right,
                "free": free,
                "animals_before": self.animals_before(seat, species),
            }
        )

    def note_paid(self, seat: str, cards: list[int], price: int | None) -> None:
        """Ledger: ``seat`` handed over ``cards`` (for a ``price``, or ``None`` as a trade offer)."""
        self.ledger.append(
            {"kind": "paid", "seat": seat, "amount": total(cards), "price": price, "turn": self.turn}
        )

    def note_trade(self, challenge: Challenge, *, winner: str, free: bool | None) -> None:
        """Ledger: how a trade challenge ended, both offers included (the target's ``None`` on accept).

        ``free`` (the second tie gave the stake away) is left out for an accepted offer: no
        offers were compared.
        """
        record = {
            "kind": "trade",
            "challenger": challenge.challenger,
            "target": challenge.target,
            "species": challenge.species,
            "stake": challenge.stake,
            "challenger_cards": challenge.challenger_cards,
            "target_cards": challenge.target_cards,
            "turn": self.turn,
            "winner": winner,
        }
        self.ledger.append(record if free is None else {**record, "free": free})

    def move_in(self, seat: str, species: str) -> None:
        """An auctioned card goes to ``seat``."""
        self.animals[seat][species] = self.animals[seat].get(species, 0) + 1

    def take_sale(self, action: str) -> None:
        """The auctioneer sells or buys (already checked); an insolvent winner restarts the auction."""
        auction = self.auction
        assert auction is not None and auction.high_bidder is not None
        price, bidder = auction.high_bid, auction.high_bidder
        if action == "buy":
            self.event("bought", seat=auction.auctioneer, other=bidder, species=auction.species, amount=price)
            self.payment = Payment(
                auction.auctioneer, bidder, price, auction.species, auction.auctioneer, True
            )
        elif total(self.money[bidder]) < price:
            shown = list(self.money[bidder])
            self.event("insolvent", seat=bidder, amount=price, cards=shown)
            auction.excluded.append(bidder)
            return self.open_bidding()
        else:
            self.event("sold", seat=bidder, other=auction.auctioneer, species=auction.species, amount=price)
            self.payment = Payment(bidder, auction.auctioneer, price, auction.species, bidder, False)
        self.phase = "payment"
        return None

    def take_payment(self, cards: list[int]) -> None:
        """The payer hands over ``cards`` (already checked); the animal goes to its receiver."""
        payment = self.payment
        assert payment is not None
        self.give(payment.payer, payment.payee, cards)
        self.move_in(payment.receiver, payment.species)
        self.event("paid", seat=payment.payer, other=payment.payee, amount=payment.price, count=len(cards))
        self.tell(payment.payee, "received", other=payment.payer, cards=cards, amount=total(cards))
        self.note_won(
            payment.receiver, payment.species, payment.price, buy_right=payment.buy_right, free=False
        )
        self.note_paid(payment.payer, cards, payment.price)
        self.payment = None
        self.end_turn()

    def take_response(self, action: str, cards: str | None) -> None:
        """The challenged player accepts or counters (already checked)."""
        challenge = self.challenge
        assert challenge is not None
        if action == "accept":
            offer = challenge.challenger_cards
            self.receive(challenge.target, offer)
            self.move_animals(challenge.target, challenge.challenger, challenge.species, challenge.stake)
            self.event(
                "accept",
                seat=challenge.target,
                other=challenge.challenger,
                species=challenge.species,
                stake=challenge.stake,
            )
            self.tell(
                challenge.target, "received", other=challenge.challenger, cards=offer, amount=total(offer)
            )
            self.note_trade(challenge, winner=challenge.challenger, free=None)
            self.note_paid(challenge.challenger, offer, None)
            self.challenge = None
            return self.end_turn()
        counter = parse_cards(cards or "")
        self.money[challenge.target] = take(self.money[challenge.target], counter)
        challenge.target_cards = counter
        self.event("counter", seat=challenge.target, count=len(counter))
        return self.compare()

    def take_reoffers(self, challenger_cards: list[int], target_cards: list[int]) -> None:
        """Both lay fresh offers after the first tie (already checked)."""
        challenge = self.challenge
        assert challenge is not None
        self.money[challenge.challenger] = take(self.money[challenge.challenger], challenger_cards)
        self.money[challenge.target] = take(self.money[challenge.target], target_cards)
        challenge.challenger_cards, challenge.target_cards = challenger_cards, target_cards
        self.event("counter", seat=challenge.challenger, count=len(challenger_cards))
        self.event("counter", seat=challenge.target, count=len(target_cards))
        self.compare()

    def compare(self) -> None:
        """Both offers lie on the table: the higher wins the stake and the offers are exchanged.

        A tie returns both offers: the first time both offer again, the second time the
        challenger takes the stake free.
        """
        challenge = self.challenge
        assert challenge is not None and challenge.target_cards is not None
        mine, theirs = challenge.challenger_cards, challenge.target_cards
        self.tell(challenge.challenger, "offers", other=challenge.target, cards=mine, their_cards=theirs)
        self.tell(challenge.target, "offers", other=challenge.challenger, cards=theirs, their_cards=mine)
        if total(mine) == total(theirs):
            challenge.ties += 1
            self.receive(challenge.challenger, mine)
            self.receive(challenge.target, theirs)
            self.event("tie", seat=challenge.challenger, other=challenge.target, count=challenge.ties)
            if challenge.ties == 1:
                challenge.challenger_cards, challenge.target_cards = [], None
                self.phase = "reoffer"
                return None
            self.move_animals(challenge.target, challenge.challenger, challenge.species, challenge.stake)
            self.event(
                "trade",
                seat=challenge.challenger,
                other=challenge.target,
                species=challenge.species,
                stake=challenge.stake,
                free=True,
            )
            self.note_trade(challenge, winner=challenge.challenger, free=True)
            self.challenge = None
            return self.end_turn()
        winner, loser = (
            (challenge.challenger, challenge.target)
            if total(mine) > total(theirs)
            else (challenge.target, challenge.challenger)
        )
        self.receive(challenge.challenger, theirs)
        self.receive(challenge.target, mine)
        self.move_animals(loser, winner, challenge.species, challenge.stake)
        self.event("trade", seat=winner, other=loser, species=challenge.species, stake=challenge.stake)
        self.note_trade(challenge, winner=winner, free=False)
        self.note_paid(challenge.challenger, mine, None)
        self.note_paid(challenge.target, theirs, None)
        self.challenge = None
        return self.end_turn()

    def take_notes(self, seat: str, notes: str) -> None:
        """The seat's notes replace its old ones; the next turn starts."""
        self.notes[seat] = notes
        self.notes_seat = None
        self.advance()

    def end_turn(self) -> None:
        """The turn is over: the active player may write notes, then the next player's turn."""
        self.auction = None
        if self.keep_notes:
            self.notes_seat = self.active_seat
            self.phase = "notes"
            return None
        return self.advance()

    def advance(self) -> None:
        """Clockwise to the next player."""
        self.active = (self.active + 1) % len(self.seats)
        self.turn += 1
        self.start_turn()

    # -- tallies ------------------------------------------------------------------------
    def scores(self) -> dict[str, int]:
        """Each player's score as it stands."""
        return {seat: set_score(self.animals[seat]) for seat in self.seats}

    def money_in_play(self) -> int:
        """All money: the bank, the hands and offers lying on the table (conserved)."""
        on_table = 0
        if self.challenge is not None:
            on_table = total(self.challenge.challenger_cards) + total(self.challenge.target_cards or [])
        return total(self.bank) + sum(total(hand) for hand in self.money.values()) + on_table

    def money_cards_in_play(self) -> int:
        """How many money cards exist (conserved: 60)."""
        on_table = 0
        if self.challenge is not None:
            on_table = len(self.challenge.challenger_cards) + len(self.challenge.target_cards or [])
        return len(self.bank) + sum(len(hand) for hand in self.money.values()) + on_table

    def animals_in_play(self) -> dict[str, int]:
        """Cards of each species in the deck, the auction and the players' hands (conserved: 4 each)."""
        counts = dict.fromkeys(SPECIES, 0)
        for species in self.deck:
            counts[species] += 1
        if self.auction is not None and self.phase in ("bidding", "sale", "payment"):
            counts[self.auction.species] += 1
        for animals in self.animals.values():
            for species, count in animals.items():
                counts[species] += count
        return counts

    def invariant_problem(self) -> str | None:
        """What breaks the conservation rules now (money, money cards, animals), or ``None``."""
        from games.cattle.cards import MONEY_DECK

        money = sum(value * count for value, count in MONEY_DECK.items())
        if self.money_in_play() != money:
            return f"money in play is {self.money_in_play()}, not {money}"
        cards = sum(MONEY_DECK.values())
        if self.money_cards_in_play() != cards:
            return f"{self.money_cards_in_play()} money cards in play, not {cards}"
        wrong = {species: n for species, n in self.animals_in_play().items() if n != SET_SIZE}
        if wrong:
            return f"animal cards in play: {wrong}"
        if any(n <= 0 or n > SET_SIZE for animals in self.animals.values() for n in animals.values()):
            return f"an impossible animal count: {self.animals}"
        return None
