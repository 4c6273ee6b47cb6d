"""Seeds reach the model: one per decision, derived from episode seed, seat, step and attempt."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from arena.plugins.players import parse_player_spec
from players.models import ModelPlayer, ModelsConfig, build_model_player
from players.models.prompting import decision_seed
from tests.support.modelkit import GOOD, make_request
from tests.support.wire_server import WireServer, reply

ConfigFor = Callable[..., ModelsConfig]


async def sent_bodies(
    config: ModelsConfig, wire: WireServer, episode_seed: int, steps: list[tuple[int, int]]
) -> list[Any]:
    """POST bodies of one decision per (step, attempt), by a player of ``episode_seed``."""
    built = build_model_player(parse_player_spec("m"), seed=episode_seed, config=config)
    assert isinstance(built, ModelPlayer)
    before = len(wire.posts())
    wire.script(*(reply(GOOD) for _ in steps))
    try:
        for step, attempt in steps:
            decision = await built.decide(
                make_request(step=step, attempt=attempt, feedback="x" if attempt > 1 else None)
            )
            assert decision.error is None, decision.error_detail
            assert decision.sampling is not None
    finally:
        await built.close()
    return [r.body for r in wire.posts()[before:]]


@pytest.mark.parametrize("provider", ["openai-chat", "openai-compat"])
async def test_chat_calls_carry_a_seed_per_decision(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    config = config_for(provider, temperature=0.3)
    steps = [(0, 1), (1, 1), (1, 2)]
    first = await sent_bodies(config, wire, 42, steps)
    again = await sent_bodies(config, wire, 42, steps)
    other = await sent_bodies(config, wire, 43, steps)
    seeds = [body["seed"] for body in first]
    assert seeds == [decision_seed(42, "a", step, attempt) for step, attempt in steps]
    assert seeds == [body["seed"] for body in again]  # same episode seed, same seeds
    assert len(set(seeds)) == 3  # another step or a re-ask, another seed
    assert not set(seeds) & {body["seed"] for body in other}
    assert all(isinstance(seed, int) and 0 <= seed < 2**31 for seed in seeds)
    assert all(body["temperature"] == 0.3 for body in first)


@pytest.mark.parametrize("provider", ["openai-responses", "anthropic"])
async def test_apis_without_a_seed_parameter_get_none(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    (body,) = await sent_bodies(config_for(provider), wire, 42, [(0, 1)])
    assert "seed" not in body


@pytest.mark.parametrize("provider", ["openai-responses", "openai-chat", "anthropic", "openai-compat"])
async def test_the_recorded_sampling_settings_are_the_ones_sent(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    config = config_for(provider, temperature=0.7, max_output_tokens=333)
    built = build_model_player(parse_player_spec("m"), seed=9, config=config)
    assert isinstance(built, ModelPlayer)
    wire.script(reply(GOOD))
    decision = await built.decide(make_request())
    await built.close()
    body = wire.posts()[-1].body
    assert decision.sampling
    for name, value in decision.sampling.items():
        assert body[name] == value, name
    assert set(decision.sampling) >= {"temperature"} and 333 in decision.sampling.values()
