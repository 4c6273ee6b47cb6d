"""Do the 95% intervals cover the truth 95% of the time? Simulated tournaments with known strengths.

Five players with strengths 0, 50, 100, 200 and 400 Elo points play every ordered pair once
per deal seed (both seatings), on 10, 30 and 100 seeds, with and without a per-seed
effect: on each seed every player's strength moves by a draw of N(0, 150 points), so the
episodes of one seed are correlated, as real deals are. With the effect the truth a
rating estimates is the *marginal* strength: the Bradley-Terry fit to the win
probabilities averaged over the effect (computed exactly by Gauss-Hermite quadrature).
Each setting is 400 tournaments (2,000 intervals) with fixed seeds, rated by the real table code with 1,000
bootstrap resamples; a rating covers when the truth, centred like the ratings, lies in
its interval.

Measured with these seeds (expanded percentile intervals; in brackets the plain 2.5..97.5
percentile intervals used before, from the same simulation design, 1,000 intervals each):

==========  =====  ==============  ===========================================
effect      seeds  ratings         metric means, normal / skewed (2,000 each)
==========  =====  ==============  ===========================================
none        10     94.8% (89.3%)   94.1% / 94.5% (stated, not asserted)
none        30     94.8% (92.5%)   94.5% / 95.2%
none        100    94.2% (95.4%)   94.5% / 95.1%
per seed    10     93.5% (89.9%)   94.2% / 94.2% (stated, not asserted)
per seed    30     94.8% (93.7%)   95.3% / 94.8%
per seed    100    94.6% (94.3%)   94.4% / 93.8%
==========  =====  ==============  ===========================================

Of the neighbouring pairs printed with P(order right) >= 0.95, 2 of 719 (0.3%) were in the
wrong order; no printed pair had its own bootstrap below 0.5. The skewed metric is a
bankruptcy mixture (a fifth of the episodes end at 0, the rest near 10), as lemonade's final
cash is. A lognormal metric (sigma 0.75) covered 91.6% / 93.8% / 93.4% at 10 / 30 / 100
seeds in the prototype: a very skewed metric stays a little under.

A very skewed metric (lognormal, sigma 1.4; issue 43) covers 81.5/85.3/90.5% at 10/30/100
seeds (no per-seed effect), whatever the percentile method: its mean is not near normal at
these sizes. Its interval is flagged rough instead (:func:`arena.tournament.metrics.skewed`,
per-seed skewness beyond 1): in 67/95/100% of tournaments at 10/30/100 seeds, while a normal
metric is flagged in 2.2/0.1% at 30/100 seeds (8% at 10). At 30 and 100 seeds an interval of it
covers the truth or is flagged in at least 95% of tournaments (asserted).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena.tournament.confidence import SEPARATED, order_confidence
from arena.tournament.intervals import keep_share
from arena.tournament.metrics import metric_means
from arena.tournament.ratings import CENTRE, ELO, Comparisons, fit, ratings_from
from arena.tournament.records import EpisodeRecord

STRENGTH = np.array([0.0, 50.0, 100.0, 200.0, 400.0])
PLAYERS = tuple(f"p{i}" for i in range(len(STRENGTH)))
SEED_EFFECT = 150.0
TOURNAMENTS = 400
METRIC_TOURNAMENTS = 1000
METRIC_PLAYERS = ("a", "b")
LOGNORMAL_SIGMA = 1.4
SETTINGS = [(effect, seeds) for effect in (0.0, SEED_EFFECT) for seeds in (10, 30, 100)]


def marginal_ratings(effect: float) -> np.ndarray:
    """The ratings (centred on 1000) that infinitely many seeds would give, the effect averaged out."""
    theta = STRENGTH / ELO
    nodes, weights = np.polynomial.hermite.hermgauss(60)
    noise = math.sqrt(2.0) * math.sqrt(2.0) * effect / ELO * nodes  # u_a - u_b ~ N(0, 2 effect^2)
    gap = theta[:, None, None] - theta[None, :, None] + noise[None, None, :]
    p = (weights / math.sqrt(math.pi) * (1.0 / (1.0 + np.exp(-gap)))).sum(axis=2)
    np.fill_diagonal(p, 0.0)
    strengths = fit(p * 1e6)
    result: np.ndarray = CENTRE + ELO * (strengths - strengths.mean())
    return result


def simulate(seeds: int, effect: float, rng: np.random.Generator) -> np.ndarray:
    """``wins[s, a, b]`` for one tournament: every ordered pair plays once per seed."""
    m = len(STRENGTH)
    theta = STRENGTH / ELO + rng.normal(0.0, effect / ELO, size=(seeds, m))
    p = 1.0 / (1.0 + np.exp(theta[:, None, :] - theta[:, :, None]))
    first_wins = (rng.random((seeds, m, m)) < p).astype(float)
    wins = first_wins + (1.0 - first_wins).transpose(0, 2, 1)
    wins[:, np.arange(m), np.arange(m)] = 0.0
    return wins


@pytest.mark.parametrize(("effect", "seeds"), SETTINGS)
def test_rating_intervals_cover_the_true_strengths(effect: float, seeds: int) -> None:
    truth = marginal_ratings(effect)
    rng = np.random.default_rng(1000 + seeds + int(effect))
    covered = total = 0
    for t in range(TOURNAMENTS):
        data = Comparisons(PLAYERS, tuple(range(seeds)), simulate(seeds, effect, rng))
        ratings = ratings_from(data, seed=t)
        for player, low, high in zip(ratings.players, ratings.low, ratings.high, strict=True):
            assert low is not None and high is not None  # nobody swept at these strengths
            covered += low <= truth[PLAYERS.index(player)] <= high
            total += 1
    print(f"ratings, effect {effect:.0f}, {seeds} seeds: coverage {covered / total:.3f}")
    assert 0.93 <= covered / total <= 0.97, f"coverage {covered / total:.3f}"


def test_sure_orders_are_right_and_no_order_contradicts_its_bootstrap() -> None:
    sure = wrong = 0
    for effect, seeds in SETTINGS:
        truth = marginal_ratings(effect)
        rng = np.random.default_rng(2000 + seeds + int(effect))
        for t in range(TOURNAMENTS // 8):
            data = Comparisons(PLAYERS, tuple(range(seeds)), simulate(seeds, effect, rng))
            ratings = ratings_from(data, seed=t)
            for i, row in enumerate(order_confidence(ratings)):
                assert keep_share(ratings.samples[:, i] - ratings.samples[:, i + 1]) >= 0.5
                assert row.p_order_right >= 0.5
                if row.p_order_right >= 0.95:
                    sure += 1
                    wrong += truth[PLAYERS.index(row.higher)] < truth[PLAYERS.index(row.lower)]
                if row.status == SEPARATED:
                    assert row.p_order_right >= 0.975
    assert sure > 500
    print(f"{wrong} of {sure} pairs with P(order right) >= 0.95 wrongly ordered")
    assert wrong / sure <= 0.01, f"{wrong} of {sure} sure pairs wrongly ordered"


def _metric_records(seeds: int, effect: float, rng: np.random.Generator) -> list[EpisodeRecord]:
    """Two players, both seatings per seed; each seat has a normal metric and a skewed (bankruptcy) one."""
    records = []
    for s in range(seeds):
        shift = rng.normal(0.0, 0.5 if effect else 0.0, size=len(METRIC_PLAYERS))
        for first, second in ((0, 1), (1, 0)):
            seats = {"x": METRIC_PLAYERS[first], "y": METRIC_PLAYERS[second]}
            metrics = {
                seat: {
                    "normal": float(rng.normal(1.0 + shift[p], 1.0)),
                    "skewed": 0.0 if rng.random() < 0.2 else float(rng.normal(10.0 + 2 * shift[p], 2.0)),
                    "lognormal": float(rng.lognormal(0.0, LOGNORMAL_SIGMA)),
                }
                for seat, p in (("x", first), ("y", second))
            }
            records.append(EpisodeRecord(f"{s}/{first}", s, seats, {"x": 1.0, "y": 0.0}, metrics=metrics))
    return records


@pytest.mark.parametrize(("effect", "seeds"), SETTINGS)
def test_metric_mean_intervals_cover_from_30_seeds(effect: float, seeds: int) -> None:
    truth = {"normal": 1.0, "skewed": 0.8 * 10.0, "lognormal": math.exp(LOGNORMAL_SIGMA**2 / 2)}
    rng = np.random.default_rng(3000 + seeds + int(effect))
    covered = dict.fromkeys(truth, 0)
    rough = dict.fromkeys(truth, 0)
    trusted_or_covered = dict.fromkeys(truth, 0)
    total = 0
    for t in range(METRIC_TOURNAMENTS):
        means = metric_means(_metric_records(seeds, effect, rng), seed=t)
        for by_metric in means.values():
            for name, true_mean in truth.items():
                summary = by_metric[name]
                assert summary.low is not None and summary.high is not None
                hit = summary.low <= true_mean <= summary.high
                covered[name] += hit
                rough[name] += summary.rough
                trusted_or_covered[name] += hit or summary.rough
            total += 1
    share = {k: round(v / total, 3) for k, v in covered.items()}
    flagged = {k: round(v / total, 3) for k, v in rough.items()}
    print(f"metrics, effect {effect:.0f}, {seeds} seeds: coverage {share}, flagged rough {flagged}")
    for name in ("normal", "skewed"):
        if seeds >= 30:  # at 10 seeds the figure is stated in the module docstring, not asserted
            assert 0.93 <= share[name] <= 0.97, f"{name}: coverage {share[name]:.3f}"
    if seeds >= 30:  # (at 10 seeds a normal metric's skewness passes 1 in ~8% of tournaments)
        assert flagged["normal"] <= 0.03, "a normal metric is seldom called rough"
        # the lognormal's intervals cover too rarely to be trusted, and say so: an interval
        # printed without the flag covers (issue 43: 85-90% before, with no word about it)
        assert share["lognormal"] < 0.93 and flagged["lognormal"] >= 0.9
        assert trusted_or_covered["lognormal"] / total >= 0.95
