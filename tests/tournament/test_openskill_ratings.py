"""openskill's online Plackett-Luce ratings: the order-dependent extra column for games with more seats."""

from __future__ import annotations

import pytest

from arena.tournament.openskill_ratings import openskill_ratings
from arena.tournament.ratings import bradley_terry
from arena.tournament.records import EpisodeRecord
from tests.support.synthetic import many_seat

STRENGTH = {"p1": 450.0, "p2": 300.0, "p3": 150.0, "p4": 0.0, "p5": -150.0, "p6": -300.0}


def test_recovers_the_order_of_a_four_seat_game() -> None:
    records = many_seat(STRENGTH, ["n", "e", "s", "w"], deals=12, seed=3)
    ratings = openskill_ratings(records)
    assert [r.player for r in ratings] == list(STRENGTH)
    for rating in ratings:
        assert rating.low < rating.mu < rating.high
        assert rating.ordinal == pytest.approx(rating.mu - 3 * rating.sigma)
        assert rating.games == 12 * 10 * 4  # per deal: C(5, 3) four-player subsets with it, 4 seatings each
    # the pairwise-broken Bradley-Terry fit agrees on the order
    assert bradley_terry(records, resamples=50).players == tuple(STRENGTH)


def test_uncertainty_shrinks_with_more_games() -> None:
    few = {
        r.player: r.sigma for r in openskill_ratings(many_seat(STRENGTH, ["a", "b", "c"], deals=1, seed=1))
    }
    many = {
        r.player: r.sigma for r in openskill_ratings(many_seat(STRENGTH, ["a", "b", "c"], deals=10, seed=1))
    }
    assert all(many[p] < few[p] for p in STRENGTH)


def test_ties_share_a_rank_and_repeated_players_update_once() -> None:
    tie = EpisodeRecord("k", 1, {"a": "x", "b": "y", "c": "z"}, {"a": 2.0, "b": 2.0, "c": 0.0})
    ratings = {r.player: r for r in openskill_ratings([tie])}
    assert ratings["x"].mu == pytest.approx(ratings["y"].mu)
    assert ratings["z"].mu < ratings["x"].mu
    crowded = EpisodeRecord("k", 1, {"a": "x", "b": "x", "c": "y"}, {"a": 3.0, "b": 2.0, "c": 0.0})
    by_player = {r.player: r for r in openskill_ratings([crowded])}
    assert by_player["x"].games == 1 and by_player["x"].mu > by_player["y"].mu
