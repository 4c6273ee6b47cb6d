"""The app shows prompt-cache reads and writes per turn and per seat, live and in replay."""

from __future__ import annotations

import pytest

from arena.app.match_data import MatchData
from arena.app.replay_data import ReplayData
from arena.app.widgets.panels import reason_entry
from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from players.models import ModelsConfig
from tests.support.modelkit import CANARY_KEY, KEY_ENV, settings_for
from tests.support.wire_server import WireServer, reply

GOOD = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady at the base price"}


async def test_cache_reads_and_writes_show_in_the_match_and_replay_views(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    players = {"a": "claude", "b": "baseline:weather"}
    view = MatchData("lemonade", list(players), players)
    with WireServer() as wire:
        wire.script(
            reply(GOOD, input_tokens=200, cache_write_tokens=1200),
            reply(GOOD, input_tokens=150, cached_tokens=1200, cache_write_tokens=90),
        )
        models = ModelsConfig(models={"claude": settings_for("anthropic", wire, price_input_per_mtok=3.0)})
        outcome = await play_match(
            MatchConfig("lemonade", players, seed=4, options={"days": 2}),
            store,
            [view],
            models_config=models,
        )
    assert outcome.status == "finished"
    first, second = (reason_entry(line).plain for line in view.reasons["a"])
    assert "[1400+30 tok (1200 written to cache), $" in first
    assert "[1440+30 tok (1200 cached, 90 written to cache), $" in second
    assert view.stats["a"].summary().startswith("2840+60 tok (1200 cached, 1290 written to cache) · $")
    assert "tok" not in view.stats["b"].summary()
    replay = ReplayData.load(store, outcome.episode_id or 0)
    lines = [turn.usage_line() for step in replay.steps for turn in step if turn.seat == "a"]
    assert lines[0].startswith("1400+30 tok (1200 written to cache) · $")
    assert lines[1].startswith("1440+30 tok (1200 cached, 90 written to cache) · $")
