"""Bradley-Terry ratings: known order recovered, intervals from whole-seed resamples, ties half."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena.tournament.ratings import ELO, bradley_terry, comparisons, fit, win_matrix
from arena.tournament.records import EpisodeRecord, outcome_counts
from tests.support.synthetic import two_seat

STRENGTH = {"ace": 300.0, "good": 150.0, "fair": 0.0, "weak": -150.0, "poor": -300.0}


def rated(values: tuple[float | None, ...]) -> tuple[float, ...]:
    """The values of a table in which every player has a number (no sweep, everyone played)."""
    assert all(value is not None for value in values)
    return tuple(float(value) for value in values if value is not None)


def episode(key: str, seed: int, a: str, b: str, score_a: float, score_b: float) -> EpisodeRecord:
    return EpisodeRecord(key, seed, {"x": a, "y": b}, {"x": score_a, "y": score_b})


def test_recovers_a_known_order_and_the_gaps() -> None:
    ratings = bradley_terry(two_seat(STRENGTH, deals=80, seed=11), seed=3)
    assert ratings.players == tuple(STRENGTH)
    assert sum(rated(ratings.rating)) / len(rated(ratings.rating)) == pytest.approx(1000.0)
    for player, rating, low, high in zip(
        ratings.players, rated(ratings.rating), rated(ratings.low), rated(ratings.high), strict=True
    ):
        assert low < rating < high
        assert rating - 1000 == pytest.approx(STRENGTH[player], abs=60)


def test_intervals_shrink_with_more_seeds() -> None:
    widths = []
    for deals in (10, 40, 160):
        ratings = bradley_terry(two_seat(STRENGTH, deals=deals, seed=5))
        widths.append(
            sum(hi - lo for lo, hi in zip(rated(ratings.low), rated(ratings.high), strict=True))
            / len(STRENGTH)
        )
    # about 1/sqrt(n): each fourfold increase in seeds should roughly halve the mean width
    assert widths[0] > widths[1] > widths[2]
    assert widths[2] < 0.5 * widths[0]


def test_ties_count_half() -> None:
    # a beats b three times, they draw twice, b beats a once: a's share is (3 + 2 * 0.5) / 6 = 2/3
    results = [(1, 0), (1, 0), (1, 0), (0.5, 0.5), (0.5, 0.5), (0, 1)]
    records = [episode(f"k{i}", i, "a", "b", sa, sb) for i, (sa, sb) in enumerate(results)]
    ratings = bradley_terry(records, prior=0.0, resamples=10)
    assert rated(ratings.rating)[0] - rated(ratings.rating)[1] == pytest.approx(400 * math.log10(2), abs=1e-3)
    matrix = win_matrix(comparisons(records))
    assert matrix["wins"] == [[0.0, 4.0], [2.0, 0.0]]
    assert matrix["rate"] == [[None, pytest.approx(2 / 3)], [pytest.approx(1 / 3), None]]
    counts = outcome_counts(records)
    assert counts["a"] == {"episodes": 6, "wins": 3, "draws": 2, "losses": 1}
    assert counts["b"] == {"episodes": 6, "wins": 1, "draws": 2, "losses": 3}


def test_all_draws_rate_equal_and_the_penalised_fit_keeps_a_clean_sweep_finite() -> None:
    draws = [episode(f"d{i}", i, "a", "b", 1, 1) for i in range(20)]
    even = bradley_terry(draws)
    assert even.rating[0] == pytest.approx(1000) and even.rating[1] == pytest.approx(1000)
    sweep = comparisons([episode(f"s{i}", i, "a", "b", 1, 0) for i in range(20)])
    theta = fit(sweep.total + 0.5 * (sweep.games > 0))
    assert sweep.players == ("a", "b") and math.isfinite(theta[0])
    # one virtual draw: 20.5 against 0.5 wins (the fit each bootstrap resample gets)
    assert ELO * (theta[0] - theta[1]) == pytest.approx(400 * math.log10(41), abs=1e-3)


def test_bootstrap_resamples_whole_deal_seeds() -> None:
    # On every seed each player wins one seating: any draw of whole seeds is exactly even,
    # while a draw of single episodes would not be.
    records = []
    for seed in range(40):
        records.append(episode(f"{seed}/1", seed, "a", "b", 1, 0))
        records.append(episode(f"{seed}/2", seed, "b", "a", 1, 0))
    ratings = bradley_terry(records, seed=1)
    assert np.ptp(ratings.samples) == pytest.approx(0.0, abs=1e-6)
    # identical seeds: the bootstrap has no spread to measure, so the interval is the exact
    # binomial one of a 20-of-40-seeds share (0.338..0.662), on the rating scale (issue 43)
    assert ratings.no_spread == (True, True)
    half = 400 * math.log10(0.6621 / 0.3379)
    for low, high in zip(rated(ratings.low), rated(ratings.high), strict=True):
        assert low == pytest.approx(1000 - half, abs=1) and high == pytest.approx(1000 + half, abs=1)
    assert ratings.rank == (1, 1), "equal records share a rank"
    # the same totals with both of a seed's wins going to one player do spread
    clustered = []
    for seed in range(40):
        a_wins = seed % 2 == 0
        clustered.append(episode(f"{seed}/1", seed, "a", "b", float(a_wins), float(not a_wins)))
        clustered.append(episode(f"{seed}/2", seed, "b", "a", float(not a_wins), float(a_wins)))
    spread = bradley_terry(clustered, seed=1)
    assert rated(spread.rating)[0] == pytest.approx(1000.0)
    assert rated(spread.high)[0] - rated(spread.low)[0] > 100


def test_bootstrap_is_seeded() -> None:
    records = two_seat(STRENGTH, deals=20, seed=2)
    first, again = bradley_terry(records, seed=9), bradley_terry(records, seed=9)
    assert np.array_equal(first.samples, again.samples)
    assert not np.array_equal(first.samples, bradley_terry(records, seed=10).samples)
    assert first.samples.shape == (1000, len(STRENGTH)) and first.deals == 20


def test_anchor_fixes_one_player_at_1000() -> None:
    ratings = bradley_terry(two_seat(STRENGTH, deals=20, seed=4), anchor="fair")
    i = ratings.players.index("fair")
    assert (
        rated(ratings.rating)[i] == rated(ratings.low)[i] == rated(ratings.high)[i] == pytest.approx(1000.0)
    )
    assert rated(ratings.rating)[0] > 1200


def test_one_seat_games_compare_players_on_the_same_deal() -> None:
    # each player plays each seed alone; the score is skill plus a deal effect shared by everyone
    records = []
    for seed in range(30):
        deal = (seed * 7919) % 100
        for skill, player in enumerate(["low", "mid", "top"]):
            records.append(EpisodeRecord(f"{seed}:{player}", seed, {"solo": player}, {"solo": deal + skill}))
    ratings = bradley_terry(records)
    assert ratings.players == ("top", "mid", "low")
    assert outcome_counts(records)["top"] == {"episodes": 30, "wins": 30, "draws": 0, "losses": 0}
    assert win_matrix(comparisons(records))["games"][0][1] == 30.0


def test_ranks_decide_when_given() -> None:
    record = EpisodeRecord(
        "k", 1, {"x": "a", "y": "b", "z": "c"}, {"x": 9, "y": 5, "z": 1}, ranks={"x": 3, "y": 1, "z": 1}
    )
    counts = outcome_counts([record])
    assert counts["b"]["draws"] == counts["c"]["draws"] == 1 and counts["a"]["losses"] == 1


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: EpisodeRecord("k", 1, {"x": "a"}, {"y": 1.0}), "scores name seats"),
        (lambda: bradley_terry([]), "no finished episodes"),
        (lambda: bradley_terry([episode("k", 1, "a", "b", 1, 0)], anchor="zed"), "anchor 'zed'"),
        (lambda: bradley_terry([episode("k", 1, "a", "b", 1, 0)], players=["a"]), "not in the list: b"),
    ],
)
def test_bad_input_is_a_clear_error(build: object, message: str) -> None:
    assert callable(build)
    with pytest.raises(ValueError, match=message):
        build()


def test_the_fit_solves_the_likelihood_equations() -> None:
    # at the MLE each player's expected wins equal its observed wins
    rng = np.random.default_rng(3)
    wins = rng.integers(0, 30, size=(6, 6)).astype(float)
    np.fill_diagonal(wins, 0.0)
    theta = fit(wins)
    games = wins + wins.T
    expected = (games / (1.0 + np.exp(theta[None, :] - theta[:, None]))).sum(axis=1)
    assert np.allclose(expected, wins.sum(axis=1), atol=1e-4)
    assert theta.mean() == pytest.approx(0.0, abs=1e-12)
    # a stack is fitted row by row, warm start or not
    stacked = fit(np.stack([wins, wins.T]), start=theta)
    assert np.allclose(stacked[0], theta, atol=1e-8) and np.allclose(stacked[1], -theta, atol=1e-8)


def test_players_who_never_met_are_in_different_components() -> None:
    records = [episode(f"a{s}", s, "a", "b", 1, 0) for s in range(5)]
    records += [episode(f"c{s}", s, "c", "d", s % 2, 1 - s % 2) for s in range(5)]
    ratings = bradley_terry(records, resamples=50)
    parts = dict(zip(ratings.players, ratings.group, strict=True))
    assert parts["a"] == parts["b"] != parts["c"] == parts["d"]
