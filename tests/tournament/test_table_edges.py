"""The tables at the edges: clean sweeps, pools that never met, players with no game, many seats."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from rich.console import Console

from arena.cli.main import main
from arena.display.tables import render_table
from arena.tournament.confidence import NOT_COMPARABLE, SWEPT
from arena.tournament.intervals import sweep_order_probability, sweep_points
from arena.tournament.openskill_ratings import openskill_ratings
from arena.tournament.records import EpisodeRecord
from arena.tournament.tables import tables
from tests.support.synthetic import many_seat, two_seat


def ordered_pool(order: list[str], seeds: int) -> list[EpisodeRecord]:
    """Every pair in both seatings on every seed; the earlier player in ``order`` always wins."""
    records = []
    for seed in range(seeds):
        for i, a in enumerate(order):
            for b in order[i + 1 :]:
                records.append(EpisodeRecord(f"{seed}/{a}/{b}", seed, {"x": a, "y": b}, {"x": 1.0, "y": 0.0}))
                records.append(EpisodeRecord(f"{seed}/{b}/{a}", seed, {"x": b, "y": a}, {"x": 0.0, "y": 1.0}))
    return records


def text_of(table: dict[str, object]) -> str:
    console = Console(width=200, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(
        render_table(
            {
                "tournament": _info(),
                "failures": {"per_player": {}},
                "left_out": [],
                "summary_metrics": [],
                **table,
            }
        )
    )
    return console.export_text()


def _info() -> dict[str, object]:
    return {"id": 1, "game": "g", "counted": 1, "slots": 1, "deal_seeds": 1, "not_played": 0, "given_up": 0}


def no_zero_width(rows: list[dict[str, object]]) -> None:
    for row in rows:
        low, high = row["rating_low"], row["rating_high"]
        assert low is None or high is None or low != high, f"{row['player']}: a zero-width interval"


def test_a_clean_sweep_is_a_one_sided_bound_not_a_number() -> None:
    table = tables(ordered_pool(["weather", "cost-plus", "random"], seeds=20), resamples=200)
    rows = {row["player"]: row for row in table["players"]}
    assert [row["player"] for row in table["players"]] == ["weather", "cost-plus", "random"]
    least = sweep_points(20)  # 20 of 20 seeds: p >= 0.025 ** (1 / 20) = 0.83, 277 points
    assert least == pytest.approx(277.4, abs=0.1)
    top, middle, bottom = rows["weather"], rows["cost-plus"], rows["random"]
    assert top["rating"] is None and top["rating_high"] is None
    assert top["rating_low"] == pytest.approx(1000 + least)
    assert top["bound"] == {
        "side": "above",
        "other": "cost-plus",
        "points": pytest.approx(least),
        "seeds": 20,
        "p": pytest.approx(0.025 ** (1 / 20)),
        "via": "weather",
    }
    assert middle["rating"] == 1000 and middle["reference"] and middle["rating_low"] is None
    assert bottom["rating"] is None and bottom["rating_low"] is None
    assert bottom["rating_high"] == pytest.approx(1000 - least) and bottom["bound"]["side"] == "below"
    no_zero_width(table["players"])
    for pair in table["order_confidence"]:
        assert pair["status"] == SWEPT and pair["sweep_seeds"] == 20
        assert (
            pair["p_order_right"] == pytest.approx(sweep_order_probability(20)) and pair["p_order_right"] < 1
        )
    text = text_of(table)
    assert "≥ +277 over cost-plus" in text and "≤ −277 vs cost-plus" in text and "1000 (reference)" in text
    sure = text.split("how sure is the order?")[1]
    assert "swept (20 of 20 seeds)" in sure and "> 0.99" in sure and "1.00" not in sure
    assert "intervals are rough" in text  # 20 deal seeds
    # more seeds raise the bound, as the data allow; they never turn it into a number
    more = tables(ordered_pool(["weather", "cost-plus", "random"], seeds=100), resamples=50)
    assert more["players"][0]["bound"]["points"] == pytest.approx(sweep_points(100))
    assert sweep_points(100) == pytest.approx(570, abs=1)
    assert more["players"][0]["rating"] is None and not more["ratings"]["rough"]


def test_a_sweep_over_a_group_bounds_it_against_the_rest() -> None:
    # a beats or draws b, c beats or draws d, and a and b beat c and d every time
    records = []
    for seed in range(30):
        for x, y, first_wins in (("a", "b", seed % 3 != 0), ("c", "d", seed % 2 == 0)):
            records.append(
                EpisodeRecord(f"{seed}{x}{y}", seed, {"x": x, "y": y}, {"x": float(first_wins), "y": 0.0})
            )
        for top in ("a", "b"):
            for low in ("c", "d"):
                records.append(
                    EpisodeRecord(f"{seed}{top}{low}", seed, {"x": low, "y": top}, {"x": 0.0, "y": 1.0})
                )
    table = tables(records, resamples=200)
    rows = {row["player"]: row for row in table["players"]}
    assert [row["player"] for row in table["players"]][:2] == ["a", "b"]
    # two equal tiers, both as near the middle: the first is the reference, the other is bounded
    assert all(rows[p]["bound"] is None and rows[p]["rating"] is not None for p in ("a", "b"))
    assert all(rows[p]["bound"]["side"] == "below" and rows[p]["rating"] is None for p in ("c", "d"))
    assert rows["a"]["rating"] > rows["b"]["rating"]  # a beat b more often inside the tier
    assert rows["c"]["rating_high"] > rows["d"]["rating_high"]  # c won or drew every game with d
    statuses = [pair["status"] for pair in table["order_confidence"]]
    assert statuses[1] == SWEPT and statuses[0] != SWEPT and statuses[2] != SWEPT
    no_zero_width(table["players"])


def test_pools_that_never_met_get_a_table_each_and_an_idle_player_no_rating() -> None:
    records = two_seat({"honest": 100.0, "bluffing": 0.0}, deals=10, seed=1)
    records += [
        EpisodeRecord(
            "t" + r.slot_key,
            r.deal_seed,
            {s: {"honest": "pushover", "bluffing": "tit-for-tat"}[p] for s, p in r.seating.items()},
            r.scores,
        )
        for r in two_seat({"honest": 0.0, "bluffing": 50.0}, deals=10, seed=2)
    ]
    players = ["honest", "bluffing", "pushover", "tit-for-tat", "idle"]
    table = tables(records, players=players, resamples=200)
    groups = table["ratings"]["groups"]
    assert [set(g["players"]) for g in groups] == [{"honest", "bluffing"}, {"pushover", "tit-for-tat"}]
    assert table["ratings"]["never_met"] == [[1, 2]] and table["ratings"]["unrated"] == ["idle"]
    order = [row["group"] for row in table["players"]]
    assert order == [1, 1, 2, 2, None], "one group after the other, never interleaved"
    idle = table["players"][-1]
    assert idle["player"] == "idle" and idle["episodes"] == 0
    assert (idle["rating"], idle["rating_low"], idle["rating_high"], idle["rank"]) == (None, None, None, None)
    assert [row["rank"] for row in table["players"]] == [1, 2, 1, 2, None]
    across = [pair for pair in table["order_confidence"] if pair["status"] == NOT_COMPARABLE]
    assert [(p["higher"], p["lower"]) for p in across] == [
        (table["players"][1]["player"], table["players"][2]["player"]),
        (table["players"][3]["player"], "idle"),
    ]
    assert all(p["p_order_right"] == 0.5 and p["diff"] is None for p in across)
    text = text_of(table)
    assert "ratings, group 1" in text and "ratings, group 2" in text and "2 groups never met" in text
    assert "not comparable (never met)" in text and "not separable" not in text
    assert "no finished games, so no rating: idle" in text


def test_many_seats_are_rated_whatever_the_order_the_games_were_played_in() -> None:
    strength = {"p1": 300.0, "p2": 150.0, "p3": 0.0, "p4": -150.0, "p5": -300.0}
    records = many_seat(strength, ["a", "b", "c"], deals=8, seed=4)
    shuffled = list(records)
    random.Random(9).shuffle(shuffled)
    first = tables(records, players=list(strength), resamples=200)
    again = tables(shuffled, players=list(strength), resamples=200)
    assert first["ratings"]["method"] == again["ratings"]["method"] == "plackett-luce"
    for one, other in zip(first["players"], again["players"], strict=True):
        assert one["player"] == other["player"]
        for key in ("rating", "rating_low", "rating_high"):
            assert one[key] == pytest.approx(other[key], abs=1e-6)
    # the openskill column, kept as an extra, does depend on the order
    online = {r.player: r.mu for r in openskill_ratings(records)}
    reordered = {r.player: r.mu for r in openskill_ratings(shuffled)}
    assert any(abs(online[p] - reordered[p]) > 0.01 for p in strength)
    assert "order" in first["ratings"]["openskill"]["label"]


def test_the_cli_table_of_a_real_sweep_states_bounds(
    db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--db", str(db_path), "tournament", "run", "lemonade", "--seeds", "3", "--option", "days=5"]
    argv += ["--player", "baseline:weather", "--player", "baseline:cost-plus", "--player", "baseline:random"]
    argv += ["--option", "stands=3"]
    assert main(argv) == 0
    capsys.readouterr()
    assert main(["--db", str(db_path), "tournament", "table", "1", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["ratings"]["method"] == "plackett-luce" and table["ratings"]["rough"]
    no_zero_width(table["players"])
    for row in table["players"]:
        if row["rating"] is None:
            assert row["bound"] is not None
        else:
            assert row["reference"] or row["rating_low"] < row["rating"] < row["rating_high"]
