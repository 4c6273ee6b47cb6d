"""How front ends show an OpenSpiel game: the library's own strings, the moves and the export.

A seat sees the library's string for its player, the moves it may know and its legal moves;
the full view (spectators, replay) shows the library's whole state and every entry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.contract.game import GameView
from games.openspiel_catalogue import library

if TYPE_CHECKING:
    from games.openspiel_catalogue.models import OpenSpielMove
    from games.openspiel_catalogue.state import OpenSpielState


class OpenSpielView(GameView["OpenSpielState", "OpenSpielMove"]):
    """Plain text throughout: the library's strings are shown as they are."""

    progress_unit = "moves"

    def render(self, state: OpenSpielState, viewer: str | None) -> Any:
        if viewer is not None:
            seen = state.observation(viewer)
            lines = [f"{viewer} (player {seen.player}), the library's {seen.view_kind.replace('_', ' ')}:"]
            lines += [seen.view.rstrip("\n") or "(empty)", ""]
            title = "moves" if seen.moves_seen == "all" else "your moves"
            lines.append(f"{title}: " + (", ".join(seen.moves) or "none yet"))
            if seen.legal_moves:
                lines.append("legal moves: " + ", ".join(seen.legal_moves))
        else:
            lines = [str(state.spiel).rstrip("\n") or "(empty)", ""]
            entries = ", ".join(f"{state.seat_of(p)} {n}" for p, _, n in state.history)
            lines.append("moves: " + (entries or "none"))
        if state.over():
            returns = state.returns()
            ending = " (stopped at the move cap)" if state.capped else ""
            scores = ", ".join(f"{seat} {returns[seat]:g}" for seat in state.seats)
            lines.append(f"over{ending}: {scores}")
        return "\n".join(lines)

    def describe_action(self, state: OpenSpielState, seat: str, action: OpenSpielMove) -> str:
        return action.move

    def progress(self, state: OpenSpielState) -> tuple[int, int]:
        return (state.steps, state.move_cap)

    def export_extra(self, state: OpenSpielState) -> dict[str, Any]:
        """Everything needed to replay the episode in OpenSpiel itself, by the library's ids and names."""
        return {
            "library": library.LIBRARY,
            "package": library.PACKAGE,
            "version": library.version(),
            "game": str(state.game),
            "view_kind": state.view_kind,
            "chance": "each chance outcome drawn by random.Random(seed).choices(outcome ids,"
            " probabilities) from state.chance_outcomes(), in order",
            "history": [
                {"player": p, "seat": state.seat_of(p), "id": a, "name": n} for p, a, n in state.history
            ],
            "simultaneous_steps": "at a simultaneous node every player's entry follows in player order;"
            " apply them together with apply_actions",
            "returns": list(state.spiel.returns()),
            "terminal": bool(state.spiel.is_terminal()),
            "capped": state.capped,
        }
