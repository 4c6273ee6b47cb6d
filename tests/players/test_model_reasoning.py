"""Reasoning settings (issue 49): an effort, a thinking budget or adaptive thinking and a compatible
server's extra body are validated per provider, sent on the wire, part of the player's
configuration hash, and the thinking each API returns is kept apart from the stated reason."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from arena.contract.player import Decision, ErrorClass
from arena.contract.playerconfig import config_hash
from arena.plugins.players import SpecError, parse_player_spec
from players.models import ModelPlayer, ModelsConfig, ModelSettings, build_model_player
from players.models.config import EFFORT_ALLOWANCE, parse_models_config
from players.models.factory import player_for
from tests.support.modelkit import GOOD, make_request, settings_for
from tests.support.wire_server import Behaviour, WireServer, reply, thinking, truncated

ConfigFor = Callable[..., ModelsConfig]


def player(config: ModelsConfig) -> ModelPlayer:
    built = build_model_player(parse_player_spec("m"), seed=7, config=config)
    assert isinstance(built, ModelPlayer)
    return built


async def decide(config: ModelsConfig, wire: WireServer, *behaviours: Behaviour) -> Decision:
    wire.script(*behaviours)
    seat = player(config)
    try:
        return await seat.decide(make_request())
    finally:
        await seat.close()


async def test_responses_sends_the_effort_and_keeps_the_reasoning_summary(
    wire: WireServer, config_for: ConfigFor
) -> None:
    config = config_for("openai-responses", reasoning_effort="high")
    decision = await decide(config, wire, thinking(GOOD, "Hot day: charge more, make 80."))
    body = wire.posts()[0].body
    assert body["reasoning"] == {"effort": "high", "summary": "auto"}
    assert body["max_output_tokens"] >= EFFORT_ALLOWANCE["high"]  # room for the thinking asked for
    assert decision.error is None and decision.reason == "sunny and hot"
    assert decision.thinking == "Hot day: charge more, make 80."
    assert decision.sampling is not None and decision.sampling["reasoning"]["effort"] == "high"


async def test_chat_sends_reasoning_effort_and_keeps_reasoning_content(
    wire: WireServer, config_for: ConfigFor
) -> None:
    config = config_for("openai-chat", reasoning_effort="low")
    decision = await decide(config, wire, thinking(GOOD, "think think"))
    assert wire.posts()[0].body["reasoning_effort"] == "low"
    assert decision.thinking == "think think"


async def test_a_compatible_server_gets_its_extra_body_and_effort(
    wire: WireServer, config_for: ConfigFor
) -> None:
    extra = {"chat_template_kwargs": {"enable_thinking": True}, "top_k": 20}
    config = config_for("openai-compat", reasoning_effort="medium", extra_body=extra)
    decision = await decide(config, wire, thinking(GOOD, "<compat thoughts>"))
    body = wire.posts()[0].body
    assert body["chat_template_kwargs"] == {"enable_thinking": True} and body["top_k"] == 20
    assert body["reasoning_effort"] == "medium"
    assert decision.thinking == "<compat thoughts>"


async def test_anthropic_thinking_switches_to_output_config_and_keeps_the_thinking_blocks(
    wire: WireServer, config_for: ConfigFor
) -> None:
    """A forced tool call with thinking on is HTTP 400 at Anthropic (the wire server answers so)."""
    config = config_for("anthropic", thinking_budget_tokens=2048)
    decision = await decide(config, wire, thinking(GOOD, "Let me weigh the weather."))
    body = wire.posts()[0].body
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert "tool_choice" not in body and "output_config" in body
    assert body["max_tokens"] > 2048
    assert decision.error is None and decision.thinking == "Let me weigh the weather."


async def test_adaptive_thinking_is_sent_as_such(wire: WireServer, config_for: ConfigFor) -> None:
    decision = await decide(config_for("anthropic", thinking="adaptive"), wire, reply(GOOD))
    assert wire.posts()[0].body["thinking"] == {"type": "adaptive"}
    assert decision.error is None and decision.thinking is None


@pytest.mark.parametrize("provider", ["openai-responses", "anthropic"])
async def test_hidden_thinking_is_recorded_as_such_with_its_token_count(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    setting: dict[str, Any] = (
        {"reasoning_effort": "high"} if provider != "anthropic" else {"thinking": "adaptive"}
    )
    hidden = reply(GOOD, thinking_redacted=True, reasoning_tokens=1234)
    decision = await decide(config_for(provider, **setting), wire, hidden)
    assert decision.thinking is not None and "encrypted or redacted" in decision.thinking
    if provider != "anthropic":  # the Messages usage the server sends carries no thinking count
        assert "1,234 reasoning tokens" in decision.thinking


async def test_a_reply_cut_off_after_thinking_keeps_its_thinking_and_its_class(
    wire: WireServer, config_for: ConfigFor
) -> None:
    cut = truncated()
    cut.thinking = "a very long thought"
    decision = await decide(config_for("openai-chat", reasoning_effort="high"), wire, cut)
    assert decision.error is ErrorClass.TRUNCATED
    assert decision.thinking == "a very long thought"


def test_the_configuration_hash_differs_between_effort_levels(wire: WireServer) -> None:
    hashes = {
        effort: config_hash(
            player_for(
                "m", settings_for("openai-responses", wire, reasoning_effort=effort), seed=1
            ).configuration()
        )
        for effort in ("low", "medium", "high")
    }
    plain = config_hash(player_for("m", settings_for("openai-responses", wire), seed=1).configuration())
    assert len({*hashes.values(), plain}) == 4


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            {"provider": "anthropic", "model": "c", "reasoning_effort": "high"},
            "'reasoning_effort' applies to",
        ),
        (
            {"provider": "openai", "model": "g", "thinking_budget_tokens": 2048},
            "'thinking_budget_tokens' applies to",
        ),
        (
            {"provider": "openai", "model": "g", "extra_body": {"x": 1}},
            "'extra_body' applies to provider openai-compat",
        ),
        ({"provider": "openai", "model": "g", "reasoning_effort": "huge"}, "reasoning_effort"),
        (
            {"provider": "anthropic", "model": "c", "thinking_budget_tokens": 100},
            "greater than or equal to 1024",
        ),
        (
            {"provider": "anthropic", "model": "c", "thinking_budget_tokens": 2048, "anthropic_mode": "tool"},
            "HTTP 400",
        ),
        (
            {
                "provider": "anthropic",
                "model": "c",
                "thinking_budget_tokens": 4096,
                "max_output_tokens": 4096,
            },
            "must be below max_output_tokens",
        ),
        ({"provider": "anthropic", "model": "c", "thinking": "adaptive", "temperature": 0.5}, "temperature"),
        ({"provider": "local", "model": "gemma3-270m", "reasoning_effort": "low"}, "applies to"),
    ],
)
def test_reasoning_settings_are_validated_per_provider(table: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_models_config({"models": {"x": table}})


def test_the_spec_form_sets_the_effort_and_the_thinking() -> None:
    config = ModelsConfig()
    text, settings = config.resolve(parse_player_spec("openai:gpt-5-mini?effort=high"))
    assert (text, settings.reasoning_effort) == ("openai:gpt-5-mini?effort=high", "high")
    _, budget = config.resolve(parse_player_spec("anthropic:claude-haiku-4-5?thinking=4000"))
    assert budget.thinking_budget_tokens == 4000
    _, adaptive = config.resolve(parse_player_spec("anthropic:claude-haiku-4-5?thinking=adaptive"))
    assert adaptive.thinking == "adaptive"
    with pytest.raises(SpecError, match="reasoning_effort"):
        config.resolve(parse_player_spec("anthropic:claude-haiku-4-5?effort=high"))


def test_the_output_cap_rule_says_it_leaves_room_for_the_thinking() -> None:
    seat = player_for(
        "m", ModelSettings(provider="anthropic", model="c", thinking_budget_tokens=3000), seed=1
    )
    assert str(seat.output_cap_setting).endswith("+ 3000 reasoning")
    assert seat.configuration()["thinking_budget_tokens"] == 3000
    assert seat.configuration()["anthropic_mode"] == "output_config"


def test_settings_are_frozen_and_rejected_keys_say_so() -> None:
    with pytest.raises(ValidationError):
        ModelSettings(provider="openai", model="g", reasoning_effort="loud")
