"""Cattle Trade's rules text (what models and people read) and its one prompt template.

The rules are Kuhhandel (You're Bluffing!, 2nd edition) as the Cattle Trade benchmark plays
it, with each choice the rulebook leaves open written out. The state part is filled only
from the seat's observation. No strategy hints.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from games.cattle.cards import SET_SIZE, SET_VALUE, count_cards, show

if TYPE_CHECKING:  # listing the games (``arena games``) builds no observation model
    from games.cattle.observation import CattleObservation, Event

AUCTION_TEXT = {
    "canonical": (
        "Bidding goes in call rounds: in each round every other player (not the auctioneer, not the"
        " standing high bidder) bids at once or passes. A bid must beat the standing bid, in steps of"
        " 10. The highest new bid of a round becomes the standing bid (equal highest bids: the first"
        " of them clockwise from the auctioneer's left). A round with no new bid closes the auction."
    ),
    "sealed": (
        "Every other player makes one sealed bid (a multiple of 10) or passes, all at once. The"
        " highest bid wins (equal highest: the first clockwise from the auctioneer's left). All"
        " sealed bids are shown to everyone once the auction closes."
    ),
    "sequential": (
        "Bidding goes seat by seat, clockwise from the auctioneer's left: each player bids more"
        " than the standing bid (in steps of 10) or passes. A pass is not final: a new bid"
        " reopens the round for everyone. The auction closes when every player but the high"
        " bidder has passed since the last bid."
    ),
}

RULES = """\
You are {seat}, one of {players} players ({seats}) in Cattle Trade (Kuhhandel, "You're
Bluffing!"). Goal: the highest score at the end.

Cards. 40 animal cards, 4 of each of 10 species; a complete set (all 4) is worth:
{set_values}.
Money cards are worth 0, 10, 50, 100, 200 or 500 (in all: 10x0, 20x10, 10x50, 5x100, 5x200,
5x500). Everyone starts with 0 0 10 10 10 10 50 (= 90); the rest is the bank. Your money is
hidden from the others; everyone sees how many money cards each player holds and every animal
each player owns.

Score. (sum of the values of your complete sets) x (number of your complete sets); money and
incomplete sets count for nothing. For example pig, dog and rooster sets score
(650 + 160 + 10) x 3 = 2,460. Equal scores share a rank.

Turns go clockwise from p1. On your turn you either auction the top card of the shuffled deck
or start a trade challenge. If you cannot challenge anyone, you auction without being asked.

Donkey. When a donkey is drawn, every player first receives 50, 100, 200 or 500 from the bank
(for the 1st, 2nd, 3rd, 4th donkey); then it is auctioned.

Auction ({auction} mode). The auctioneer never bids. {auction_text} Bids are not limited by
the money you hold. If nobody bids, the auctioneer takes the card free. Otherwise the
auctioneer either sells (the high bidder pays the auctioneer the bid and takes the card) or
uses the buy right (the auctioneer pays the high bidder the bid and keeps the card; this needs
that much money).

Paying. The payer chooses the cards and hands them over face down. No change is given:
paying more than the price is legal and the overpay is lost to the payer. "auto" pays the
smallest overpay your cards allow (then the fewest cards). Everyone sees how many cards were
paid, not their values. A high bidder who cannot pay shows all their money cards to everyone,
and the auction is held again without them.

Trade challenge. Name a player and a species you both own; a complete set cannot be
challenged. The stake is 1 card of it, or 2 if you both hold 2. You lay money cards face
down: at least one card, 0-cards allowed (that is the bluff); everyone sees how many. The
challenged player either accepts (takes your cards and hands over the stake) or counters with
face-down cards of their own (at least one). Then the two offers are exchanged: the higher
total wins the stake, and each keeps the cards they received. If the totals tie, both take
their cards back and offer again; on a second tie the challenger takes the stake free and both
keep their own cards. Only the two players see each other's offers.

End. When the deck is empty only trade challenges remain; players who cannot challenge
anyone (only complete sets, or no money cards) are skipped. The game ends when every species
is one player's complete set, when nobody can challenge any more, or after {turn_cap} turns
(scored as it stands).{notes_rule}

A reply that cannot be read or breaks these rules is asked for again once, then replaced by
a fallback: auction (or, once the deck is empty, the first open challenge with your smallest
card), pass, sell, pay auto, accept, offer your smallest card, keep your notes."""

NOTES_RULE = """

Notes. After each of your turns you rewrite short notes (at most 1,200 characters) that are
shown to you as "your notes" on later turns; no one else reads them."""

METRICS = """\
Metrics per player: score and rank; win (rank 1, shared or not); complete sets; capital
efficiency = score / money paid out (auction prices and trade offers handed over, by value);
bid aggressiveness = price paid for an auctioned card / (its set value / 4), averaged over the
cards won in the early and the late half of the game's turns; overbid rate = share of those
cards bought above the tracker baseline's valuation (the card's marginal effect on the
expected multiplied score); buy-right rate = share of one's own auctions with a bid that the
auctioneer bought; bluff rate = share of one's trade offers made only of 0-cards, bluff success
= share of those that won the stake; challenge tightness = losing offer / winning offer in
trades where both offered; money held at the end; invalid replies and fallbacks."""

TEMPLATE = """\
{rules}

Current state (turn {turn} of at most {turn_cap}; {deck_left} cards left in the deck; {donkeys} donkeys drawn)
Your money cards: {money} (total {money_total}).
Players:
{players}
Animals nobody owns yet (in the deck, or on auction now): {unowned}.
{notes}History (oldest first{history_cut}):
{history}
What you learned privately (oldest first{private_cut}):
{private}

{your_move}
Legal moves:
{legal}

Reply with only a JSON object with these fields:
{fields}
- "reason": why, in your own words (private: no other player sees it)"""

FIELDS = {
    "turn": (
        '- "move": "auction" or "challenge"\n'
        '- "target", "species": for a challenge, the player and the species you both own\n'
        '- "cards": for a challenge, your face-down offer as card values separated by spaces ("0 10 50")'
    ),
    "bidding": '- "action": "bid" or "pass"\n- "amount": for a bid, a multiple of 10',
    "sale": '- "action": "sell" or "buy"',
    "payment": '- "cards": the money cards you pay, separated by spaces ("50 10"), or "auto"',
    "response": (
        '- "action": "accept" or "counter"\n'
        '- "cards": for a counter, your face-down offer as card values separated by spaces'
    ),
    "reoffer": '- "cards": your new face-down offer as card values separated by spaces',
    "notes": '- "notes": your new notes, at most 1,200 characters (they replace the old ones)',
    "over": "",
}

HISTORY_SHOWN = 80
"""The prompt shows at most this many of the latest public events (the observation keeps them all)."""
PRIVATE_SHOWN = 30
"""The prompt shows this many of the latest private events."""


def shown_history(history: list[Event]) -> list[Event]:
    """The latest events, at most :data:`HISTORY_SHOWN`, starting at the start of a turn.

    A cut inside a turn would show bids without the auction they belong to, so the turn the
    cut falls in is left out too, unless it is the only turn shown (a very long auction).
    """
    events = history[-HISTORY_SHOWN:]
    cut = len(history) - len(events)
    if cut and history[cut - 1].turn == events[0].turn:
        whole = [event for event in events if event.turn != events[0].turn]
        events = whole or events
    return events


@functools.cache
def rules_text(seat: str, seats: tuple[str, ...], auction: str, turn_cap: int, notes: bool) -> str:
    """The rules as ``seat`` is told them."""
    return RULES.format(
        seat=seat,
        players=len(seats),
        seats=", ".join(seats),
        set_values=", ".join(f"{species} {value}" for species, value in SET_VALUE.items()),
        auction=auction,
        auction_text=AUCTION_TEXT[auction],
        turn_cap=turn_cap,
        notes_rule=NOTES_RULE if notes else "",
    )


def event_text(event: Event) -> str:
    """One event in words: players go by their seat names; a private event speaks to its seat (``you``)."""
    k = event.kind
    seat, other = event.seat, event.other
    text = {
        "donkey": f"donkey no. {event.count} drawn: every player receives {event.amount}",
        "auction": f"{seat} auctions a {event.species}",
        "bid": f"{seat} bids {event.amount}",
        "pass": f"{seat} passes",
        "free": f"no bid: {seat} takes the {event.species} free",
        "insolvent": f"{seat} cannot pay {event.amount} and shows {show(event.cards or [])}",
        "sold": f"{seat} wins the {event.species} from {other} for {event.amount}",
        "bought": f"{seat} uses the buy right on the {event.species}: pays {other} {event.amount}",
        "paid": f"{seat} pays {other} {count_cards(event.count)} (price {event.amount})",
        "challenge": (
            f"{seat} challenges {other} for {event.stake} {event.species} with {count_cards(event.count)}"
        ),
        "accept": f"{seat} accepts: hands {event.stake} {event.species} to {other}",
        "counter": f"{seat} lays {count_cards(event.count)} face down",
        "tie": f"the offers of {seat} and {other} tie" + (" again" if event.count == 2 else ""),
        "trade": f"{seat} wins {event.stake} {event.species} from {other}" + (" free" if event.free else ""),
        "received": f"you received {show(event.cards or [])} (= {event.amount}) from {other}",
        "offers": f"your offer {show(event.cards or [])} against {other}'s {show(event.their_cards or [])}",
    }.get(k, k)
    return f"t{event.turn} {text}"


def render(observation: CattleObservation, rules: str) -> str:
    """Fill the template from a seat's observation (and nothing else)."""
    seat = observation.seat
    players = "\n".join(
        f"- {p.seat}{' (you)' if p.seat == seat else ''}: {p.money_cards} money cards; animals "
        + (", ".join(f"{species} {n}" for species, n in p.animals.items()) or "none")
        + (f"; complete: {', '.join(p.complete_sets)} (score {p.score})" if p.complete_sets else "")
        for p in observation.players
    )
    events = shown_history(observation.history)
    cut = len(observation.history) - len(events)
    private = observation.private[-PRIVATE_SHOWN:]
    private_cut = len(observation.private) - len(private)
    owned = {species: sum(p.animals.get(species, 0) for p in observation.players) for species in SET_VALUE}
    unowned = ", ".join(f"{species} {SET_SIZE - n}" for species, n in owned.items() if n < SET_SIZE)
    notes = "" if observation.notes is None else f"Your notes: {observation.notes or '(none yet)'}\n"
    return TEMPLATE.format(
        rules=rules,
        turn=observation.turn,
        turn_cap=observation.turn_cap,
        deck_left=observation.deck_left,
        donkeys=observation.donkeys_drawn,
        money=show(observation.your_money),
        money_total=observation.your_money_total,
        players=players,
        unowned=unowned or "none",
        notes=notes,
        history_cut=f"; {cut} earlier events not shown" if cut else "",
        history="\n".join(event_text(e) for e in events) or "(nothing yet)",
        private_cut=f"; {private_cut} earlier not shown" if private_cut else "",
        private="\n".join(event_text(e) for e in private) or "(nothing yet)",
        your_move=observation.your_move or "You are not asked to move now.",
        legal="\n".join(f"- {move}" for move in observation.legal) or "- none",
        fields=FIELDS[observation.moment.phase],
    )
