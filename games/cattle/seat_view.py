"""One seat's observation of the table, built field by field from what that seat may know.

Its own money cards, every player's animals and money card count, the public history, its own
private events, and the moment with the moves open to it. No other seat's money is read here
except through events the seat took part in (the cards it received, the offers it saw).
"""

from __future__ import annotations

from games.cattle.cards import SET_SIZE, set_score, total
from games.cattle.observation import CattleObservation, Event, Moment, PlayerView
from games.cattle.table import Table


class EventCache:
    """One table's events as :class:`Event` models, each made once (its event lists only grow)."""

    def __init__(self) -> None:
        self.made: dict[str, list[Event]] = {}

    def events(self, key: str, records: list[dict[str, object]]) -> list[Event]:
        """The records of list ``key`` (``history``, or a seat's private list) as events."""
        made = self.made.setdefault(key, [])
        made.extend(Event.model_validate(record) for record in records[len(made) :])
        return list(made)


def observe(table: Table, seat: str, cache: EventCache | None = None) -> CattleObservation:
    """What ``seat`` may know of ``table`` now (``cache`` keeps the events already made)."""
    cache = cache or EventCache()
    players = [
        PlayerView(
            seat=player,
            animals=dict(sorted(table.animals[player].items())),
            money_cards=len(table.money[player]),
            complete_sets=sorted(s for s, n in table.animals[player].items() if n >= SET_SIZE),
            score=set_score(table.animals[player]),
        )
        for player in table.seats
    ]
    asked = seat in table.pending()
    return CattleObservation(
        seat=seat,
        seats=list(table.seats),
        auction_mode=table.auction_mode,
        turn=table.turn,
        turn_cap=table.turn_cap,
        deck_left=len(table.deck),
        donkeys_drawn=table.donkeys,
        your_money=list(table.money[seat]),
        your_money_total=total(table.money[seat]),
        players=players,
        moment=moment(table),
        your_move=your_move(table, seat) if asked else None,
        legal=legal_moves(table, seat) if asked else [],
        history=cache.events("history", table.history),
        private=cache.events(seat, table.private[seat]),
        notes=table.notes[seat] if table.keep_notes else None,
        end_reason=table.end_reason,
    )


def moment(table: Table) -> Moment:
    """The public facts of what is being decided now."""
    fields: dict[str, object] = {
        "phase": table.phase,
        "active": table.active_seat if table.phase != "over" else None,
    }
    if table.auction is not None:
        auction = table.auction
        fields.update(
            species=auction.species,
            auctioneer=auction.auctioneer,
            high_bid=auction.high_bid or None,
            high_bidder=auction.high_bidder,
            excluded=list(auction.excluded),
        )
        # A sealed auction's bids stay hidden until it closes: the standing bid is not shown.
        if table.auction_mode == "sealed" and table.phase == "bidding":
            fields.update(high_bid=None, high_bidder=None)
    if table.payment is not None:
        payment = table.payment
        fields.update(price=payment.price, payer=payment.payer, payee=payment.payee, species=payment.species)
    if table.challenge is not None:
        challenge = table.challenge
        fields.update(
            challenger=challenge.challenger,
            target=challenge.target,
            species=challenge.species,
            stake=challenge.stake,
            challenger_cards=len(challenge.challenger_cards) or None,
            ties=challenge.ties,
        )
    return Moment.model_validate(fields)


def your_move(table: Table, seat: str) -> str:
    """What ``seat`` is asked, in one sentence."""
    phase = table.phase
    if phase == "turn":
        if not table.deck:
            return "Your turn. The deck is empty: challenge a player to a trade."
        return "Your turn: auction the top card of the deck, or challenge a player to a trade."
    if phase == "bidding":
        assert table.auction is not None
        auction = table.auction
        if table.auction_mode == "sealed":
            return f"{auction.auctioneer} auctions a {auction.species}: make your one sealed bid, or pass."
        if not auction.high_bidder:
            return f"{auction.auctioneer} auctions a {auction.species} (no bid yet): bid, or pass."
        standing = f"the standing bid is {auction.high_bid} by {auction.high_bidder}"
        return f"{auction.auctioneer} auctions a {auction.species} ({standing}): bid more, or pass."
    if phase == "sale":
        assert table.auction is not None
        auction = table.auction
        bid, held = auction.high_bid, total(table.money[seat])
        closed = f"Bidding on your {auction.species} closed at {bid} by {auction.high_bidder}:"
        if held < bid:  # the buy right needs the money
            return f"{closed} sell it to them for {bid} (you hold {held}, too little to buy it yourself)."
        return f"{closed} sell it to them for {bid}, or buy it yourself by paying them {bid}."
    if phase == "payment":
        assert table.payment is not None
        payment = table.payment
        return f"Pay {payment.payee} at least {payment.price} for the {payment.species} (no change is given)."
    if phase == "response":
        assert table.challenge is not None
        challenge = table.challenge
        return (
            f"{challenge.challenger} challenges you for {challenge.stake} {challenge.species} with"
            f" {len(challenge.challenger_cards)} face-down money cards: accept, or counter with your own."
        )
    if phase == "reoffer":
        assert table.challenge is not None
        challenge = table.challenge
        other = challenge.target if seat == challenge.challenger else challenge.challenger
        return (
            f"Your offers tied: make a new face-down offer against {other}"
            " (a second tie gives the stake free to the challenger)."
        )
    return "Rewrite your notes for your later turns."


def legal_moves(table: Table, seat: str) -> list[str]:
    """The moves open to ``seat`` now, in words (the prompt's legal-move summary)."""
    phase = table.phase
    hand = table.money[seat]
    if phase == "turn":
        moves = [f"auction (deck: {len(table.deck)} cards left)"] if table.deck else []
        moves += [
            f"challenge {target} for {stake} {species} (you hold {table.animals[seat][species]}, they hold"
            f" {table.animals[target][species]})"
            for target, species, stake in table.challenges_open(seat)
        ]
        return moves
    if phase == "bidding":
        assert table.auction is not None
        floor = table.auction.high_bid + 10 if table.auction_mode != "sealed" else 10
        return [f"bid a multiple of 10, at least {floor} (you hold {total(hand)})", "pass"]
    if phase == "sale":
        assert table.auction is not None
        moves = [f"sell (receive {table.auction.high_bid})"]
        if total(hand) >= table.auction.high_bid:
            moves.append(f"buy (pay {table.auction.high_bid}; you hold {total(hand)})")
        return moves
    if phase == "payment":
        return [f"pay cards from your hand ({' '.join(map(str, hand))}) worth at least the price", "auto"]
    if phase == "response":
        return ["accept"] + (
            [f"counter with cards from your hand ({' '.join(map(str, hand))})"] if hand else []
        )
    if phase == "reoffer":
        return [f"offer cards from your hand ({' '.join(map(str, hand))})"]
    if phase == "notes":
        return ["notes (any text)"]
    return []
