"""A model with no price spends tokens at an unknown cost: no front end shows it as $0.

One match, an unpriced model beside a priced one, through the real SDK and the wire server:
the console's turn lines and results table, the app's reasons and seat totals, and the
replay all say "no price" for the unpriced seat and dollars for the priced one. The stored
columns keep 0 for the unpriced dollars, as they always have; the row export writes null.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from arena.app.match_data import MatchData
from arena.app.replay_data import ReplayData
from arena.app.widgets.panels import reason_entry
from arena.cli.output import results_table, turn_line
from arena.contract.records import CallbackObserver, EpisodeEnded, Event, TurnsRecorded
from arena.engine import bulk_export
from arena.engine.export_formats import read_rows, write_export
from arena.engine.match import MatchConfig, play_match
from arena.plugins.players import parse_player_spec
from arena.store.database import Store
from players.models import ModelsConfig
from players.models.config import parse_models_config
from tests.support.modelkit import CANARY_KEY, KEY_ENV, settings_for
from tests.support.wire_server import WireServer, reply

GOOD = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady at the base price"}


def rendered(table: object) -> str:
    console = Console(width=200, record=True)
    console.print(table)
    return console.export_text()


async def test_an_unpriced_model_shows_no_price_where_a_priced_one_shows_dollars(
    store: Store, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    players = {"a": "free", "b": "paid"}
    view = MatchData("lemonade", list(players), players)
    events: list[Event] = []
    with WireServer() as wire:
        wire.script(*(reply(GOOD, input_tokens=200, output_tokens=30) for _ in range(4)))
        paid = settings_for("openai-chat", wire, price_input_per_mtok=2.0, price_output_per_mtok=8.0)
        models = ModelsConfig(models={"free": settings_for("openai-chat", wire), "paid": paid})
        outcome = await play_match(
            MatchConfig("lemonade", players, seed=4, options={"days": 2}),
            store,
            [view, CallbackObserver(events.append)],
            models_config=models,
        )
    assert outcome.status == "finished"
    free, spent = outcome.usage["a"], outcome.usage["b"]
    assert free.unpriced and free.total_tokens == 460 and free.cost_usd == 0.0
    assert not spent.unpriced and spent.cost_usd == pytest.approx(2 * (200 * 2.0 + 30 * 8.0) / 1e6)

    turns = [turn for event in events if isinstance(event, TurnsRecorded) for turn in event.turns]
    lines = {turn.seat: turn_line(turn, players[turn.seat]).plain for turn in turns}
    assert "[200+30 tok, no price, " in lines["a"] and "$0" not in lines["a"]
    assert "[200+30 tok, $0.0006, " in lines["b"]
    ended = events[-1]
    assert isinstance(ended, EpisodeEnded)
    table = rendered(results_table(ended.results, players, ended.usage))
    cost_row = next(line for line in table.splitlines() if "cost usd" in line)
    assert "no price" in cost_row and "0.0013" in cost_row and "0.0000" not in cost_row

    for line in view.reasons["a"]:
        assert "no price" in reason_entry(line).plain and "$0" not in reason_entry(line).plain
    assert view.stats["a"].summary().startswith("400+60 tok · no price · ")
    assert view.stats["b"].summary().startswith("400+60 tok · $0.0013 · ")

    replay = ReplayData.load(store, outcome.episode_id or 0)
    shown = {turn.seat: turn.usage_line() for step in replay.steps for turn in step}
    assert shown["a"].startswith("200+30 tok · no price · ")
    assert shown["b"].startswith("200+30 tok · $0.0006 · ")

    seats = {seat["seat"]: seat for seat in store.seats(outcome.episode_id or 0)}
    assert seats["a"]["cost_usd"] == 0.0 and seats["a"]["input_tokens"] == 400  # the stored columns as ever

    # The row export (CSV, Parquet, JSON Lines) writes an unknown cost as null: a sum is no lie.
    ids = [outcome.episode_id or 0]
    [(_, seat_rows)] = list(bulk_export.rows_of(store, ids, "seats"))
    [(_, turn_rows)] = list(bulk_export.rows_of(store, ids, "turns"))
    assert {row["seat"]: row["cost_usd"] for row in seat_rows} == {"a": None, "b": spent.cost_usd}
    assert {row["cost_usd"] for row in turn_rows if row["seat"] == "a"} == {None}
    assert all(row["cost_usd"] > 0 for row in turn_rows if row["seat"] == "b")
    assert {row["input_tokens"] for row in turn_rows if row["seat"] == "a"} == {200}, "tokens still counted"
    for fmt in ("csv", "parquet"):  # an empty cell and a Parquet null, read back as None
        target = tmp_path / f"seats.{fmt}"
        write_export(store, ids, "seats", "none", fmt, target)
        read = {row["seat"]: row["cost_usd"] for row in read_rows(target, fmt, bulk_export.SEAT_COLUMNS)}
        assert read["a"] is None and read["b"] == pytest.approx(spent.cost_usd), fmt


async def test_a_model_priced_at_zero_on_purpose_is_free_and_one_left_unpriced_is_not(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both prices given as 0 in the models file: $0 is known. A price left out (also 0) stays unknown."""
    from arena.contract.usage import unpriced_seat

    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    players = {"a": "free", "b": "left-out"}
    events: list[Event] = []
    with WireServer() as wire:
        wire.script(*(reply(GOOD, input_tokens=200, output_tokens=30) for _ in range(2)))
        free = settings_for("openai-chat", wire, price_input_per_mtok=0.0, price_output_per_mtok=0.0)
        models = ModelsConfig(models={"free": free, "left-out": settings_for("openai-chat", wire)})
        outcome = await play_match(
            MatchConfig("lemonade", players, seed=4, options={"days": 1}),
            store,
            [CallbackObserver(events.append)],
            models_config=models,
        )
    assert outcome.status == "finished"
    assert not outcome.usage["a"].unpriced and outcome.usage["b"].unpriced
    turns = [turn for event in events if isinstance(event, TurnsRecorded) for turn in event.turns]
    lines = {turn.seat: turn_line(turn, players[turn.seat]).plain for turn in turns}
    assert "[200+30 tok, $0.0000, " in lines["a"]
    assert "no price" in lines["b"] and "$0" not in lines["b"]
    seats = {seat["seat"]: seat for seat in store.seats(outcome.episode_id or 0)}
    assert seats["a"]["config"]["free"] is True and not unpriced_seat(seats["a"]["config"])
    assert "free" not in seats["b"]["config"], "a configuration without a price is stored as it always was"
    assert unpriced_seat(seats["b"]["config"])


def test_memory_options_on_a_spec_keep_what_the_models_file_said_about_prices() -> None:
    """``?memory=...`` rebuilds the settings: a model with no prices stays unpriced, a free one free.

    The options are applied over the settings; had every field been copied as if the file
    had set it, a model without prices would be stored as ``"free": true`` and its
    configuration hash would change.
    """
    config = parse_models_config(
        {
            "models": {
                "zero": {
                    "provider": "openai",
                    "model": "m0",
                    "price_input_per_mtok": 0,
                    "price_output_per_mtok": 0,
                },
                "paid": {
                    "provider": "openai",
                    "model": "m1",
                    "price_input_per_mtok": 0.4,
                    "price_output_per_mtok": 1.6,
                },
            }
        }
    )
    _, bare = config.resolve(parse_player_spec("openai:gpt-4.1-mini?memory=transcript"))
    assert bare.memory == "transcript"
    assert not bare.explicitly_free and not bare.has_price
    _, zero = config.resolve(parse_player_spec("openai:m0?memory=transcript&memory_budget_tokens=5000"))
    assert zero.explicitly_free and zero.has_price and zero.memory_budget_tokens == 5000
    _, paid = config.resolve(parse_player_spec("openai:m1?memory=transcript"))
    assert not paid.explicitly_free and paid.has_price and paid.price_output_per_mtok == 1.6
