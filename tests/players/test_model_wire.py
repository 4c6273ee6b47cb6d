"""Model players against a local server speaking the real wire formats, via the real SDKs."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Callable
from typing import Any

import pytest

from arena.contract.player import Decision, ErrorClass, FatalPlayerError, PlayerSetupError
from arena.plugins.players import parse_player_spec
from players.models import ModelPlayer, ModelsConfig, build_model_player
from tests.support.modelkit import GOOD, KEY_ENV, PROVIDERS, make_request, sent_schema
from tests.support.wire_server import (
    Behaviour,
    WireServer,
    fenced,
    prose,
    rate_limited,
    refusal,
    reply,
    server_error,
    slow,
    truncated,
    unauthorized,
)

ConfigFor = Callable[..., ModelsConfig]


def player(config: ModelsConfig, seed: int = 7) -> ModelPlayer:
    built = build_model_player(parse_player_spec("m"), seed=seed, config=config)
    assert isinstance(built, ModelPlayer)
    return built


async def decide_once(config: ModelsConfig, wire: WireServer, *behaviours: Behaviour) -> Decision:
    wire.script(*behaviours)
    p = player(config)
    await p.prepare()
    try:
        return await p.decide(make_request())
    finally:
        await p.close()


def sent_key(headers: dict[str, str]) -> str:
    if "x-api-key" in headers:
        return headers["x-api-key"]
    return headers.get("authorization", "").removeprefix("Bearer ")


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_good_reply_sends_schema_and_key(
    provider: str, wire: WireServer, config_for: ConfigFor, canary_key: str
) -> None:
    config = config_for(provider, price_input_per_mtok=2.0, price_output_per_mtok=10.0)
    decision = await decide_once(
        config, wire, reply(GOOD, input_tokens=1000, output_tokens=100, cached_tokens=200)
    )
    assert decision.error is None, decision.error_detail
    assert decision.action == GOOD
    assert decision.reason == "sunny and hot"
    assert json.loads(decision.raw) == GOOD
    assert decision.usage.output_tokens == 100
    assert decision.usage.cached_tokens == 200
    expected_input = 1200 if provider == "anthropic" else 1000  # Anthropic counts cache reads apart
    assert decision.usage.input_tokens == expected_input
    # Cache reads cost a tenth of the input price by default (see test_model_caching).
    fresh = expected_input - 200
    assert decision.usage.cost_usd == pytest.approx((fresh * 2.0 + 200 * 0.2 + 100 * 10.0) / 1e6)
    assert decision.latency > 0
    (request,) = wire.posts()
    schema = sent_schema(request.body)
    assert set(schema["properties"]) == {"price", "produce", "promotion", "reason"}
    assert schema["properties"]["promotion"]["enum"] == ["none", "flyer", "sign"]
    assert "JSON" in json.dumps(request.body)  # the system message asks for JSON
    assert "Day 3 of 30" in json.dumps(request.body)
    if provider == "openai-compat":
        assert sent_key(request.headers) == "EMPTY"
    else:
        assert sent_key(request.headers) == canary_key


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("make", [fenced, prose], ids=["fenced", "prose"])
async def test_json_wrapped_in_text_is_found(
    provider: str, make: Callable[[Any], Behaviour], wire: WireServer, config_for: ConfigFor
) -> None:
    decision = await decide_once(config_for(provider), wire, make(GOOD))
    assert decision.error is None, decision.error_detail
    assert decision.action == GOOD


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_synonym_fields_and_string_numbers_are_mapped(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    messy = {"Price": "$3.50", "PRODUCE": "80 cups", "promotion": "Flyer", "rationale": "heat wave"}
    decision = await decide_once(config_for(provider), wire, reply(messy))
    assert decision.error is None, decision.error_detail
    assert decision.action == {"price": 3.5, "produce": 80, "promotion": "flyer", "reason": "heat wave"}
    assert decision.reason == "heat wave"


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_out_of_range_numbers_are_left_for_the_runner(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    wild = {"price": 999.0, "produce": -5, "promotion": "flyer", "reason": "go big"}
    decision = await decide_once(config_for(provider), wire, reply(wild))
    assert decision.error is None
    assert decision.action == wild  # the player never clamps; the runner validates


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_garbage_is_unparsable(provider: str, wire: WireServer, config_for: ConfigFor) -> None:
    decision = await decide_once(config_for(provider), wire, reply("I would set a fair price and hope."))
    assert decision.error is ErrorClass.UNPARSABLE
    assert decision.action is None
    assert decision.raw == "I would set a fair price and hope."


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_truncated_reply(provider: str, wire: WireServer, config_for: ConfigFor) -> None:
    decision = await decide_once(config_for(provider), wire, truncated())
    assert decision.error is ErrorClass.TRUNCATED
    assert decision.action is None
    assert decision.usage.output_tokens == 30


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_refusal(provider: str, wire: WireServer, config_for: ConfigFor) -> None:
    decision = await decide_once(config_for(provider), wire, refusal("I won't run a lemonade stand."))
    assert decision.error is ErrorClass.REFUSAL
    assert decision.action is None
    assert "lemonade" in decision.error_detail or "lemonade" in decision.raw


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_rate_limit_honours_retry_after(provider: str, wire: WireServer, config_for: ConfigFor) -> None:
    wire.script(rate_limited(retry_after="1"), reply(GOOD))
    p = player(config_for(provider))
    decision = await p.decide(make_request())
    await p.close()
    assert decision.error is None, decision.error_detail
    assert len(wire.posts()) == 2
    (record,) = p.last_retry_log.retries
    assert record.error_class is ErrorClass.RATE_LIMITED
    assert record.status == 429
    assert 1.0 <= record.delay < 1.5


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_retry_after_past_the_deadline_gives_up_at_once(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    decision = await decide_once(config_for(provider, timeout=5.0), wire, rate_limited(retry_after="120"))
    assert decision.error is ErrorClass.RATE_LIMITED
    assert "deadline" in decision.error_detail
    assert len(wire.posts()) == 1


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_server_errors_are_retried_then_reported(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    config = config_for(provider, max_retries=1)
    wire.script(server_error(500), reply(GOOD))
    p = player(config)
    recovered = await p.decide(make_request())
    assert recovered.error is None
    wire.script(server_error(502), server_error(503))
    failed = await p.decide(make_request())
    await p.close()
    assert failed.error is ErrorClass.PROVIDER_ERROR
    assert "503" in failed.error_detail
    assert len(wire.posts()) == 4


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_slow_reply_hits_the_turn_deadline(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    decision = await decide_once(config_for(provider, timeout=0.5), wire, slow(30.0, reply(GOOD)))
    assert decision.error is ErrorClass.TIMEOUT
    assert decision.action is None


@pytest.mark.parametrize("provider", ["openai-responses", "openai-chat", "anthropic"])
async def test_bad_key_is_fatal(
    provider: str, wire: WireServer, config_for: ConfigFor, canary_key: str
) -> None:
    wire.script(unauthorized(f"Incorrect API key provided: {canary_key}"))
    p = player(config_for(provider))
    with pytest.raises(FatalPlayerError) as caught:
        await p.decide(make_request())
    await p.close()
    assert canary_key not in str(caught.value)
    assert "401" in str(caught.value)
    assert len(wire.posts()) == 1  # never retried


@pytest.mark.parametrize("provider", ["openai-responses", "anthropic"])
async def test_missing_key_fails_prepare_without_network(
    provider: str, wire: WireServer, config_for: ConfigFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = config_for(provider)
    monkeypatch.delenv(KEY_ENV)
    p = player(config)
    with pytest.raises(PlayerSetupError, match=KEY_ENV):
        await p.prepare()
    assert wire.requests == []


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_reask_carries_previous_reply_and_feedback(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    wire.script(reply({"price": 99, "produce": 1, "promotion": "flyer"}), reply(GOOD))
    p = player(config_for(provider))
    first = await p.decide(make_request())
    second = await p.decide(make_request(feedback="price: must be at most 10", attempt=2))
    await p.close()
    assert first.error is None and second.action == GOOD
    body = json.dumps(wire.posts()[1].body)
    assert "price: must be at most 10" in body
    assert '\\"price\\": 99' in body  # the previous reply is part of the conversation


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_canary_key_never_reaches_a_decision(
    provider: str, wire: WireServer, config_for: ConfigFor, canary_key: str
) -> None:
    echo = {"price": 2, "produce": 3, "promotion": "none", "reason": f"my key is {canary_key}"}
    behaviours = [
        reply(echo),
        reply(f"no JSON here, only {canary_key}"),
        Behaviour(status=400, error_message=f"bad request from {canary_key}"),
        Behaviour(status=500, error_message=f"oops {canary_key}"),
        refusal(f"refusing {canary_key}"),
        truncated(f'{{"reason": "{canary_key}'),
    ]
    p = player(config_for(provider, max_retries=0, api_key_env=KEY_ENV))
    for behaviour in behaviours:
        wire.script(behaviour)
        decision = await p.decide(make_request())
        for text in (decision.raw, decision.reason, decision.error_detail, json.dumps(decision.action)):
            assert canary_key not in text
        assert canary_key not in json.dumps(decision.sampling)
    assert canary_key not in json.dumps(p.configuration())
    await p.close()
    # A key written into the base URL (user info or query) stays out of the stored configuration.
    keyed = config_for(provider, base_url=f"http://u:{canary_key}@127.0.0.1:1/v1?api_key={canary_key}&v=2")
    described = json.dumps(player(keyed).configuration())
    assert canary_key not in described and '"base_url": "http://127.0.0.1:1/v1?v=2"' in described


async def test_anthropic_output_config_mode(wire: WireServer, config_for: ConfigFor) -> None:
    config = config_for("anthropic", anthropic_mode="output_config", temperature=0.3)
    decision = await decide_once(config, wire, reply(GOOD))
    assert decision.action == GOOD
    body = wire.posts()[0].body
    assert "tools" not in body
    assert body["output_config"]["format"]["schema"]["additionalProperties"] is False
    assert body["temperature"] == 0.3  # sent through extra_body


async def test_openai_temperature_and_token_limits_are_sent(wire: WireServer, config_for: ConfigFor) -> None:
    await decide_once(config_for("openai-chat", temperature=0.2, max_output_tokens=321), wire, reply(GOOD))
    await decide_once(config_for("openai-responses", max_output_tokens=123), wire, reply(GOOD))
    chat, responses = (r.body for r in wire.posts())
    assert chat["temperature"] == 0.2 and chat["max_completion_tokens"] == 321
    assert responses["max_output_tokens"] == 123 and "temperature" not in responses
    assert responses["store"] is False


async def test_concurrency_cap_is_shared_between_players(wire: WireServer, config_for: ConfigFor) -> None:
    config = config_for("openai-chat", max_concurrency=1)
    wire.script(*(slow(0.2, reply(GOOD)) for _ in range(3)))
    players = [player(config, seed=i) for i in range(3)]
    decisions = await asyncio.gather(*(p.decide(make_request()) for p in players))
    for p in players:
        await p.close()
    assert all(d.error is None for d in decisions)
    assert wire.max_in_flight == 1


async def test_compat_prepare_probes_the_server(wire: WireServer, config_for: ConfigFor) -> None:
    await player(config_for("openai-compat")).prepare()
    assert [(r.method, r.path) for r in wire.requests] == [("GET", "/v1/models")]
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    down = config_for("openai-compat", base_url=f"http://127.0.0.1:{port}/v1")
    with pytest.raises(PlayerSetupError, match="server down: connection refused"):
        await player(down).prepare()
