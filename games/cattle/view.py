"""How front ends show Cattle Trade: the board, each move in words, the progress, the score chart,
the warning before an overpay, the running total of a money entry as it is typed. Light to import:
Rich loads only when a board is drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel

from arena.contract.game import GameView
from games.cattle.actions import (
    BidAction,
    NotesAction,
    OfferAction,
    PayAction,
    ResponseAction,
    SaleAction,
    TurnAction,
)
from games.cattle.cards import SET_SIZE, SPECIES, count_cards, parse_cards, total

if TYPE_CHECKING:
    from games.cattle.game import CattleState


class CattleView(GameView["CattleState", BaseModel]):
    """Cattle Trade's board, move texts, progress, score chart and overpay warning."""

    progress_unit = "cards"

    score_series_title: ClassVar[str] = "score (complete sets)"
    score_series_x: ClassVar[str] = "turn"
    score_series_first: ClassVar[int] = 1

    def render(self, state: CattleState, viewer: str | None) -> Any:
        from games.cattle.render import render_table

        return render_table(state.table, viewer)

    def describe_action(self, state: CattleState, seat: str, action: BaseModel) -> str:
        if isinstance(action, TurnAction):
            if action.move == "auction":
                return "auction"
            return f"challenge {action.target} for {action.species} with {_laid(action.cards)}"
        if isinstance(action, BidAction):
            return f"bid {action.amount}" if action.action == "bid" else "pass"
        if isinstance(action, SaleAction):
            return action.action
        if isinstance(action, PayAction):
            # Card values are private: the text is stored with the turn and shown in histories.
            return "pay (auto)" if action.cards.strip().lower() == "auto" else f"pay {_laid(action.cards)}"
        if isinstance(action, ResponseAction):
            return "accept" if action.action == "accept" else f"counter with {_laid(action.cards)}"
        if isinstance(action, OfferAction):
            return f"offer {_laid(action.cards)}"
        if isinstance(action, NotesAction):
            return f"notes ({len(action.notes)} characters)"
        return super().describe_action(state, seat, action)

    def step_outcome(self, state: CattleState, seat: str) -> str | None:
        """What the last step came to in public (sales, payments, trades, the next auction), once."""
        from games.cattle.observation import Event
        from games.cattle.prompt import event_text

        if not state.step_seats or seat != state.step_seats[-1]:
            return None
        # Bids and passes are the actions themselves; the rest is what they came to.
        events = [
            e for e in state.table.history[state.step_start :] if e["kind"] not in ("bid", "pass", "counter")
        ]
        return "; ".join(event_text(Event(**record)).split(" ", 1)[1] for record in events) or None

    def progress(self, state: CattleState) -> tuple[int, int]:
        """Animal cards out of the deck (40 in all); the trading phase after it has no known length."""
        return (len(SPECIES) * SET_SIZE - len(state.table.deck), len(SPECIES) * SET_SIZE)

    def score_series(self, state: CattleState) -> dict[str, list[float]]:
        """Each player's score as it stands, one point per turn (rebuilt from the ownership events)."""
        from games.cattle.history import score_by_turn

        return score_by_turn(state.table)

    def caution(self, state: CattleState, seat: str, action: BaseModel) -> str | None:
        """Paying more than the price loses the overpay (no change is given): say how much."""
        payment = state.table.payment
        if not isinstance(action, PayAction) or payment is None or action.cards.strip().lower() == "auto":
            return None
        try:
            paid = total(parse_cards(action.cards))
        except ValueError:
            return None
        over = paid - payment.price
        return f"you pay {paid} for a price of {payment.price}: the {over} over is lost" if over > 0 else None

    def form_choices(self, state: CattleState, seat: str, field: str) -> tuple[str, ...] | None:
        """A turn's move, target and species: only what ``seat`` can do now (not p1-p5, all ten)."""
        table = state.table
        if table.phase != "turn" or field not in ("move", "target", "species"):
            return None
        open_now = table.challenges_open(seat)
        if field == "move":
            moves = {"auction": bool(table.deck), "challenge": bool(open_now)}
            return tuple(move for move, possible in moves.items() if possible)
        if field == "target":
            return tuple(dict.fromkeys(target for target, _, _ in open_now))
        return tuple(dict.fromkeys(species for _, species, _ in open_now))

    def entry_note(self, state: CattleState, seat: str, field: str, text: str) -> str | None:
        """Money entries: the seat's own cards and the price, then the running total as typed."""
        from games.cattle.entry_notes import entry_note

        return entry_note(state.table, seat, field, text)


def _laid(cards: str | None) -> str:
    """How many cards a face-down offer holds (their values stay hidden in the stored text)."""
    try:
        return count_cards(len(parse_cards(cards or "")))
    except ValueError:
        return "no cards"
