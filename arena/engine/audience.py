"""What the people in front of one screen may see of a running episode (every front end).

The rule, the same for the console and the app:

- Nobody plays a seat here: the spectator view, every turn in full as it happens (moves,
  stated reasons, usage).
- One person plays a seat here: their own seat's turns in full; every other seat's turn
  only as its public move (:func:`public_move`), never its reason, prompt, raw reply,
  usage or state. The board is the game's rendering for the person's seat.
- Several people share the screen (hot seat): nobody's reason is shown, every turn only
  as its public move, and the board is drawn for a seat just before its form opens.
- Once the episode has ended, however it ended, everything may be shown.

A move is public when the game's actions carry a free-text ``message`` field: cheap talk
addressed to the other seats, which by that field's contract also makes the move itself
visible to them (bargain's offers are in every seat's observation). In other games the
other seats' moves are not shown during play at all; what a seat may know of them is in
its own board, drawn from its observation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.contract.game import GameState

MESSAGE_FIELD = "message"
"""An action field with this name is a message to the other seats (so the move is public)."""


def has_message_field(game: GameState) -> bool:
    """True if any seat's action model has a ``message`` field."""
    try:
        return any(MESSAGE_FIELD in game.action_model(seat).model_fields for seat in game.seats)
    except Exception:  # no action model before the first turn: no public moves
        return False


def move_without_message(game: GameState, seat: str, action: dict[str, Any], fallback: str) -> str:
    """The game's own description of ``action`` with its message left out (``fallback`` if it fails)."""
    try:
        model = game.action_model(seat).model_validate({**action, MESSAGE_FIELD: ""})
        return game.definition.view.describe_action(game, seat, model)
    except Exception:  # a game whose description needs more than the action: keep the stored text
        return fallback


def public_move(game: GameState, action_text: str) -> str | None:
    """What the other seats may see of a move described as ``action_text`` (``None``: nothing)."""
    return action_text if has_message_field(game) else None


@dataclass(frozen=True, slots=True)
class Audience:
    """The seats played by people at this screen; an empty tuple is a spectator."""

    human_seats: tuple[str, ...] = ()

    def secret(self, *, over: bool) -> bool:
        """True while someone here plays: hidden information must stay hidden."""
        return bool(self.human_seats) and not over

    def sees_private(self, seat: str, *, over: bool) -> bool:
        """True if ``seat``'s reasons, raw replies, usage and state may be shown now."""
        if not self.secret(over=over):
            return True
        return len(self.human_seats) == 1 and seat == self.human_seats[0]

    def hot_seat(self) -> bool:
        """True if several people share this screen, each with a seat."""
        return len(self.human_seats) > 1
