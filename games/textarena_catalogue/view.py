"""How front ends show a TextArena game: the messages as TextArena wrote them, plain text only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from arena.contract.game import GameView
from games.textarena_catalogue.messages import conversation
from games.textarena_catalogue.seats import player_id

if TYPE_CHECKING:
    from games.textarena_catalogue.observation import TextArenaAction
    from games.textarena_catalogue.state import TextArenaState


class TextArenaView(GameView["TextArenaState", "TextArenaAction"]):
    """A seat sees its own latest messages; the spectator sees every seat's, one after another."""

    recent: ClassVar[int] = 8
    """Messages shown per seat (the latest; the rules text and older ones are left out)."""

    def render(self, state: TextArenaState, viewer: str | None) -> Any:
        """Plain text (never read as markup): the seat's latest messages, then the moves it may make."""
        seats = state.seats if viewer is None else (viewer,)
        parts = []
        for seat in seats:
            told = [m for m in state.history(seat) if m.kind != "PROMPT"]
            shown = told[-self.recent :]
            who = (
                "its own copy of the puzzle"
                if state.definition.listing.race
                else f"TextArena player {player_id(seat)}"
            )
            lines = [f"== {seat} ({who}) =="]
            if len(told) > len(shown):
                lines.append(f"({len(told) - len(shown)} earlier messages)")
            lines.append(conversation(shown).strip("\n"))
            moves = state.legal_moves(seat)
            if moves:
                listed = ", ".join(moves[:30]) + (f", ... ({len(moves)} in all)" if len(moves) > 30 else "")
                lines.append(f"Moves: {listed}")
            elif seat in state.pending():  # a free-move game: the environment judges what is typed
                lines.append("Moves: not listed; type one in the game's own format (it judges it)")
            parts.append("\n".join(lines))
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
            "actions": state.to_json().get("actions", state.to_json().get("steps")),
            "rewards": state.library_rewards(),
        }
