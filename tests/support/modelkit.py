"""Shared helpers for model-player tests: a test action model, requests and settings."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from arena.contract.player import DecisionRequest
from players.models import ModelSettings
from tests.support.wire_server import WireServer

CANARY_KEY = "sk-canary-0123456789abcdefDEADBEEF"
KEY_ENV = "ARENA_TEST_CANARY_KEY"
PROVIDERS = ("openai-responses", "openai-chat", "anthropic", "openai-compat")


class LemonadeAction(BaseModel):
    """A lemonade-stand-like action for tests (the real game lives in games/)."""

    price: float = Field(ge=0.25, le=10.0)
    produce: int = Field(ge=0, le=500)
    promotion: Literal["none", "flyer", "sign"]
    reason: str = ""


GOOD = {"price": 2.5, "produce": 80, "promotion": "flyer", "reason": "sunny and hot"}


class DayObservation(BaseModel):
    """A minimal observation for hand-built requests."""

    day: int


def make_request(
    *,
    feedback: str | None = None,
    attempt: int = 1,
    step: int = 3,
    prompt: str = "Day 3 of 30. Cash $20.00. Sunny, 31C. Choose price, cups and promotion.",
    rules: str = "Sell lemonade.",
    seat: str = "a",
    episode: str = "",
) -> DecisionRequest:
    """A hand-built decision request for a seat of a lemonade-like game (seat 'a' by default)."""
    return DecisionRequest(
        game="lemonade",
        seat=seat,
        step=step,
        observation=DayObservation(day=step),
        rules=rules,
        action_model=LemonadeAction,
        render_prompt=lambda: prompt,
        prompt_version="test-1",
        feedback=feedback,
        attempt=attempt,
        episode=episode,
    )


def settings_for(provider: str, wire: WireServer, **overrides: Any) -> ModelSettings:
    """Settings pointing ``provider`` at the wire server with the canary key."""
    base: dict[str, Any] = {"api_key_env": KEY_ENV, "timeout": 10.0, "max_retries": 2}
    if provider == "openai-responses":
        base |= {"provider": "openai", "model": "gpt-test", "base_url": wire.openai_url, "api": "responses"}
    elif provider == "openai-chat":
        base |= {"provider": "openai", "model": "gpt-test", "base_url": wire.openai_url, "api": "chat"}
    elif provider == "anthropic":
        base |= {"provider": "anthropic", "model": "claude-test", "base_url": wire.url}
    else:  # a local server needs no key unless a test names one
        base |= {"provider": "openai-compat", "model": "qwen-test", "base_url": wire.openai_url}
        base.pop("api_key_env")
    base.update(overrides)
    return ModelSettings(**base)


def sent_schema(body: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema a request carried, whatever the provider's field for it."""
    if "text" in body:
        return dict(body["text"]["format"]["schema"])
    if "response_format" in body:
        return dict(body["response_format"]["json_schema"]["schema"])
    if "tools" in body:
        return dict(body["tools"][0]["input_schema"])
    return dict(body["output_config"]["format"]["schema"])
