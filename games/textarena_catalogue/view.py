"""How front ends show a TextArena game: the messages as TextArena wrote them, plain text only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.contract.game import GameView
from games.textarena_catalogue.observation import TextArenaAction

if TYPE_CHECKING:
    from games.textarena_catalogue.state import TextArenaState


class TextArenaView(GameView["TextArenaState", TextArenaAction]):
    """A seat sees its own messages; the spectator sees every seat's, one after another."""

    def render(self, state: TextArenaState, viewer: str | None) -> Any:
        """Plain text (never read as markup): the conversation, then the moves the seat may make."""
        seats = state.seats if viewer is None else (viewer,)
        parts = []
        for seat in seats:
            text = state.conversation(seat).strip("\n")
            heading = f"== {seat} (TextArena player {seat.removeprefix('p')}) =="
            moves = state.legal_moves(seat)
            shown = ", ".join(moves[:30]) + (f", ... ({len(moves)} in all)" if len(moves) > 30 else "")
            parts.append(f"{heading}\n{text}" + (f"\nMoves: {shown}" if moves else ""))
        return "\n\n".join(parts)

    def describe_action(self, state: TextArenaState, seat: str, action: TextArenaAction) -> str:
        """The move as sent."""
        return action.move

    def export_extra(self, state: TextArenaState) -> dict[str, Any]:
        """What ``arena export`` adds: the library and version, the environment's parameters, the moves."""
        definition = state.definition
        return {
            "library": definition.library,
            "library_version": definition.library_version,
            "env_id": definition.listing.env_id,
            "env_kwargs": definition.constructor_arguments(state.options),
            "players": len(state.seats),
            "seed": state.seed,
            "actions": list(state.actions),
            "rewards": {str(k): v for k, v in (state.episode.rewards or {}).items()},
        }
