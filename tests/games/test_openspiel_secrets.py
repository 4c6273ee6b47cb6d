"""The leak check for OpenSpiel poker: what Arena shows a seat depends on that seat's own
information-state string alone (and, once the hand is over, the scores).

Many deals (seeds) play the same betting line. Wherever the library gives a seat the same
information-state string, Arena must give it the same observation, prompt and view, whatever
cards the others hold; the full view (which shows every card) must differ, so the deals do
differ where it matters.
"""

from __future__ import annotations

import io
import json
from collections import defaultdict
from typing import Any

import pytest
from rich.console import Console

from arena.plugins.games import get_game
from games.openspiel_catalogue.state import OpenSpielState

LINES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("kuhn_poker", {"players": 3}, ["Pass", "Bet", "Bet", "Pass"]),
    ("leduc_poker", {}, ["Raise", "Call", "Call", "Raise", "Call"]),
]


def text_of(drawn: Any) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=160, color_system=None).print(drawn)
    return buffer.getvalue()


@pytest.mark.parametrize(("name", "options", "line"), LINES)
def test_a_seat_sees_only_what_its_information_state_holds(
    name: str, options: dict[str, Any], line: list[str]
) -> None:
    definition = get_game(f"openspiel:{name}")
    shown: dict[tuple[int, str, str], set[str]] = defaultdict(set)
    full: dict[tuple[int, str, str], set[str]] = defaultdict(set)
    for seed in range(40):
        state = definition.create(seed, options)
        assert isinstance(state, OpenSpielState)
        for step, move in enumerate([*line, None]):
            for player, seat in enumerate(state.seats):
                # once over, every seat is also told the scores (the episode's result is public)
                scores = json.dumps(state.returns()) if state.over() else ""
                key = (step, seat, state.spiel.information_state_string(player) + scores)
                seen = {
                    "observation": state.observation(seat).model_dump(mode="json"),
                    "view": text_of(definition.view.render(state, seat)),
                    "prompt": definition.prompt_for(state, seat) if seat in state.pending() else None,
                }
                shown[key].add(json.dumps(seen, sort_keys=True))
                full[key].add(text_of(definition.view.render(state, None)))
            if move is None or state.over():
                break
            (seat,) = state.pending()
            state.apply({seat: state.action_model(seat)(move=move)})
    compared = [key for key, texts in full.items() if len(texts) > 1]
    assert len(compared) > 10, "the deals differ in what the seat cannot see"
    for key in compared:
        assert len(shown[key]) == 1, (
            f"{key}: Arena shows the seat something its information state does not hold"
        )
