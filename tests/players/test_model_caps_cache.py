"""Output caps and provider prompt caching, through the real SDKs against the wire server."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from arena.contract.player import DecisionRequest, ErrorClass
from arena.plugins.games import get_game
from arena.plugins.players import parse_player_spec
from players.models import ModelPlayer, ModelsConfig, build_model_player
from players.models.memory import split_head
from tests.support.modelkit import GOOD, PROVIDERS, make_request, sent_schema
from tests.support.wire_server import WireServer, reply, truncated

ConfigFor = Callable[..., ModelsConfig]
RULES = "Sell lemonade. " + "Every rule of the stand is spelled out here at length. " * 100
CAP_FIELD = {
    "openai-responses": "max_output_tokens",
    "openai-chat": "max_completion_tokens",
    "openai-compat": "max_tokens",
    "anthropic": "max_tokens",
}


def player(config: ModelsConfig) -> ModelPlayer:
    built = build_model_player(parse_player_spec("m"), seed=7, config=config)
    assert isinstance(built, ModelPlayer)
    return built


def request(
    step: int, *, episode: str = "e1", seat: str = "a", feedback: str | None = None
) -> DecisionRequest:
    """A lemonade-like request whose prompt starts with long rules (over 1,024 tokens)."""
    prompt = f"{RULES}\n\nDay {step} of 30. Cash $20.00. Choose price, cups and promotion."
    attempt = 2 if feedback else 1
    return make_request(
        step=step, prompt=prompt, rules=RULES, seat=seat, episode=episode, feedback=feedback, attempt=attempt
    )


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_the_output_cap_and_string_lengths_are_sent(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    wire.script(reply(GOOD), truncated())
    p = player(config_for(provider))
    try:
        first = await p.decide(request(1))
        cut = await p.decide(request(2))
    finally:
        await p.close()
    assert first.error is None
    bodies = [r.body for r in wire.posts()]
    assert all(body[CAP_FIELD[provider]] == 256 for body in bodies)  # estimated from the lemonade schema
    assert first.sampling is not None and first.sampling[CAP_FIELD[provider]] == 256
    assert sent_schema(bodies[0])["properties"]["reason"]["maxLength"] == 300
    assert "maxLength" not in sent_schema(bodies[0])["properties"]["promotion"]  # an enum stays as it is
    assert cut.error is ErrorClass.TRUNCATED and "256 tokens" in cut.error_detail
    config = p.configuration()
    assert config["max_output_tokens"] == f"schema-estimate-v1 (at most {p.settings.output_tokens})"
    assert config["string_max_length"] == 300


async def test_reasoning_models_get_room_to_think_and_a_set_cap_wins(
    wire: WireServer, config_for: ConfigFor
) -> None:
    wire.script(reply(GOOD), reply(GOOD))
    thinker = player(config_for("openai-responses", model="gpt-5-mini"))
    fixed = player(config_for("anthropic", max_output_tokens=100))
    try:
        await thinker.decide(request(1))
        await fixed.decide(request(1))
    finally:
        await thinker.close()
        await fixed.close()
    first, second = (r.body for r in wire.posts())
    assert first["max_output_tokens"] == 256 + 4096
    assert second["max_tokens"] == 100
    assert fixed.configuration()["max_output_tokens"] == 100


def cache_key(body: dict[str, Any]) -> str | None:
    key = body.get("prompt_cache_key")
    return str(key) if key is not None else None


async def test_openai_sends_a_prompt_cache_key_per_episode_and_seat(
    wire: WireServer, config_for: ConfigFor
) -> None:
    for provider in ("openai-responses", "openai-chat", "openai-compat"):
        wire.script(*[reply(GOOD) for _ in range(4)])
        p = player(config_for(provider))
        try:
            for req in (request(1), request(2), request(1, episode="e2"), request(1, seat="b")):
                await p.decide(req)
        finally:
            await p.close()
    bodies = [r.body for r in wire.posts()]
    for responses_or_chat in (bodies[0:4], bodies[4:8]):
        keys = [cache_key(body) for body in responses_or_chat]
        assert keys[0] is not None and keys[0].startswith("arena-") and len(keys[0]) <= 64
        assert keys[0] == keys[1] and len(set(keys)) == 3  # same seat of one episode: one key
    assert all(cache_key(body) is None for body in bodies[8:])  # compatible servers get none


async def test_anthropic_marks_the_stable_prefix_for_caching(wire: WireServer, config_for: ConfigFor) -> None:
    wire.script(reply(GOOD))
    p = player(config_for("anthropic"))
    try:
        await p.decide(request(1))
    finally:
        await p.close()
    (body,) = (r.body for r in wire.posts())
    assert body["system"][0]["cache_control"] == {"type": "ephemeral"}
    head, rest = body["messages"][0]["content"]
    assert head["text"] == f"{RULES}\n\n" and head["cache_control"] == {"type": "ephemeral"}
    assert rest["text"].startswith("Day 1 of 30") and "cache_control" not in rest
    assert p.configuration()["price_cache_write_per_mtok"] == 0.0


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_cached_tokens_are_read_and_priced_at_the_cached_rate(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    wire.prompt_cache = True
    wire.script(*[reply(GOOD) for _ in range(3)])
    p = player(config_for(provider, price_input_per_mtok=2.0, price_output_per_mtok=10.0))
    try:
        decisions = [await p.decide(request(step)) for step in (1, 2, 3)]
    finally:
        await p.close()
    first, second, third = (d.usage for d in decisions)
    assert first.cached_tokens == 0
    assert second.cached_tokens >= 1024 and third.cached_tokens >= second.cached_tokens
    assert second.cached_tokens < second.input_tokens
    writes = second.cache_write_tokens
    fresh = second.input_tokens - second.cached_tokens - writes
    write_price = 2.5 if provider == "anthropic" else 2.0
    expected = (fresh * 2.0 + second.cached_tokens * 0.2 + writes * write_price + 30 * 10.0) / 1e6
    assert second.cost_usd == pytest.approx(expected)
    if provider == "anthropic":
        assert first.cache_write_tokens >= 1024  # the first turn writes the prefix
    full = (second.input_tokens * 2.0 + 30 * 10.0) / 1e6
    assert second.cost_usd < full


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_cache_writes_are_read_from_every_wire_format(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    # Anthropic counts reads and writes apart from input_tokens; OpenAI (and OpenRouter-like
    # compatible servers) count them inside it.
    wire.script(reply(GOOD, input_tokens=1000, cached_tokens=200, cache_write_tokens=300))
    p = player(config_for(provider, price_input_per_mtok=2.0))
    try:
        usage = (await p.decide(request(1))).usage
    finally:
        await p.close()
    total = 1500 if provider == "anthropic" else 1000
    assert (usage.input_tokens, usage.cached_tokens, usage.cache_write_tokens) == (total, 200, 300)
    write_price = 2.5 if provider == "anthropic" else 2.0  # only Anthropic bills writes above input
    expected = ((total - 500) * 2.0 + 200 * 0.2 + 300 * write_price) / 1e6
    assert usage.cost_usd == pytest.approx(expected)


async def test_a_gateway_reporting_anthropic_style_cache_writes_on_chat_completions_is_read(
    wire: WireServer, config_for: ConfigFor
) -> None:
    litellm = {"cache_creation_input_tokens": 300, "cache_read_input_tokens": 200}
    wire.script(
        reply(GOOD, input_tokens=1000, cached_tokens=200, usage_extra=litellm),
        reply(GOOD, input_tokens=1000),
    )
    p = player(config_for("openai-compat"))
    try:
        written = [(await p.decide(request(step))).usage.cache_write_tokens for step in (1, 2)]
    finally:
        await p.close()
    assert written == [300, 0]


async def test_a_models_file_price_for_cached_input_wins(wire: WireServer, config_for: ConfigFor) -> None:
    config = config_for("openai-chat", price_input_per_mtok=2.0, price_cached_input_per_mtok=1.0)
    wire.script(reply(GOOD, input_tokens=1000, output_tokens=0, cached_tokens=400))
    p = player(config)
    try:
        decision = await p.decide(request(1))
    finally:
        await p.close()
    assert decision.usage.cost_usd == pytest.approx((600 * 2.0 + 400 * 1.0) / 1e6)
    assert p.configuration()["price_cached_input_per_mtok"] == 1.0


@pytest.mark.parametrize("name", ["lemonade", "bargain", "paperclip"])
def test_every_game_prompt_leads_with_its_rules(name: str) -> None:
    # The cacheable prefix is system + rules: a prompt that put state first would miss every turn.
    definition = get_game(name)
    game = definition.create(3)
    for seat in game.pending():
        rules = definition.rules(game.options, seat)
        head, body = split_head(definition.prompt_for(game, seat), rules)
        assert head.startswith(rules) and body and not body.startswith("\n")
