"""Transcript memory: earlier turns sent as conversation, trimmed to a budget, per episode and seat."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from arena.contract.player import DecisionRequest
from arena.plugins.players import parse_player_spec
from players.models import ModelPlayer, ModelsConfig, build_model_player
from players.models.memory import split_head
from tests.support.modelkit import GOOD, PROVIDERS, make_request
from tests.support.wire_server import WireServer, reply

ConfigFor = Callable[..., ModelsConfig]
RULES = "Sell lemonade for a few days."


def request(
    step: int, *, episode: str = "e1", seat: str = "a", feedback: str | None = None
) -> DecisionRequest:
    prompt = f"{RULES}\n\nDay {step}. " + "State of the stand. " * 20
    attempt = 2 if feedback else 1
    return make_request(
        step=step, prompt=prompt, rules=RULES, seat=seat, episode=episode, feedback=feedback, attempt=attempt
    )


def answer(step: int) -> dict[str, Any]:
    return {**GOOD, "reason": f"my reply on day {step}"}


def texts(body: dict[str, Any]) -> list[tuple[str, str]]:
    """``(role, text)`` of every conversation message a request carried (system left out)."""
    messages = body.get("input") or body.get("messages") or []
    out = []
    for message in messages:
        if message["role"] == "system":
            continue
        content = message["content"]
        text = content if isinstance(content, str) else "".join(block["text"] for block in content)
        out.append((message["role"], text))
    return out


async def play(config: ModelsConfig, wire: WireServer, requests: list[DecisionRequest]) -> ModelPlayer:
    wire.script(*[reply(answer(r.step)) for r in requests])
    built = build_model_player(parse_player_spec("m"), seed=7, config=config)
    assert isinstance(built, ModelPlayer)
    try:
        for req in requests:
            decision = await built.decide(req)
            assert decision.error is None, decision.error_detail
    finally:
        await built.close()
    return built


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_earlier_turns_are_sent_as_conversation(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    p = await play(config_for(provider, memory="transcript"), wire, [request(1), request(2), request(3)])
    third = texts(wire.posts()[2].body)
    assert [role for role, _ in third] == ["user", "assistant", "user", "assistant", "user"]
    assert third[0][1] == request(1).prompt  # the rules lead, once
    assert third[2][1] == split_head(request(2).prompt, RULES)[1]
    assert third[4][1] == split_head(request(3).prompt, RULES)[1]
    assert json.loads(third[1][1])["reason"] == "my reply on day 1"  # its own replies included
    assert json.loads(third[3][1])["reason"] == "my reply on day 2"
    assert sum(text.count(RULES) for _, text in third) == 1
    config = p.configuration()
    assert config["memory"] == "transcript" and config["memory_budget_tokens"] == 8000


async def test_without_memory_every_prompt_stands_alone(wire: WireServer, config_for: ConfigFor) -> None:
    p = await play(config_for("openai-chat"), wire, [request(1), request(2)])
    assert texts(wire.posts()[1].body) == [("user", request(2).prompt)]
    assert p.configuration()["memory"] == "none"


@pytest.mark.parametrize("memory", ["none", "transcript"])
async def test_only_a_model_without_memory_decides_from_the_request_alone(
    memory: str, config_for: ConfigFor
) -> None:
    # What a cluster executor asks before it lets a fresh copy of the player take over a seat.
    config = config_for("openai-chat", memory=memory)
    built = build_model_player(parse_player_spec("m"), seed=7, config=config)
    assert isinstance(built, ModelPlayer)
    try:
        assert built.decides_from_request_alone(request(3)) == (memory == "none")
        assert not built.decides_from_request_alone(request(3, feedback="price: must be at most 10"))
    finally:
        await built.close()


def _day(text: str) -> str:
    found = re.search(r"Day \d+", text)
    return found.group() if found else text


async def test_the_oldest_turns_are_dropped_in_blocks_past_the_budget(
    wire: WireServer, config_for: ConfigFor
) -> None:
    # Estimated: system 162 tokens, current prompt 110, each earlier turn 102 + 21: 1500 holds nine turns.
    config = config_for("openai-chat", memory="transcript", memory_budget_tokens=1500)
    await play(config, wire, [request(step) for step in range(1, 13)])
    bodies = [post.body for post in wire.posts()]
    day = [[_day(text) for role, text in texts(body) if role == "user"] for body in bodies]
    assert day[9] == [f"Day {d}" for d in range(1, 11)]  # nine turns fit: nothing dropped
    assert day[10] == ["Day 9", "Day 10", "Day 11"]  # one over: a block of eight dropped
    assert day[11] == ["Day 9", "Day 10", "Day 11", "Day 12"]  # the same first turn: the prefix holds
    assert texts(bodies[10])[0][1].startswith(f"{RULES}\n\nDay 9.")  # the rules head stays first
    assert texts(bodies[11])[:4] == texts(bodies[10])[:4]
    for body in bodies:
        assert sum(len(str(m["content"])) for m in body["messages"]) / 4 <= 1500


async def test_transcripts_are_kept_apart_by_episode_and_seat(
    wire: WireServer, config_for: ConfigFor
) -> None:
    config = config_for("anthropic", memory="transcript")
    await play(
        config, wire, [request(1), request(1, seat="b"), request(1, episode="e2"), request(2, seat="b")]
    )
    bodies = [r.body for r in wire.posts()]
    assert [len(texts(body)) for body in bodies] == [1, 1, 1, 3]
    assert "Day 1" in texts(bodies[3])[0][1] and texts(bodies[3])[1][0] == "assistant"
    # The last remembered reply carries a cache breakpoint, so the history is read from cache.
    assert bodies[3]["messages"][1]["content"][0]["cache_control"] == {"type": "ephemeral"}


async def test_a_re_ask_replaces_the_remembered_reply(wire: WireServer, config_for: ConfigFor) -> None:
    config = config_for("openai-compat", memory="transcript")
    wire.script(reply({**GOOD, "price": 99}))
    built = build_model_player(parse_player_spec("m"), seed=7, config=config)
    assert isinstance(built, ModelPlayer)
    try:
        await built.decide(request(1))
        await play_rest(built, wire)
    finally:
        await built.close()
    second_ask, day_two = (r.body for r in wire.posts()[1:])
    assert [role for role, _ in texts(second_ask)] == ["user", "assistant", "user"]  # prompt, bad reply, note
    remembered = texts(day_two)
    assert len(remembered) == 3 and json.loads(remembered[1][1])["reason"] == "my reply on day 1"


async def play_rest(built: ModelPlayer, wire: WireServer) -> None:
    wire.script(reply(answer(1)), reply(answer(2)))
    await built.decide(request(1, feedback="price: must be at most 10"))
    await built.decide(request(2))
