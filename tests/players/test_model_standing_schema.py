"""A hosted model is asked in the game's standing schema, so what providers cache stays the same.

Lemonade narrows its action model to each morning (at most the cups the cash pays for); the
offline model decodes under that narrowed schema (tests/players/test_model_grammar.py). A hosted
model's system message and structured-output schema are written from the standing model: the
schema leads what OpenAI caches, so one that changed every morning left nothing cached, and the
REPROBE manifest could state no single system message.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from games.lemonade.rules import LemonadeDecision, decision_model
from players.models import ModelsConfig
from players.models.schema import standing_model
from tests.support.wire_server import WireServer, reply

GOOD = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady at the base price"}


def test_a_moments_model_stands_for_the_model_it_narrows() -> None:
    assert standing_model(decision_model(41)) is LemonadeDecision
    assert standing_model(LemonadeDecision) is LemonadeDecision


@pytest.mark.parametrize("provider", ["openai-compat", "openai-responses", "anthropic"])
async def test_every_morning_sends_the_same_system_message_and_schema(
    config_for: Callable[..., ModelsConfig], wire: WireServer, store: Store, provider: str
) -> None:
    wire.script(*[reply(GOOD) for _ in range(4)])
    models = config_for(provider)
    outcome = await play_match(
        MatchConfig("lemonade", {"a": "m", "b": "baseline:weather"}, seed=5, options={"days": 4}),
        store,
        models_config=models,
    )
    assert outcome.status == "finished"
    bodies = [post.body for post in wire.posts()]
    assert len(bodies) == 4

    def fixed_part(body: dict[str, Any]) -> str:
        """Everything a request carries but its conversation: system, schema, tools."""
        kept = {k: v for k, v in body.items() if k not in {"messages", "input", "metadata", "seed"}}
        system = [m for m in body.get("messages") or body.get("input") or [] if m.get("role") == "system"]
        return json.dumps([kept, system], sort_keys=True)

    assert len({fixed_part(body) for body in bodies}) == 1, "the system message and schema stay the same"
    # the mornings differ (what the cash pays for), and the prompt says so in words
    assert (
        len({json.dumps(body.get("messages") or body.get("input"), sort_keys=True) for body in bodies}) == 4
    )
