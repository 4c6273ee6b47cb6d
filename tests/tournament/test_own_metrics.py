"""Each player's metrics are its own: tournaments of baselines in a real SQLite file.

A player's row holds only what it earned or did, pooled and per seat where the seats are
roles; the facts of the deals (price, surplus, closed, the dealt numbers) are apart; each game
says what a win means, in the tables, the report and ``arena games``, but not in the prompts.
"""

from __future__ import annotations

import io
import random
import warnings
from collections import defaultdict
from pathlib import Path
from statistics import mean
from typing import Any

import numpy as np
import orjson
import pytest
from rich.console import Console

from arena.cli.main import main
from arena.display.tables import render_table
from arena.plugins.games import game_names, get_game
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.metrics import MetricRoles, _nan_percentile, deal_facts, player_metrics
from arena.tournament.records import EpisodeRecord, outcome_counts
from arena.tournament.report import build_report, markdown
from arena.tournament.run import run_tournament
from arena.tournament.standings import tournament_table

BARGAIN_PLAYERS = ("baseline:honest", "baseline:bluffing", "baseline:pushover")
DEAL_FACTS = {"closed", "price", "in_zone", "seller_gain", "buyer_gain", "surplus", "balance", "own_number"}


def seat_rows(store: Store, tournament_id: int) -> list[tuple[int, str, str, float, dict[str, Any]]]:
    """(episode, seat, player, score, metrics) of every finished episode, read straight from SQL."""
    rows = store.conn.execute(
        "SELECT e.id, s.seat, s.player, s.score, s.metrics"
        " FROM episodes e JOIN seats s ON s.episode_id = e.id"
        " WHERE e.tournament_id = ? AND e.status = 'finished' ORDER BY e.id, s.rowid",
        (tournament_id,),
    ).fetchall()
    return [(eid, seat, player, float(score), orjson.loads(m)) for eid, seat, player, score, m in rows]


def printed(table: dict[str, Any]) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=250, color_system=None).print(render_table(table))
    return buffer.getvalue()


def section(text: str, start: str, end: str | None) -> str:
    """The text from the line holding ``start`` up to the line holding ``end``."""
    after = text[text.index(start) :]
    return after[: after.index(end)] if end else after


async def bargain_tournament(store: Store, seeds: int = 6) -> int:
    config = build_config(game="bargain", players=BARGAIN_PLAYERS, seeds=seeds, seed=5)
    progress = await run_tournament(store, config)
    assert progress.status == "finished"
    return progress.tournament_id


async def test_a_bargain_players_row_holds_only_its_own_gain_with_seller_and_buyer_apart(
    store: Store,
) -> None:
    tournament_id = await bargain_tournament(store)
    table = tournament_table(store, tournament_id)
    rows = seat_rows(store, tournament_id)
    gains: dict[tuple[str, str], list[float]] = defaultdict(list)
    for _, seat, player, _, metrics in rows:
        gains[(player, seat)].append(metrics["gain"])
    for player in BARGAIN_PLAYERS:
        own = table["metrics"][player]
        assert not DEAL_FACTS & set(own), f"{player}'s row repeats the deal: {sorted(DEAL_FACTS & set(own))}"
        assert {"gain", "share", "leaks", "bluffs", "score"} <= set(own)
        both = gains[(player, "seller")] + gains[(player, "buyer")]
        assert own["gain"]["mean"] == pytest.approx(mean(both)) and own["gain"]["n"] == len(both)
        by_seat = table["metrics_by_seat"][player]
        assert list(by_seat) == ["seller", "buyer"]
        for seat in ("seller", "buyer"):
            assert by_seat[seat]["gain"]["mean"] == pytest.approx(mean(gains[(player, seat)]))
            assert by_seat[seat]["gain"]["n"] == len(gains[(player, seat)]) == 12
            assert not DEAL_FACTS & set(by_seat[seat])
    # The bluffer's own gain is not the episode's: as seller it is not the buyer's gain.
    bluffer = table["metrics_by_seat"]["baseline:bluffing"]
    assert bluffer["seller"]["gain"]["mean"] != bluffer["buyer"]["gain"]["mean"]


async def test_the_deal_facts_stand_apart_per_line_up_and_overall(store: Store) -> None:
    tournament_id = await bargain_tournament(store)
    table = tournament_table(store, tournament_id)
    episodes: dict[int, dict[str, tuple[str, dict[str, Any]]]] = defaultdict(dict)
    for eid, seat, player, _, metrics in seat_rows(store, tournament_id):
        episodes[eid][seat] = (player, metrics)
    facts = table["deal_facts"]
    assert {"closed", "in_zone", "price", "surplus", "rounds_used"} <= set(facts["metrics"])
    assert facts["dealt"] == ["own_number"]
    everything = facts["all"]
    assert everything["episodes"] == len(episodes) == 36
    surplus = [seats["seller"][1]["surplus"] for seats in episodes.values()]
    assert everything["metrics"]["surplus"]["mean"] == pytest.approx(mean(surplus))
    closed = [seats["seller"][1]["closed"] for seats in episodes.values()]
    assert everything["metrics"]["closed"]["mean"] == pytest.approx(mean(closed))
    costs = [seats["seller"][1]["own_number"] for seats in episodes.values()]
    values = [seats["buyer"][1]["own_number"] for seats in episodes.values()]
    assert everything["by_seat"]["seller"]["own_number"]["mean"] == pytest.approx(mean(costs))
    assert everything["by_seat"]["buyer"]["own_number"]["mean"] == pytest.approx(mean(values))
    assert len(facts["by_lineup"]) == 6
    for group in facts["by_lineup"]:
        mine = [s for s in episodes.values() if {k: v[0] for k, v in s.items()} == group["seating"]]
        assert group["episodes"] == len(mine) == 6
        price = [s["seller"][1]["price"] for s in mine if s["seller"][1]["price"] is not None]
        assert group["metrics"]["price"]["mean"] == pytest.approx(mean(price))

    text = printed(table)
    own = section(text, "each player's own metrics", "facts of the deals")
    assert "seller" in own and "buyer" in own and "gain" in own and "bluffs" in own
    assert not any(name in own for name in ("surplus", "in zone", "own number", "buyer gain", "closed"))
    deals = section(text, "facts of the deals", "how sure is the order?")
    assert "all deals" in deals and "surplus" in deals and "in zone" in deals  # names in words
    assert "baseline:honest v baseline:bluffing" in deals and "line-up (seller v buyer)" in deals
    assert "own number seller" in deals and "buyer" in deals
    assert "wins, draws and losses: A win is a higher gain than the other side" in text


async def test_a_bargain_win_is_a_higher_gain_than_the_other_side_on_the_same_deal(store: Store) -> None:
    tournament_id = await bargain_tournament(store)
    table = tournament_table(store, tournament_id)
    episodes: dict[int, list[tuple[str, float]]] = defaultdict(list)
    for eid, _, player, _, metrics in seat_rows(store, tournament_id):
        episodes[eid].append((player, float(metrics["gain"])))
    stated = {p: {"wins": 0, "draws": 0, "losses": 0} for p in BARGAIN_PLAYERS}
    for (a, gain_a), (b, gain_b) in episodes.values():
        if gain_a == gain_b:
            stated[a]["draws"] += 1
            stated[b]["draws"] += 1
        else:
            winner, loser = (a, b) if gain_a > gain_b else (b, a)
            stated[winner]["wins"] += 1
            stated[loser]["losses"] += 1
    for row in table["players"]:
        assert {k: row[k] for k in ("wins", "draws", "losses")} == stated[row["player"]]
    assert "higher gain than the other side on the same deal" in table["outcome_rule"]
    assert "no deal" in table["outcome_rule"] and "draw" in table["outcome_rule"]


async def test_the_report_keeps_own_metrics_and_deal_facts_apart(store: Store, tmp_path: Path) -> None:
    tournament_id = await bargain_tournament(store, seeds=3)
    report = build_report(store, tournament_id)
    assert report["outcome_rule"] == get_game("bargain").outcome_rule
    assert not DEAL_FACTS & set(report["metrics"]["baseline:bluffing"])
    assert set(report["metrics_by_seat"]["baseline:bluffing"]) == {"seller", "buyer"}
    assert report["deal_facts"]["all"]["episodes"] == 18
    text = markdown(report)
    assert "## Wins, draws and losses" in text and "higher gain than the other side" in text
    own = section(text, "## Each player's own metrics", "## Facts of the deals")
    assert "  - as seller: " in own and "  - as buyer: " in own and "surplus" not in own
    deals = section(text, "## Facts of the deals", "## Cost")
    assert "- all deals (18): " in deals and "surplus" in deals
    assert "- seller baseline:honest, buyer baseline:bluffing (3): " in deals
    assert "- dealt to each seat, whoever held it: own number: seller " in deals


async def test_a_lemonade_players_row_is_broken_down_by_stand_position(store: Store) -> None:
    players = ("baseline:weather", "baseline:cost-plus", "baseline:random")
    options = {"days": "3", "stands": "3"}
    config = build_config(game="lemonade", players=players, seeds=2, seed=1, options=options)
    progress = await run_tournament(store, config)
    table = tournament_table(store, progress.tournament_id)
    cash: dict[tuple[str, str], list[float]] = defaultdict(list)
    for _, seat, player, _, metrics in seat_rows(store, progress.tournament_id):
        cash[(player, seat)].append(metrics["final_cash"])
    for player in players:
        by_seat = table["metrics_by_seat"][player]
        assert list(by_seat) == ["a", "b", "c"]
        for seat in "abc":
            assert by_seat[seat]["final_cash"]["mean"] == pytest.approx(mean(cash[(player, seat)]))
        pooled = [value for seat in "abc" for value in cash[(player, seat)]]
        assert table["metrics"][player]["final_cash"]["mean"] == pytest.approx(mean(pooled))
    # Lemonade declares no facts of the deal: nothing is shown as one.
    assert table["deal_facts"]["metrics"] == [] and table["deal_facts"]["by_lineup"] == []
    text = printed(table)
    own = section(text, "each player's own metrics", "how sure is the order?")
    assert "final cash" in own and "│ a " in own and "│ c " in own
    assert "facts of the deals" not in text
    assert "wins, draws and losses: A win is the most cash at the end" in text


async def test_paperclip_racers_share_one_seat_kind_so_no_breakdown(store: Store) -> None:
    players = ("baseline:oracle", "baseline:sloppy")
    config = build_config(game="paperclip", players=players, seeds=2, seed=1, options={"puzzles": "2"})
    progress = await run_tournament(store, config)
    table = tournament_table(store, progress.tournament_id)
    assert table["metrics_by_seat"] == {}
    assert "puzzles" not in table["metrics"]["baseline:oracle"]
    assert table["deal_facts"]["all"]["metrics"]["puzzles"]["mean"] == 2.0
    text = printed(table)
    own = section(text, "each player's own metrics", "facts of the deals")
    assert "┃ player" in own and "┃ seat" not in own, "racers' seats are not told apart"


def test_declared_episode_facts_are_equal_for_every_seat_of_an_episode() -> None:
    # deal_facts reads an episode fact off one seat: the declaration must hold for the games.
    for name in ("bargain", "paperclip", "lemonade"):
        definition = get_game(name)
        for seed in range(6):
            state = definition.create(seed, {"puzzles": 2} if name == "paperclip" else {})
            rng = random.Random(seed)
            while state.pending():
                state.apply({seat: state.sample_action(seat, rng) for seat in state.pending()})
            results = state.result()
            for metric in definition.episode_metrics:
                values = {repr(result.metrics.get(metric)) for result in results.values()}
                assert len(values) == 1, f"{name} {metric} differs between seats: {values}"


def test_the_outcome_rule_is_stated_for_people_and_kept_out_of_the_prompts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for listing in (["games"], ["games", "openspiel"], ["games", "textarena"]):
        assert main(listing) == 0
    out = capsys.readouterr().out
    for name in game_names():
        definition = get_game(name)
        assert f"\twins, draws and losses: {definition.outcome_rule}" in out
        state = definition.create(0)
        for seat in state.pending():
            assert definition.outcome_rule not in definition.prompt_for(state, seat)
    assert get_game("bargain").outcome_rule != get_game("lemonade").outcome_rule


def test_without_roles_every_metric_stays_a_players_own() -> None:
    record = EpisodeRecord(
        "k", 1, {"x": "a", "y": "b"}, {"x": 1.0, "y": 0.0}, metrics={"x": {"price": 5}, "y": {"price": 5}}
    )
    overall, by_seat = player_metrics([record], resamples=10)
    assert overall["a"]["price"].mean == 5.0 and by_seat["a"]["x"]["price"].n == 1
    roles = MetricRoles(episode=frozenset({"price"}), by_seat=False)
    overall, by_seat = player_metrics([record], resamples=10, roles=roles)
    assert "price" not in overall["a"] and by_seat == {}
    facts = deal_facts([record], roles=roles, resamples=10)
    assert facts["all"]["metrics"]["price"]["n"] == 1, "one value per episode, not one per seat"
    assert outcome_counts([record])["a"]["wins"] == 1


def test_the_fast_percentile_is_numpys_nanpercentile_to_the_bit() -> None:
    rng = np.random.default_rng(1)
    for _ in range(200):
        values = rng.normal(size=(int(rng.integers(1, 60)), int(rng.integers(1, 20)))) * 50
        values[rng.random(values.shape) < rng.random() * 0.9] = np.nan
        for q in (2.5, 50.0, 97.5):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN column
                want = np.nanpercentile(values, q, axis=0)
            got = _nan_percentile(values, q)
            assert np.array_equal(want, got, equal_nan=True)
