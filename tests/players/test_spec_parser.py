"""One reading of a provider spec (issue 46.6): ``MODEL@BASE_URL`` is honoured by every provider
that calls over HTTP and refused by one that runs in-process; an unreachable host is named for
what it is (a name DNS cannot resolve is not "connection refused")."""

from __future__ import annotations

import pytest

from arena.contract.player import PlayerSetupError
from arena.plugins.players import PlayerSpec, SpecError, parse_player_spec
from players.models import ModelPlayer, ModelsConfig, ModelSettings, build_model_player
from players.models.factory import player_for
from tests.support.modelkit import GOOD, KEY_ENV, make_request
from tests.support.wire_server import WireServer, reply


@pytest.mark.parametrize(
    ("spec", "model", "base_url"),
    [
        ("openai:gpt-4.1-mini@http://127.0.0.1:9/v1", "gpt-4.1-mini", "http://127.0.0.1:9/v1"),
        ("anthropic:claude-haiku-4-5@https://proxy.example/x", "claude-haiku-4-5", "https://proxy.example/x"),
        ("openai-compat:qwen@http://h:1/v1", "qwen", "http://h:1/v1"),
        ("openai-compat:q@http://user:pw@h:1/v1", "q", "http://user:pw@h:1/v1"),
        ("openai:gpt-5-mini?effort=high", "gpt-5-mini?effort=high", None),
    ],
)
def test_model_and_base_url_are_read_apart_for_every_http_provider(
    spec: str, model: str, base_url: str | None
) -> None:
    parsed = parse_player_spec(spec)
    assert (parsed.name, parsed.base_url) == (model, base_url)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("local:gemma3-270m@http://127.0.0.1:8000/v1", "take no @BASE_URL"),
        ("openai:gpt-4.1-mini@127.0.0.1:8000", "after '@' comes a base URL"),
        ("anthropic:@http://127.0.0.1:8000", "the model's name comes before '@'"),
        ("openai-compat:qwen", "needs MODEL@BASE_URL"),
    ],
)
def test_a_base_url_a_provider_cannot_use_is_refused_in_one_line(spec: str, message: str) -> None:
    with pytest.raises(SpecError, match=message):
        parse_player_spec(spec)


async def decided(spec: PlayerSpec, wire: WireServer) -> ModelPlayer:
    """The player for ``spec``, after one good decision against the wire server."""
    player = build_model_player(spec, seed=1, config=ModelsConfig())
    assert isinstance(player, ModelPlayer)
    wire.script(reply(GOOD))
    try:
        decision = await player.decide(make_request())
    finally:
        await player.close()
    assert decision.error is None
    return player


async def test_openai_at_url_sends_to_that_url_with_the_bare_model_id(
    wire: WireServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old parser kept ``@http://...`` in the model id and called api.openai.com."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789")
    spec = parse_player_spec(f"openai:gpt-test@{wire.openai_url}")
    player = await decided(spec, wire)
    assert player.settings.base_url == wire.openai_url
    [post] = wire.posts()
    assert post.body["model"] == "gpt-test"


async def test_anthropic_at_url_sends_to_that_url(wire: WireServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-0123456789")
    await decided(parse_player_spec(f"anthropic:claude-test@{wire.url}"), wire)
    assert [post.body["model"] for post in wire.posts()] == ["claude-test"]


@pytest.mark.parametrize("provider", ["openai-compat", "anthropic"])
async def test_a_host_name_that_does_not_resolve_is_named_as_a_dns_failure(
    provider: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-test-0123456789")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-0123456789")
    host = "http://no-such-host.invalid/v1"  # .invalid never resolves (RFC 6761)
    player = build_model_player(parse_player_spec(f"{provider}:m@{host}"), seed=1, config=ModelsConfig())
    with pytest.raises(PlayerSetupError) as raised:
        await player.prepare()
    await player.close()
    assert "DNS lookup failed" in str(raised.value)
    assert "refused" not in str(raised.value)


async def test_a_dns_failure_during_a_decision_is_named_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789")
    settings = ModelSettings(
        provider="openai", model="gpt-test", base_url="http://no-such-host.invalid/v1", max_retries=0
    )
    player = player_for("openai:gpt-test@http://no-such-host.invalid/v1", settings, seed=1)
    decision = await player.decide(make_request())
    await player.close()
    assert decision.error_detail.startswith("connection failed: DNS lookup failed")
