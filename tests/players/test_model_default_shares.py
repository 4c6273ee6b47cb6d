"""Tell a choice from a default (issue 47.5): own decisions equal to the fallback or the first option."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from arena.display.tables import render_table
from arena.engine.export import export_episode
from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import run_tournament
from arena.tournament.standings import tournament_table
from players.models import ModelsConfig
from tests.support.modelkit import CANARY_KEY, KEY_ENV, settings_for
from tests.support.wire_server import WireServer, reply


async def test_decisions_equal_to_the_fallback_or_the_first_option_are_counted_and_exported(
    wire: WireServer, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    # Day 1: exactly the fallback (3.00, 20 cups, no promotion), whose promotion is the first listed.
    # Day 2: a choice of its own (4.00 with a discount).
    fallback_day = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "as the fallback"}
    own_day = {"price": 4.0, "produce": 20, "promotion": "discount", "reason": "my own"}
    wire.script(reply(fallback_day), reply(own_day))
    models = ModelsConfig(models={"m": settings_for("openai-chat", wire)})
    outcome = await play_match(
        MatchConfig("lemonade", {"a": "m", "b": "baseline:weather"}, seed=3, options={"days": 2}),
        store,
        models_config=models,
    )
    assert outcome.status == "finished"
    metrics = outcome.results["a"].metrics
    assert metrics["fallbacks"] == 0
    assert (metrics["same_as_fallback"], metrics["first_option"]) == (1, 1)
    assert (metrics["same_as_fallback_rate"], metrics["first_option_rate"]) == (0.5, 0.5)
    assert "first_option" not in outcome.results["b"].metrics  # counted for models only
    exported = export_episode(store, outcome.episode_id or 0)
    assert "first_option_rate" in str(exported)


async def test_the_tournament_table_shows_each_players_default_shares(
    wire: WireServer, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    # One deal in both seatings, one day each: every reply is exactly the first day's fallback.
    day = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "as the fallback"}
    wire.script(reply(day), reply(day))
    config = build_config(
        game="lemonade", players=("m", "baseline:weather"), seeds=1, options={"days": 1}, concurrency=1
    )
    models = ModelsConfig(models={"m": settings_for("openai-chat", wire)})
    progress = await run_tournament(store, config, models_config=models)
    assert progress.status == "finished"
    table = tournament_table(store, progress.tournament_id, resamples=50)
    assert table["metrics"]["m"]["same_as_fallback_rate"]["mean"] == 1.0
    assert table["metrics"]["m"]["first_option_rate"]["mean"] == 1.0
    console = Console(width=240, record=True, file=io.StringIO())
    console.print(render_table(table))
    text = console.export_text()
    assert "same as fallback rate" in text and "first option rate" in text
