"""A move TextArena refuses is an illegal answer: asked again with TextArena's reason, then the fallback.

TextArena's own way (the same player moves again, a second refusal loses the game) is what
happens to a move forwarded without the check: the state counts it (``refused_moves``).
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from arena.engine.match import MatchConfig, play_match
from arena.plugins.games import get_game
from arena.store.database import Store
from games.textarena_catalogue.observation import TextArenaAction
from tests.support.optional import needs
from tests.support.scripted import ScriptedPlayer, decision

pytestmark = needs("textarena")


def test_a_refused_move_is_illegal_with_textarena_s_reason() -> None:
    state = get_game("textarena:TicTacToe-v0").create(0)
    state.apply({"p0": TextArenaAction(move="[4]")})
    reason = state.validate("p1", TextArenaAction(move="[4]"))
    assert reason is not None and "cell 4 is already occupied" in reason
    assert (
        state.validate("p1", TextArenaAction(move="I take the corner [0]")) is None
    )  # TextArena's own parsing
    before = state.to_json()
    state.validate("p1", TextArenaAction(move="[9]"))
    assert state.to_json() == before  # checked on a copy


def test_the_runner_asks_again_with_the_reason_then_falls_back(tmp_path: Path) -> None:
    definition = get_game("textarena:TicTacToe-v0")
    wrong = decision({"move": "[42]"})
    first_wrong = ScriptedPlayer([wrong, decision({"move": "[0]"}), wrong, wrong])
    config = MatchConfig(game=definition.name, seats={"p0": "test:scripted", "p1": "baseline:random"}, seed=3)
    store = Store(tmp_path / "arena.db")
    try:
        players = {"p0": first_wrong, "p1": definition.baselines["random"].factory(random.Random(1))}
        outcome = asyncio.run(play_match(config, store, players=players))
        turns = [turn for turn in store.turns(outcome.episode_id or 0, definition) if turn["seat"] == "p0"]
    finally:
        store.close()
    second = first_wrong.requests[1]
    assert second.attempt == 2 and second.feedback is not None
    assert (
        "TextArena refused the move '[42]'" in second.feedback
        and "Must be between 0 and 8" in second.feedback
    )
    assert turns[0]["action"]["move"] == "[0]" and not turns[0]["fallback"]
    assert turns[1]["fallback"]  # wrong twice: the first legal move
    assert outcome.results["p0"].metrics["refused_moves"] == 0  # nothing refused reached TextArena


def test_a_forwarded_refused_move_is_textarena_s_business() -> None:
    state = get_game("textarena:TicTacToe-v0").create(0)
    state.apply({"p0": TextArenaAction(move="nonsense")})  # not checked first: TextArena re-asks p0
    assert state.pending() == ["p0"]
    state.apply({"p0": TextArenaAction(move="still nonsense")})  # its second refusal ends the game
    assert state.over()
    result = state.result()
    assert result["p0"].score == -1.0 and result["p1"].score == 1.0
    assert result["p0"].metrics == {"refused_moves": 2, "lost_on_invalid_move": True, "turns": 1}
