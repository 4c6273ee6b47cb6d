"""Claims only along games that were played, intervals no narrower than the data (issue 43).

A table may say "swept", "beats" or how sure an order is only between players joined by
games they played: directly, inside one tier (the fit links them through its games), or
through a chain of sweeps it names. Data with no spread (every game drawn, every seed the
same) say little, and the intervals say so.
"""

from __future__ import annotations

import json
import math
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arena.cli.main import main
from arena.tournament.confidence import (
    CEILING,
    NOT_COMPARABLE,
    SEPARATED,
    SWEPT,
    UNDECIDED,
    seeds_range,
)
from arena.tournament.intervals import exact_share_interval, sweep_points
from arena.tournament.ratings import ELO, comparisons
from arena.tournament.records import EpisodeRecord
from arena.tournament.tables import tables
from arena.tournament.wording import separation_text
from tests.tournament.test_table_edges import ordered_pool, text_of


def game(seed: int, first: str, second: str, first_score: float, second_score: float) -> EpisodeRecord:
    key = f"{seed}/{first}/{second}/{first_score}"
    return EpisodeRecord(key, seed, {"x": first, "y": second}, {"x": first_score, "y": second_score})


def both_seatings(seed: int, a: str, b: str, a_wins: int) -> list[EpisodeRecord]:
    """a and b in both seatings on ``seed``; a wins ``a_wins`` of the two (1: one each)."""
    return [
        game(seed, a, b, float(a_wins >= 1), float(a_wins < 1)),
        game(seed, b, a, float(a_wins < 2), float(a_wins >= 2)),
    ]


def partial_sweep_pool(seeds: int = 10) -> list[EpisodeRecord]:
    """``sweeper`` beats ``b`` and ``c`` on every seed and never meets ``d``, the best of b, c, d."""
    records = []
    for seed in range(seeds):
        records += both_seatings(seed, "sweeper", "b", 2) + both_seatings(seed, "sweeper", "c", 2)
        records += both_seatings(seed, "b", "c", 1)
        records += both_seatings(seed, "d", "b", 1 if seed % 4 == 0 else 2)
        records += both_seatings(seed, "d", "c", 1 if seed % 3 == 0 else 2)
    return records


def sweep_steps_were_played(rows: list[dict[str, Any]], records: list[EpisodeRecord]) -> None:
    """Every "swept" row is a chain of pairs that met, the lower never scoring against the upper."""
    data = comparisons(records)
    index = {p: i for i, p in enumerate(data.players)}
    for row in rows:
        if row["status"] != SWEPT:
            continue
        chain = [row["higher"], *row.get("sweep_via", []), row["lower"]]
        for upper, lower in pairwise(chain):
            a, b = index[upper], index[lower]
            assert data.games[a, b] > 0, f"{upper} and {lower} never met, yet the table says swept"
            assert data.total[b, a] == 0, f"{lower} scored against {upper}: not a sweep"


def orders_rest_on_games(players: list[dict[str, Any]], order: list[dict[str, Any]]) -> None:
    """A strictly better rank between neighbours of different tiers needs a chain of sweeps."""
    by_pair = {(row["higher"], row["lower"]): row for row in order}
    for upper, lower in pairwise(players):
        if upper["group"] != lower["group"] or upper["group"] is None:
            continue
        row = by_pair[upper["player"], lower["player"]]
        if upper["rank"] < lower["rank"] and row["status"] == NOT_COMPARABLE:
            pytest.fail(f"{upper['player']} ranked above {lower['player']} with nothing deciding it")
        if row["status"] == NOT_COMPARABLE:
            assert upper["rank"] == lower["rank"] and row["p_order_right"] == 0.5


def test_a_partial_sweep_claims_nothing_against_a_player_it_never_met() -> None:
    records = partial_sweep_pool()
    table = tables(records, resamples=200)
    players, order = table["players"], table["order_confidence"]
    assert [row["player"] for row in players[:2]] == ["sweeper", "d"]
    top = order[0]
    assert (top["higher"], top["lower"], top["status"], top["why"]) == (
        "sweeper",
        "d",
        NOT_COMPARABLE,
        UNDECIDED,
    )
    assert top["p_order_right"] == 0.5 and top["diff"] is None
    assert players[0]["rank"] == players[1]["rank"] == 1, "never met: one shared rank"
    # the sweeper's bound is against a player it did beat, at the far end of that player's interval
    bound = players[0]["bound"]
    assert bound["other"] in ("b", "c") and bound["seeds"] == 10
    other = next(row for row in players if row["player"] == bound["other"])
    assert players[0]["rating_low"] == pytest.approx(other["rating_low"] + sweep_points(10))
    sweep_steps_were_played(order, records)
    orders_rest_on_games(players, order)
    text = text_of(table)
    assert "swept (10 of 10 seeds)" not in text
    assert "not comparable (no games between them decide the order)" in text
    # the old table claimed "swept (10 of 10 seeds)" of sweeper over d, who never met


def test_a_chain_of_sweeps_is_named() -> None:
    records = ordered_pool(["top", "middle", "bottom"], seeds=8)
    records = [r for r in records if set(r.seating.values()) != {"top", "bottom"}]  # top never meets bottom
    records += [game(s, "bottom", "other", 1.0, 0.0) for s in range(8)]
    records += [game(s, "other", "bottom", 1.0, 0.0) for s in range(8)]
    table = tables(records, resamples=100)
    order = {(row["higher"], row["lower"]): row for row in table["order_confidence"]}
    assert order["top", "middle"]["status"] == SWEPT and not order["top", "middle"]["sweep_via"]
    sweep_steps_were_played(table["order_confidence"], records)
    assert [row["rank"] for row in table["players"]] == [1, 2, 3, 3]


@pytest.fixture(scope="module")
def leaderboard_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bargain tournament (honest, bluffing, random) and a lemonade one (cost-plus, random)."""
    db = tmp_path_factory.mktemp("claims") / "arena.db"
    runs = [
        ["bargain", "--seeds", "10", "--player", "baseline:honest", "--player", "baseline:bluffing"],
        ["lemonade", "--seeds", "10", "--option", "days=3", "--player", "baseline:cost-plus"],
    ]
    for run in runs:
        argv = ["--db", str(db), "tournament", "run", *run, "--player", "baseline:random"]
        assert main(argv) == 0
    return db


def test_the_leaderboard_orders_players_only_along_games_played(
    leaderboard_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["--db", str(leaderboard_db), "leaderboard", "1", "2", "--json"]) == 0
    board = json.loads(capsys.readouterr().out)
    players, order = board["players"], board["order_confidence"]
    names = [row["player"] for row in players]
    assert set(names) == {"baseline:honest", "baseline:bluffing", "baseline:cost-plus", "baseline:random"}
    orders_rest_on_games(players, order)
    for row in order:
        pair = {row["higher"], row["lower"]}
        if pair == {"baseline:cost-plus", "baseline:bluffing"} or pair == {
            "baseline:cost-plus",
            "baseline:honest",
        }:
            assert row["status"] == NOT_COMPARABLE, f"{pair} never met: {row['status']}"
    # a player ranked above another has a lower bound no smaller than nothing claims against it
    for upper, lower in pairwise(players):
        if upper["rank"] < lower["rank"] and upper["rating"] is None and lower["rating"] is not None:
            assert upper["rating_low"] is None or upper["rating_low"] >= lower["rating_low"]
    capsys.readouterr()
    assert main(["--db", str(leaderboard_db), "leaderboard", "1", "2"]) == 0
    text = capsys.readouterr().out
    assert "prior: 1 virtual comparison per pair that met" in text


def all_draws(players: list[str], seeds: int) -> list[EpisodeRecord]:
    records = []
    for seed in range(seeds):
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                records += [game(seed, a, b, 0.5, 0.5), game(seed, b, a, 0.5, 0.5)]
    return records


def test_all_draws_say_how_little_is_known_and_share_one_rank() -> None:
    table = tables(all_draws(["a", "b", "c"], seeds=10), resamples=200)
    high = exact_share_interval(5.0, 10)[1]  # a 50% share over 10 seeds
    half = ELO * math.log(high / (1 - high))
    for row in table["players"]:
        assert row["rating"] == pytest.approx(1000.0)
        assert row["rating_low"] == pytest.approx(1000 - half, abs=0.5)
        assert row["rating_high"] == pytest.approx(1000 + half, abs=0.5)
        assert row["rank"] == 1
    assert half > 200  # 10 seeds of draws: the share is anywhere from 0.19 to 0.81
    # the metric means read the same on every seed: no zero-width interval is printed for them
    text = text_of(table)
    assert not re.search(r"\((-?[\d.]+)\.\.\1\)", text), text
    assert "(no spread: no interval)" in text
    assert all(row["status"] != SEPARATED for row in table["order_confidence"])
    assert all(row["p_order_right"] == pytest.approx(0.5) for row in table["order_confidence"])
    # 120 games of draws for one player among varying others: still the binomial width
    many = all_draws(["a", "b", "c"], seeds=20)
    many += [game(s, "b", "c", float(s % 3 == 0), float(s % 3 != 0)) for s in range(20)]
    rows = {row["player"]: row for row in tables(many, resamples=200)["players"]}
    assert rows["a"]["rating_high"] - rows["a"]["rating_low"] > 200


def test_identical_seeds_are_not_separated_by_a_small_gap() -> None:
    records = []
    for seed in range(12):
        records += both_seatings(seed, "a", "b", 1) + both_seatings(seed, "a", "c", 1)
        records += [game(seed, "b", "c", 1.0, 0.0), game(seed, "c", "b", 0.5, 0.5)]
    table = tables(records, resamples=200)
    rows = table["players"]
    assert all(row["rating_high"] - row["rating_low"] > 100 for row in rows)
    for pair in table["order_confidence"]:
        assert pair["status"] != SEPARATED and pair["p_order_right"] < 0.9, pair


def test_a_forecast_past_the_ceiling_says_perhaps_never() -> None:
    status, middle, low, high = seeds_range(diff=4.0, se=30.0, seeds_now=100)
    assert status == "more_seeds" and low is not None and low <= CEILING
    assert middle is None or middle <= CEILING
    assert high is None  # the old forecast's high end was 3e+05 seeds here
    row = {"status": status, "more_seeds": middle, "more_seeds_low": low, "more_seeds_high": high}
    assert "more than 10,000: perhaps never" in separation_text(row)
    # even the optimistic end past the ceiling: no forecast at all
    assert seeds_range(diff=0.01, se=30.0, seeds_now=5000)[0] == "not_separable"


def test_a_sweep_of_very_few_seeds_bounds_no_gap() -> None:
    table = tables(ordered_pool(["weather", "cost-plus", "random"], seeds=3), resamples=100)
    assert sweep_points(3) < 0  # 3 of 3 seeds: the win chance may be as low as 0.29
    top, _, bottom = table["players"]
    assert top["bound"]["points"] is None and top["rating_low"] is None
    assert bottom["bound"]["points"] is None and bottom["rating_high"] is None
    text = text_of(table)
    # the side in the rating column, how few seeds (and so no gap) in the interval column
    assert re.search(r"above cost-plus[ │]+only 3 seeds ", text), text
    assert re.search(r"below cost-plus[ │]+only 3 seeds ", text), text
    assert "−" not in text.split("how sure")[0].split("ratings")[1]  # no negative gap anywhere
    assert "prior: 1 virtual comparison per pair that met" in text
    sure = {(row["higher"], row["lower"]): row for row in table["order_confidence"]}
    assert sure["weather", "cost-plus"]["diff"] is None and sure["weather", "cost-plus"]["status"] == SWEPT


def test_the_spreadless_floor_is_the_exact_binomial_interval() -> None:
    assert exact_share_interval(0.0, 10)[0] == 0.0 and exact_share_interval(10.0, 10)[1] == 1.0
    low, high = exact_share_interval(20.0, 40)
    assert low == pytest.approx(0.33802, abs=1e-4) and high == pytest.approx(0.66198, abs=1e-4)
    assert np.isclose(sum(exact_share_interval(2.5, 7)), 0.0647 + 0.7655, atol=1e-3)
