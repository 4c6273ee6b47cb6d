"""A re-ask says what went wrong: unparsable, against the schema, illegal with the game's reason,
or cut off with a request to answer shorter; it is never the first ask again.

Played through the runner with a real game and the real SDKs against the wire server, and
on the real offline model (whose re-ask samples with another seed, recorded).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from arena.contract.player import ErrorClass
from arena.engine.match import MatchConfig, play_match
from arena.engine.runner import decision_request
from arena.plugins.games import get_game
from arena.plugins.players import parse_player_spec
from arena.store.database import Store
from players.models import ModelsConfig, build_model_player
from players.models.base import ModelPlayer
from players.models.local_runtime import missing_requirement
from tests.support.episodes import stored_turns
from tests.support.modelkit import CANARY_KEY, KEY_ENV, settings_for
from tests.support.wire_server import Behaviour, WireServer, prompt_of, reply, truncated

GOOD = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady"}
FAULTS: dict[str, tuple[Behaviour, str]] = {
    "unparsable": (
        reply("I would rather sell at three dollars and make twenty cups."),
        "could not be read as JSON",
    ),
    "schema": (reply({**GOOD, "price": 99.0}), "did not match the schema"),
    "illegal": (reply({**GOOD, "produce": 400}), "not allowed by the rules"),
    "truncated": (
        truncated('{"price": 3.0, "produce": 20, "promotion": "none", "reason": "because'),
        "Answer shorter",
    ),
}


def _user_turns(body: Any) -> list[str]:
    return [m["content"] if isinstance(m["content"], str) else json.dumps(m["content"]) for m in _turns(body)]


def _turns(body: Any) -> list[dict[str, Any]]:
    return [m for m in body.get("messages") or body.get("input") or [] if isinstance(m, dict)]


@pytest.mark.parametrize("fault", list(FAULTS))
@pytest.mark.parametrize("provider", ["openai-responses", "openai-chat", "anthropic", "openai-compat"])
async def test_the_re_ask_names_the_failure_and_differs_from_the_first_ask(
    provider: str, fault: str, wire: WireServer, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    bad, wording = FAULTS[fault]
    wire.script(bad, reply(GOOD))
    models = ModelsConfig(models={"m": settings_for(provider, wire)})
    outcome = await play_match(
        MatchConfig("lemonade", {"a": "m", "b": "baseline:weather"}, seed=3, options={"days": 1}),
        store,
        models_config=models,
    )
    assert outcome.status == "finished"
    (turn,) = [t for t in stored_turns(store, outcome.episode_id or 0) if t["seat"] == "a"]
    assert turn["error"] == fault and not turn["fallback"]
    first, second = (r.body for r in wire.posts())
    assert first != second
    assert wording in prompt_of(second) and wording not in prompt_of(first)
    if fault == "illegal":  # the game's own reason is quoted
        assert turn["error_detail"] and turn["error_detail"] in prompt_of(second)
    assert _user_turns(second)[: len(_user_turns(first))] == _user_turns(
        first
    )  # the same question, then more


GEMMA_MISSING = missing_requirement("gemma3-270m")


@pytest.mark.skipif(GEMMA_MISSING is not None, reason=f"offline model unavailable: {GEMMA_MISSING}")
async def test_the_offline_re_ask_samples_with_another_seed_and_says_why() -> None:
    player = build_model_player(parse_player_spec("local:gemma3-270m"), seed=5, config=ModelsConfig())
    assert isinstance(player, ModelPlayer)
    game = get_game("lemonade").create(3, {"days": 3})
    first_ask = decision_request(game, "a", 0)
    await player.prepare()
    try:
        first = await player.decide(first_ask)
        problem = "you cannot afford 400 cups with $20.00"
        again = replace(first_ask, feedback=problem, attempt=2, feedback_error=ErrorClass.ILLEGAL)
        second = await player.decide(again)
    finally:
        await player.close()
    assert first.sampling is not None and second.sampling is not None
    assert first.sampling["seed"] != second.sampling["seed"]
    asked_first = player.conversation(first_ask)
    asked_again = player.conversation(again)
    assert [m.content for m in asked_again] != [m.content for m in asked_first]
    assert "not allowed by the rules: " + problem in asked_again[-1].content
