"""The model's last answer is its answer: a reply that revises itself plays its last object.

Checked on the parser, through every wire format with the real SDKs (Chat Completions,
Responses, Messages with a forced tool and with ``output_config``, an OpenAI-compatible
server), in a recorded and exported episode, and on the real offline model.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from arena.contract.player import Decision
from arena.engine.export import export_episode
from arena.engine.match import MatchConfig, play_match
from arena.plugins.players import parse_player_spec
from arena.store.database import Store
from players.models import ModelPlayer, ModelsConfig, build_model_player
from players.models.local_runtime import missing_requirement
from players.models.parsing import parse_reply
from players.models.schema import action_schema
from tests.support.episodes import stored_turns
from tests.support.modelkit import (
    CANARY_KEY,
    GOOD,
    KEY_ENV,
    PROVIDERS,
    LemonadeAction,
    make_request,
    settings_for,
)
from tests.support.wire_server import Behaviour, WireServer, reply, revised

SCHEMA = action_schema(LemonadeAction)
FIRST = {**GOOD, "price": 5.0}
LAST = {**GOOD, "price": 7.0}


@pytest.mark.parametrize(
    "text",
    [
        f"I considered {json.dumps(FIRST)} ... Final answer: {json.dumps(LAST)}",
        f"```json\n{json.dumps(FIRST)}\n```\nOn second thought:\n```json\n{json.dumps(LAST)}\n```",
        f"{json.dumps(FIRST)}\n{json.dumps(LAST)}",
    ],
)
def test_the_last_object_is_played_and_the_reply_counts_as_revised(text: str) -> None:
    parsed = parse_reply(text, SCHEMA)
    assert parsed.action["price"] == 7.0
    assert parsed.revised


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(LAST),
        f"Answer: {json.dumps(LAST)} (again: {json.dumps(LAST)})",  # the same object twice
        f'The state was {{"day": 3, "cash": 20}}. My move: {json.dumps(LAST)}',  # not an action
        '{"price": 7.0, "produce": 80, "promotion": "flyer", "meta": {"price": 1}}',  # nested, one object
    ],
)
def test_one_answer_is_not_a_revision(text: str) -> None:
    parsed = parse_reply(text, SCHEMA)
    assert parsed.action["price"] == 7.0
    assert not parsed.revised


def test_an_unclosed_object_after_a_complete_one_leaves_the_complete_one() -> None:
    parsed = parse_reply(f'{json.dumps(LAST)} or maybe {{"price": 9, "produce":', SCHEMA)
    assert parsed.action["price"] == 7.0 and not parsed.revised


def _player(wire: WireServer, provider: str, **overrides: Any) -> ModelPlayer:
    config = ModelsConfig(models={"m": settings_for(provider, wire, **overrides)})
    built = build_model_player(parse_player_spec("m"), seed=7, config=config)
    assert isinstance(built, ModelPlayer)
    return built


async def decide_once(player: ModelPlayer) -> Decision:
    """Prepare ``player``, ask it the test request once, close it."""
    await player.prepare()
    try:
        return await player.decide(make_request())
    finally:
        await player.close()


WIRE_FORMATS = [*PROVIDERS, "anthropic-output-config"]


@pytest.mark.parametrize("provider", WIRE_FORMATS)
async def test_every_wire_format_plays_the_last_answer(
    provider: str, wire: WireServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    extra = {"anthropic_mode": "output_config"} if provider == "anthropic-output-config" else {}
    player = _player(wire, provider.removesuffix("-output-config"), **extra)
    wire.script(revised(FIRST, LAST))
    decision = await decide_once(player)
    assert decision.error is None, decision.error_detail
    assert isinstance(decision.action, dict) and decision.action["price"] == 7.0
    assert decision.revised


async def test_several_anthropic_tool_calls_play_the_last(
    wire: WireServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    player = _player(wire, "anthropic")
    wire.script(Behaviour(text="", tool_inputs=[FIRST, LAST]))
    decision = await decide_once(player)
    assert isinstance(decision.action, dict) and decision.action["price"] == 7.0
    assert decision.revised
    assert [json.loads(line)["price"] for line in decision.raw.splitlines()] == [5.0, 7.0]


@pytest.mark.parametrize("provider", ["openai-chat", "anthropic"])
async def test_a_revised_turn_is_recorded_counted_and_exported(
    provider: str, wire: WireServer, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    day = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady"}
    wire.script(revised({**day, "price": 9.0}, day), reply(day))
    models = ModelsConfig(models={"m": settings_for(provider, wire)})
    outcome = await play_match(
        MatchConfig("lemonade", {"a": "m", "b": "baseline:weather"}, seed=3, options={"days": 2}),
        store,
        models_config=models,
    )
    assert outcome.status == "finished"
    turns = [t for t in stored_turns(store, outcome.episode_id or 0) if t["seat"] == "a"]
    assert [t["action"]["price"] for t in turns] == [3.0, 3.0]
    assert [t["revised"] for t in turns] == [1, 0]
    assert outcome.results["a"].metrics["revised"] == 1
    assert "revised" not in outcome.results["b"].metrics  # a baseline never revises
    exported = export_episode(store, outcome.episode_id or 0)
    assert [t.get("revised", False) for t in exported["turns"] if t["seat"] == "a"] == [True, False]


GEMMA_MISSING = missing_requirement("gemma3-270m")


@pytest.mark.skipif(GEMMA_MISSING is not None, reason=f"offline model unavailable: {GEMMA_MISSING}")
async def test_the_offline_model_reply_is_one_answer() -> None:
    # Grammar decoding makes one object: read by the same parser, never a revision.
    player = build_model_player(parse_player_spec("local:gemma3-270m"), seed=5, config=ModelsConfig())
    assert isinstance(player, ModelPlayer)
    decision = await decide_once(player)
    assert decision.error is None, decision.error_detail
    assert isinstance(decision.action, dict) and set(decision.action) == set(LemonadeAction.model_fields)
    assert not decision.revised
    assert parse_reply(decision.raw, SCHEMA).action == decision.action
