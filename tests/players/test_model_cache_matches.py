"""Whole lemonade matches with output caps, transcript memory and a prompt-caching wire server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli.main import main
from arena.engine.export import export_episode
from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from players.models import ModelsConfig
from tests.support.episodes import stored_turns
from tests.support.modelkit import settings_for
from tests.support.wire_server import WireServer, reply, truncated

GOOD = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady at the base price"}


@pytest.fixture
def wire() -> object:
    with WireServer() as server:
        yield server


async def test_a_truncated_reply_is_re_asked_once_then_falls_back(wire: WireServer, store: Store) -> None:
    wire.script(truncated(), truncated(), reply(GOOD))
    models = ModelsConfig(models={"m": settings_for("openai-compat", wire)})
    outcome = await play_match(
        MatchConfig("lemonade", {"a": "m", "b": "baseline:weather"}, seed=5, options={"days": 2}),
        store,
        models_config=models,
    )
    assert outcome.status == "finished"
    turns = [t for t in stored_turns(store, outcome.episode_id or 0) if t["seat"] == "a"]
    assert [(t["error"], t["fallback"]) for t in turns] == [("truncated", 1), (None, 0)]
    assert len(turns[0]["attempts"]) == 2
    bodies = [post.body for post in wire.posts()]
    assert len(bodies) == 3 and {body["max_tokens"] for body in bodies} == {256}
    reason = bodies[0]["response_format"]["json_schema"]["schema"]["properties"]["reason"]
    assert reason["maxLength"] == 300


def test_memory_and_cached_tokens_show_per_turn_per_episode_and_in_the_export(
    wire: WireServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ARENA_MODELS", raising=False)  # main() sets it from --models
    wire.prompt_cache = True
    wire.script(*[reply(GOOD) for _ in range(5)])
    models = tmp_path / "models.toml"
    models.write_text(
        f'[models.wired]\nprovider = "openai-compat"\nmodel = "t"\nbase_url = "{wire.openai_url}"\n'
        'memory = "transcript"\nprice_input_per_mtok = 1.0\n'
    )
    db = tmp_path / "arena.db"
    argv = ["--db", str(db), "--models", str(models), "play", "lemonade", "--seat", "a=wired"]
    assert main([*argv, "--seat", "b=baseline:weather", "--option", "days=5"]) == 0
    out = capsys.readouterr().out
    assert " cached)" in out  # a turn line names the cached input tokens
    assert "cached input" in out and "cost usd" in out  # the results table, per episode
    store = Store(db)
    try:
        (episode,) = store.list_episodes()
        document = export_episode(store, episode["id"])
    finally:
        store.close()
    seat = next(s for s in document["seats"] if s["seat"] == "a")
    turns = [t for t in document["turns"] if t["seat"] == "a"]
    cached = [t["usage"]["cached_tokens"] for t in turns]
    assert cached[0] == 0 and cached[-1] >= 1024
    assert seat["usage"]["cached_tokens"] == sum(cached)
    fresh = seat["usage"]["input_tokens"] - sum(cached)
    assert seat["usage"]["cost_usd"] == pytest.approx((fresh * 1.0 + sum(cached) * 0.1) / 1e6)
    assert seat["config"]["memory"] == "transcript" and seat["config"]["memory_budget_tokens"] == 8000
    last = wire.posts()[-1].body["messages"]
    assert [m["role"] for m in last] == ["system", *["user", "assistant"] * 4, "user"]
    assert json.loads(last[2]["content"]) == GOOD
