"""Model seats play an OpenSpiel game: the real openai and anthropic SDKs against the wire server.

Leduc poker (chance, hidden cards) with an OpenAI chat seat and an Anthropic seat. The responder
reads only the prompt it was sent: the legal moves listed there. Its first reply names a move
that is not legal: the seat is asked again with the reason, then plays on. Every request carries
the prompt the game rendered, whose view is the library's information-state string for that
seat, and a JSON schema whose ``move`` is exactly the legal moves.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.engine.match import MatchConfig, prepare_runner, run_to_end
from arena.store.database import Store
from players.models import ModelsConfig
from tests.support.episodes import stored_turns
from tests.support.modelkit import CANARY_KEY, KEY_ENV, sent_schema, settings_for
from tests.support.wire_server import Behaviour, WireServer, prompt_of, reply

LEGAL = "Your legal moves: "


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> Iterator[WireServer]:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    with WireServer() as server:
        yield server


class LegalResponder:
    """Answers with the last legal move the prompt lists (raise or call); the very first answer is illegal."""

    def __init__(self) -> None:
        self.answered = 0

    def __call__(self, body: Any) -> Behaviour:
        text = prompt_of(body)
        line = text.rsplit(LEGAL, 1)[1].split("\n", 1)[0]
        legal = json.loads(f"[{line}]")
        self.answered += 1
        if self.answered == 1:
            return reply({"move": "Check", "reason": "not a move of this game"})
        return reply({"move": legal[-1], "reason": "the strongest legal move"})


async def test_model_seats_play_leduc_poker_over_the_wire(wire: WireServer, tmp_path: Path) -> None:
    wire.responder = LegalResponder()
    models = ModelsConfig(
        models={"chat": settings_for("openai-chat", wire), "claude": settings_for("anthropic", wire)}
    )
    store = Store(tmp_path / "arena.db")
    try:
        config = MatchConfig("openspiel:leduc_poker", {"p0": "chat", "p1": "claude"}, seed=5)
        outcome = await run_to_end(prepare_runner(config, store, [], models_config=models))
        assert outcome.status == "finished", outcome.message
        turns = stored_turns(store, outcome.episode_id or 0)
    finally:
        store.close()
    assert sum(outcome.results[seat].score for seat in ("p0", "p1")) == 0.0  # chips change hands
    first = turns[0]
    assert first["error"] is not None and not first["fallback"], "re-asked, then a legal move"
    assert first["attempts"][0]["detail"] == "move: Input should be 'Call' or 'Raise'"
    assert all(not turn["fallback"] for turn in turns)
    posts = wire.posts()
    assert len(posts) == len(turns) + 1  # one re-ask
    for turn in turns:
        observation = turn["observation"]
        assert observation["view_kind"] == "information_state_string"
        assert f"[Observer: {observation['player']}]" in observation["view"]
        assert observation["view"].rstrip("\n") in turn["prompt"]
        assert turn["action"]["move"] in observation["legal_moves"]
    sent = [prompt_of(post.body) for post in posts]
    assert all(turn["prompt"] in sent for turn in turns)
    schema = sent_schema(posts[1].body)
    moves = schema["properties"]["move"]
    assert sorted(moves["enum"]) == sorted(turns[0]["observation"]["legal_moves"])
