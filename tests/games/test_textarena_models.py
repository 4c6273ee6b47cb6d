"""A TextArena game with model seats: the real openai/anthropic SDKs against the wire server.

The responder reads each prompt as a model would (TicTacToe lists its free cells as
``Available Moves: '[0]', ...``) and answers with one of them; the first reply is a move
TextArena refuses, which the runner asks again with TextArena's own reason.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from arena.engine.match import MatchConfig, prepare_runner, run_to_end
from arena.plugins.games import get_game
from arena.store.database import Store
from players.models import ModelsConfig
from tests.support.episodes import stored_turns
from tests.support.modelkit import CANARY_KEY, KEY_ENV, settings_for
from tests.support.optional import needs
from tests.support.wire_server import Behaviour, WireServer, prompt_of, reply

pytestmark = needs("textarena")

GAME = "textarena:TicTacToe-v0"


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> Iterator[WireServer]:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    with WireServer() as server:
        yield server


class FreeCellResponder:
    """Answers with the last free cell the prompt lists (what TextArena told the player last)."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def __call__(self, body: Any) -> Behaviour:
        text = prompt_of(body)
        self.prompts.append(text)
        free = re.findall(r"Available Moves: (.*)", text)[-1]
        cells = re.findall(r"'(\[\d+\])'", free)
        return reply({"move": cells[-1], "reason": "the last free cell"})


async def test_two_model_seats_play_tic_tac_toe_and_a_refused_move_is_asked_again(
    wire: WireServer, store: Store
) -> None:
    responder = FreeCellResponder()
    wire.responder = responder
    wire.script(reply({"move": "[9]", "reason": "off the board"}))  # the first request only
    models = ModelsConfig(
        models={"chat": settings_for("openai-chat", wire), "claude": settings_for("anthropic", wire)}
    )
    runner = prepare_runner(
        MatchConfig(GAME, {"p0": "chat", "p1": "claude"}, seed=5), store, [], models_config=models
    )
    outcome = await run_to_end(runner)

    assert outcome.status == "finished"
    turns = stored_turns(store, outcome.episode_id or 0)
    first = turns[0]
    assert first["error"] == "illegal" and not first["fallback"]
    assert "TextArena refused the move '[9]'" in first["attempts"][0]["detail"]
    assert "Must be between 0 and 8" in first["attempts"][0]["detail"]
    assert all(not t["error"] for t in turns[1:])
    assert (outcome.results["p0"].metrics["invalid_replies"], outcome.results["p0"].metrics["fallbacks"]) == (
        1,
        0,
    )
    assert outcome.results["p0"].metrics["refused_moves"] == 0  # the refused move never reached TextArena
    assert sorted(outcome.results[s].score for s in ("p0", "p1")) in ([-1.0, 1.0], [0.0, 0.0])

    # The re-ask carried TextArena's reason; every prompt opens with TextArena's own rules text
    posts = [json.dumps(post.body) for post in wire.posts()]
    assert "Must be between 0 and 8" in posts[1]
    definition = get_game(GAME)
    for seat in ("p0", "p1"):
        rules = definition.rules(definition.Options(), seat)
        assert rules.startswith(f"You are Player {seat[1]} in Tic Tac Toe.")
        mine = [t for t in turns if t["seat"] == seat]
        assert mine and all(t["prompt"].startswith(rules) for t in mine if t["prompt"])
