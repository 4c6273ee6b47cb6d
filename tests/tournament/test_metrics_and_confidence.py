"""Metric means with seed-bootstrap intervals, and how sure the order is."""

from __future__ import annotations

import pytest

from arena.tournament.confidence import (
    MORE_SEEDS,
    NOT_COMPARABLE,
    NOT_SEPARABLE,
    SEPARATED,
    cost_per_seed,
    order_confidence,
    seeds_needed,
)
from arena.tournament.metrics import metric_means
from arena.tournament.ratings import bradley_terry
from arena.tournament.records import EpisodeRecord
from tests.support.synthetic import two_seat


def test_metric_means_skip_none_count_bools_and_bracket_the_mean() -> None:
    records = [
        EpisodeRecord(
            f"k{seed}",
            seed,
            {"x": "a", "y": "b"},
            {"x": float(seed), "y": 0.0},
            metrics={"x": {"cash": seed * 2, "closed": seed % 2 == 0, "note": "text", "leak": None}, "y": {}},
        )
        for seed in range(10)
    ]
    means = metric_means(records, seed=4)
    a = means["a"]
    assert set(a) == {"cash", "closed", "score"}
    assert a["cash"].mean == pytest.approx(9.0) and a["cash"].n == 10
    assert a["closed"].mean == pytest.approx(0.5)
    assert a["cash"].low is not None and a["cash"].high is not None
    assert a["cash"].low < 9.0 < a["cash"].high
    assert a["score"].to_dict()["mean"] == pytest.approx(4.5)
    assert means["b"]["score"].low == means["b"]["score"].high == 0.0


def test_metric_interval_resamples_seeds_not_episodes() -> None:
    # both of a seed's values are equal and the seeds are all alike: every seed draw is the same
    records = [
        EpisodeRecord(f"{seed}/{i}", seed, {"x": "a"}, {"x": float(i)}) for seed in range(20) for i in (0, 1)
    ]
    summary = metric_means(records)["a"]["score"]
    assert summary.mean == summary.low == summary.high == pytest.approx(0.5)


def test_seeds_needed_rule() -> None:
    assert seeds_needed(100.0, 20.0, 50) == (SEPARATED, 0)
    assert seeds_needed(0.0, 20.0, 50) == (NOT_SEPARABLE, None)
    assert seeds_needed(0.1, 20.0, 50) == (NOT_SEPARABLE, None)
    status, more = seeds_needed(19.6, 20.0, 50)
    # n = 50 * (1.96 * 20 / 19.6)^2 = 200.0 (to rounding), so 150 more
    assert status == MORE_SEEDS and more is not None and abs(more - 150) <= 1
    assert seeds_needed(5.0, 0.0, 10) == (SEPARATED, 0)


def test_closer_pairs_need_more_seeds_and_are_less_sure() -> None:
    records = two_seat({"a": 200.0, "b": 40.0, "c": 0.0}, deals=30, seed=8)
    ratings = bradley_terry(records, seed=2)
    assert ratings.players == ("a", "b", "c")
    rows = order_confidence(ratings, seed_cost_usd=0.5)
    wide, close = rows
    assert (wide.higher, wide.lower, close.higher, close.lower) == ("a", "b", "b", "c")
    assert wide.status == SEPARATED and wide.more_seeds == 0 and wide.more_usd == 0.0
    assert wide.p_order_right > 0.99
    assert close.status in {MORE_SEEDS, NOT_SEPARABLE}
    assert close.p_order_right < wide.p_order_right
    if close.status == MORE_SEEDS:
        assert close.more_seeds is not None and close.more_seeds > 0
        assert close.more_usd == pytest.approx(close.more_seeds * 0.5)


def test_closer_pairs_need_more_seeds() -> None:
    # 40 deals, two seatings each; a takes both episodes on the first `sweeps` deals, they split the rest
    needs = []
    for sweeps in (1, 2, 3):
        records = []
        for seed in range(40):
            a_first = 1.0 if seed < sweeps else 0.0
            records.append(EpisodeRecord(f"{seed}/1", seed, {"x": "a", "y": "b"}, {"x": 1.0, "y": 0.0}))
            records.append(
                EpisodeRecord(f"{seed}/2", seed, {"x": "b", "y": "a"}, {"x": 1 - a_first, "y": a_first})
            )
        ((row,),) = [order_confidence(bradley_terry(records, seed=1))]
        assert row.higher == "a" and row.status == MORE_SEEDS and row.more_seeds is not None
        needs.append(row.more_seeds)
    assert needs[0] > needs[1] > needs[2] > 0


def test_cost_per_seed_counts_every_appearance() -> None:
    records = two_seat({"a": 0.0, "b": 0.0, "c": 0.0}, deals=4, seed=1)
    # per deal: 6 episodes, each player in 4 of them
    assert cost_per_seed(records, {"a": 0.01, "b": 0.02, "c": 0.0}) == pytest.approx(4 * 0.03)
    assert cost_per_seed(records, {"a": 0.01}) is None


def test_pairs_never_linked_by_games_are_not_comparable() -> None:
    records = [EpisodeRecord(f"a{s}", s, {"x": "a", "y": "b"}, {"x": 1.0, "y": 0.0}) for s in range(5)]
    records += [EpisodeRecord(f"c{s}", s, {"x": "c", "y": "d"}, {"x": 1.0, "y": 0.0}) for s in range(5)]
    rows = order_confidence(bradley_terry(records, resamples=50), seed_cost_usd=1.0)
    across = [row for row in rows if {row.higher, row.lower} not in ({"a", "b"}, {"c", "d"})]
    assert across
    for row in rows:
        assert (row.status == NOT_COMPARABLE) == (row in across)
    assert all((row.more_seeds, row.more_usd, row.p_order_right) == (None, None, 0.5) for row in across)


def test_higher_power_asks_for_about_twice_the_seeds() -> None:
    base = seeds_needed(20.0, 20.0, 100)
    strict = seeds_needed(20.0, 20.0, 100, power=0.8)
    assert base[0] == strict[0] == MORE_SEEDS and base[1] is not None and strict[1] is not None
    # n = 100 * 1.96^2 = 384.1 -> 285 more; n = 100 * (1.96 + 0.8416)^2 = 784.9 -> 685 more
    assert (base[1], strict[1]) == (285, 685)
