"""The reason audit end to end: a seat whose reasons lie, in a stored episode, its replay and a tournament."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from arena.app.replay_data import ReplayData
from arena.cli.main import main
from arena.contract.player import Decision, DecisionRequest
from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import run_tournament
from arena.tournament.standings import tournament_table
from games.lemonade.observation import LemonadeObservation
from games.lemonade.rules import LemonadeDecision
from players.models import ModelsConfig
from tests.support.modelkit import settings_for
from tests.support.scripted import ScriptedPlayer
from tests.support.wire_server import WireServer, reply

LIE = "Yesterday I sold 999 cups"  # never true: no day's demand comes near 999


def half_true(request: DecisionRequest) -> Decision:
    """States this morning's cash truly and a sale that never happened."""
    observation = request.observation
    assert isinstance(observation, LemonadeObservation)
    reason = f"Cash is {observation.cash:.2f} yuan; {LIE}, so 20 cups again"
    return Decision(LemonadeDecision(price=3.0, produce=20, reason=reason), reason)


async def play_the_liar(store: Store, days: int = 5) -> int:
    config = MatchConfig(
        "lemonade", {"a": "test:liar", "b": "baseline:weather"}, seed=2, options={"days": days}
    )
    outcome = await play_match(config, store, players={"a": ScriptedPlayer([half_true], spec="test:liar")})
    assert outcome.status == "finished" and outcome.episode_id is not None
    assert outcome.results["a"].metrics["claims"] == 2 * days
    assert outcome.results["a"].metrics["false_claims"] == days
    return outcome.episode_id


async def test_a_lying_seat_has_false_claims_in_its_stored_metrics(store: Store) -> None:
    episode_id = await play_the_liar(store)
    seats = {row["seat"]: row for row in store.seats(episode_id)}
    assert (seats["a"]["metrics"]["claims"], seats["a"]["metrics"]["false_claims"]) == (10, 5)
    assert (seats["b"]["metrics"]["claims"], seats["b"]["metrics"]["false_claims"]) == (0, 0)


async def test_the_replay_shows_the_false_claims_of_the_step(store: Store) -> None:
    episode_id = await play_the_liar(store)
    model = ReplayData.load(store, episode_id)
    model.go(1)
    text = rendered(model)
    assert "a: 2 figures checked, 1 false" in text and "b: no figures stated" in text
    assert "FALSE: sold yesterday (before day 1): said 999, no such day was played" in text
    assert "true: cash this morning: said 50, was 50" in text
    model.go(model.total)
    assert model.warnings() == []  # the rebuilt states match the stored ones
    text = rendered(model)
    assert "a: 10 figures checked, 5 false" in text
    assert "earlier: day 1 FALSE" in text and f'"{LIE}"' in text
    results = dict((row[0], row[1:]) for row in model.result_rows()[1])
    assert results["false_claims"] == [5, 0] and results["claims"] == [10, 0]
    model.view = "a"
    assert "reason audit" not in rendered(model)


def rendered(model: ReplayData) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=200, color_system=None).print(model.render())
    return buffer.getvalue()


@pytest.fixture
def wire() -> Iterator[WireServer]:
    with WireServer() as server:
        yield server


async def test_a_model_seat_that_cites_a_sale_it_never_made_shows_in_the_tournament_metrics(
    db_path: Path, wire: WireServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lie = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "昨天卖了999杯，所以今天做20杯"}
    wire.script(*[reply(lie) for _ in range(2 * 2)])  # two seatings, two days each
    models = ModelsConfig(models={"m": settings_for("openai-compat", wire)})
    config = build_config(
        game="lemonade", players=("m", "baseline:weather"), seeds=1, options={"days": 2}, concurrency=1
    )
    store = Store(db_path)
    try:
        progress = await run_tournament(store, config, models_config=models)
        assert progress.status == "finished" and progress.done == 2
        table = tournament_table(store, progress.tournament_id)
    finally:
        store.close()
    model, weather = table["metrics"]["m"], table["metrics"]["baseline:weather"]
    assert (model["claims"]["mean"], model["false_claims"]["mean"], model["false_claims"]["n"]) == (2, 2, 2)
    assert (weather["claims"]["mean"], weather["false_claims"]["mean"]) == (0, 0)
    assert {"claims", "false_claims"} <= set(table["summary_metrics"])
    monkeypatch.setenv("COLUMNS", "240")
    assert main(["--db", str(db_path), "tournament", "table", str(progress.tournament_id)]) == 0
    # A table wider than the terminal goes on in a "(continued)" table: read every header row.
    headers = [line for line in capsys.readouterr().out.splitlines() if "┃" in line and "player" in line]
    cells = {cell.strip() for header in headers for cell in header.split("┃")}
    assert {"final cash", "claims", "false claims"} <= cells  # whole names in words: no cell is cut short
    assert main(["--db", str(db_path), "tournament", "table", str(progress.tournament_id), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["metrics"]["m"]["false_claims"]["mean"] == 2
