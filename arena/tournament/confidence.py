"""How sure is the order? For each neighbouring pair: P(order right), and the seeds and dollars to settle it.

For each pair (higher, lower) of neighbours in :class:`ratings.Ratings` (table order):

* Same tier (the usual case): ``diff`` is the point rating difference and ``se`` the
  standard deviation of the difference over the bootstrap resamples (whole deal seeds).
  ``p_order_right`` is the share of resamples that keep the order, corrected for the
  number of deal seeds (:func:`intervals.order_probability`); ``status`` is
  ``"separated"`` once it reaches 0.975, which is exactly when the expanded 95% interval
  of the gap excludes zero.
* The forecast. The standard error of a mean over seeds shrinks as ``1 / sqrt(n)``, so a
  pair is expected to separate at ``n = n_now * (z * se / diff) ** 2`` seeds
  (``z = 1.96``, plus ``0.84`` for ``power=0.8``). The gap itself is measured with noise,
  and an overestimated gap promises too few seeds, so the forecast is a range:
  ``more_seeds_low`` .. ``more_seeds_high`` uses the ends of the gap's central 50% interval
  (``more_seeds_high`` is ``None``, open, when that interval reaches zero: perhaps never);
  ``more_seeds`` is the middle (the point gap). ``"not_separable"``: even the optimistic
  end needs more than ``max_factor`` times the seeds played (``more_seeds`` ``None``).
* ``"swept"``: neighbours of different tiers (:mod:`arena.tournament.tiers`) joined by a
  chain of sweeps (:class:`ratings.Link`): the upper one won every game against the lower
  one, or against ``sweep_via[0]``, who won every game against the next, and so on.
  ``diff`` is the least gap the chain supports (the steps' :func:`intervals.sweep_points`
  added up; ``None`` when a step has too few seeds to bound any gap), ``p_order_right`` is
  ``1 - sum(0.5 ** seeds)`` over the steps, ``sweep_seeds`` the fewest seeds of a step.
* ``"not_comparable"``: no games fix their order. ``why`` is ``never_met`` (different
  groups, or a player with no finished game) or ``no_games_decide`` (one group, but no
  chain of sweeps joins the two: one swept only part of a tier, say). They share a rank;
  ``p_order_right`` is 0.5, ``diff`` and the forecast ``None``.
* No spread: when either player's results were the same on every seed
  (:attr:`ratings.Ratings.no_spread`), the bootstrap keeps every gap in every resample;
  ``se`` is then at least what the two players' (exact binomial) intervals allow and
  ``p_order_right`` the normal probability of the gap's sign at that ``se``.
* The ceiling: no forecast says more than :data:`CEILING` (10,000) more seeds; past it the
  range is open ("more than 10,000: perhaps never").
* ``more_usd``: ``more_seeds`` times the cost of one more deal seed of the whole schedule,
  which is every player's appearances per seed times its observed cost per episode
  (``None`` when a player's cost is unknown). The whole schedule is counted because the
  tournament grows by whole deals, each played by every line-up.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from statistics import NormalDist

import numpy as np

from arena.tournament.intervals import (
    LEVEL,
    keep_share,
    order_probability,
    t_quantile,
)
from arena.tournament.ratings import Ratings
from arena.tournament.records import EpisodeRecord

Z95 = 1.959963984540054
MAX_FACTOR = 100.0
SEPARATED = "separated"
MORE_SEEDS = "more_seeds"
NOT_SEPARABLE = "not_separable"
NOT_COMPARABLE = "not_comparable"
SWEPT = "swept"
NEVER_MET = "never_met"
UNDECIDED = "no_games_decide"
STATUS_TEXT = {NOT_COMPARABLE: "not comparable (never met)", SWEPT: "swept", SEPARATED: "separated"}
WHY_TEXT = {
    NEVER_MET: "not comparable (never met)",
    UNDECIDED: "not comparable (no games between them decide the order)",
}
CEILING = 10_000
"""More deal seeds than this are not forecast: the text says "more than 10,000: perhaps never"."""
"""How every front end words a status (``more_seeds`` and ``not_separable`` carry numbers of their own)."""


@dataclass(frozen=True)
class OrderConfidence:
    """How sure the order of one neighbouring pair is, and what would settle it."""

    higher: str
    lower: str
    diff: float | None
    se: float | None
    p_order_right: float
    status: str
    more_seeds: int | None
    more_usd: float | None
    more_seeds_low: int | None = None
    more_seeds_high: int | None = None
    sweep_seeds: int | None = None
    sweep_via: tuple[str, ...] = ()
    why: str | None = None
    """For ``not_comparable``: :data:`NEVER_MET` (other groups), :data:`UNDECIDED` (no chain of sweeps)."""
    sure: float = 0.5
    """``1 - q``: P(order right) adjusted for the table's choice of pairs (:func:`selection_adjusted`)."""

    def to_dict(self) -> dict[str, object]:
        """JSON-able form (the report's ``order_confidence`` rows)."""
        return {
            "higher": self.higher,
            "lower": self.lower,
            "diff": self.diff,
            "se": self.se,
            "p_order_right": self.p_order_right,
            "sure": self.sure,
            "status": self.status,
            "more_seeds": self.more_seeds,
            "more_seeds_low": self.more_seeds_low,
            "more_seeds_high": self.more_seeds_high,
            "more_usd": self.more_usd,
            "sweep_seeds": self.sweep_seeds,
            "sweep_via": list(self.sweep_via),
            "why": self.why,
        }


def seeds_needed(
    diff: float, se: float, seeds_now: int, max_factor: float = MAX_FACTOR, power: float = 0.5
) -> tuple[str, int | None]:
    """``(status, more_seeds)`` for a gap ``diff`` with bootstrap error ``se`` over ``seeds_now`` seeds."""
    gap = abs(diff)
    if gap >= Z95 * se and gap > 0:
        return SEPARATED, 0
    z = Z95 + NormalDist().inv_cdf(power)
    if gap == 0 or (z * se / gap) ** 2 > max_factor:
        return NOT_SEPARABLE, None
    needed = seeds_now * (z * se / gap) ** 2
    return MORE_SEEDS, max(1, math.ceil(needed - seeds_now - 1e-9))


def cost_per_seed(records: Sequence[EpisodeRecord], cost_per_episode: Mapping[str, float]) -> float | None:
    """Dollars one more deal seed of the schedule costs: appearances per seed times cost per episode."""
    seeds = len({record.deal_seed for record in records})
    if not seeds:
        return None
    appearances = Counter(player for record in records for player in record.seating.values())
    if any(player not in cost_per_episode for player in appearances):
        return None
    return sum(count * cost_per_episode[player] for player, count in appearances.items()) / seeds


def seeds_range(
    diff: float, se: float, seeds_now: int, max_factor: float = MAX_FACTOR, power: float = 0.5
) -> tuple[str, int | None, int | None, int | None]:
    """``(status, more_seeds, low, high)`` for a pair not yet separated (see the module docstring)."""
    if seeds_now < 2 or se <= 0:
        return NOT_SEPARABLE, None, None, None
    z = Z95 + NormalDist().inv_cdf(power)
    half = t_quantile(0.75, seeds_now - 1) * se * math.sqrt(seeds_now / (seeds_now - 1))
    gap = abs(diff)

    def more(at: float) -> int:
        return max(1, math.ceil(seeds_now * (z * se / at) ** 2 - seeds_now - 1e-9))

    if gap + half <= 0 or (z * se / (gap + half)) ** 2 > max_factor:
        return NOT_SEPARABLE, None, None, None
    low = more(gap + half)
    if low > CEILING:
        return NOT_SEPARABLE, None, None, None
    middle = more(gap) if gap > 0 else None
    high = more(gap - half) if gap - half > 0 else None
    if middle is not None and ((middle + seeds_now) > max_factor * seeds_now or middle > CEILING):
        middle = None
    if high is not None and high > CEILING:
        high = None  # a forecast past the ceiling is no forecast: perhaps never
    return MORE_SEEDS, middle, low, high


def _spreadless_order(ratings: Ratings, i: int, diff: float, se: float) -> tuple[float, float]:
    """``(se, P(order right))`` for neighbours ``i``, ``i + 1`` when one's results had no spread.

    The bootstrap of such a pair resamples identical seeds and keeps any gap, however small,
    in every resample. The pair's error is then at least what the players' intervals (widened
    to the exact binomial interval, :func:`ratings.spreadless_interval`) allow, each read as a
    normal 95% interval; P(order right) is the normal probability of the gap's sign.
    """
    halves = []
    for j in (i, i + 1):
        low, high = ratings.low[j], ratings.high[j]
        if low is not None and high is not None:
            halves.append((high - low) / (2.0 * Z95))
    se = max(se, math.sqrt(sum(h * h for h in halves)))
    return se, (NormalDist().cdf(diff / se) if se > 0 else 0.5)


def order_confidence(
    ratings: Ratings,
    *,
    seed_cost_usd: float | None = None,
    max_factor: float = MAX_FACTOR,
    power: float = 0.5,
) -> list[OrderConfidence]:
    """One :class:`OrderConfidence` per neighbouring pair of ``ratings`` (table order).

    ``seed_cost_usd`` is the cost of one more deal seed (see :func:`cost_per_seed`).
    """
    rows: list[OrderConfidence] = []
    resamples = len(ratings.samples)
    for i in range(len(ratings.players) - 1):
        higher, lower = ratings.players[i], ratings.players[i + 1]
        group, tier = ratings.group, ratings.tier
        if group[i] is None or group[i] != group[i + 1]:
            rows.append(
                OrderConfidence(higher, lower, None, None, 0.5, NOT_COMPARABLE, None, None, why=NEVER_MET)
            )
            continue
        if tier[i] != tier[i + 1]:
            link = ratings.link(higher, lower)
            if link is None:
                rows.append(
                    OrderConfidence(higher, lower, None, None, 0.5, NOT_COMPARABLE, None, None, why=UNDECIDED)
                )
            else:
                rows.append(
                    OrderConfidence(
                        higher, lower, link.points, None, link.p, SWEPT, 0, 0.0, 0, 0, link.seeds, link.via
                    )
                )
            continue
        offset_high, offset_low = ratings.offset[i], ratings.offset[i + 1]
        assert offset_high is not None and offset_low is not None  # rated players of one tier
        diff = offset_high - offset_low
        gaps = ratings.samples[:, i] - ratings.samples[:, i + 1]
        se = float(np.std(gaps, ddof=1)) if resamples > 1 else 0.0
        p_right = order_probability(keep_share(gaps), ratings.interval_seeds, resamples)
        if ratings.no_spread and (ratings.no_spread[i] or ratings.no_spread[i + 1]):
            se, p_right = _spreadless_order(ratings, i, diff, se)
        if p_right >= 0.5 + LEVEL / 2:
            rows.append(OrderConfidence(higher, lower, diff, se, p_right, SEPARATED, 0, 0.0, 0, 0))
            continue
        status, more, low, high = seeds_range(diff, se, ratings.interval_seeds, max_factor, power)
        usd = more * seed_cost_usd if more is not None and seed_cost_usd is not None else None
        rows.append(OrderConfidence(higher, lower, diff, se, p_right, status, more, usd, low, high))
    sure = selection_adjusted([None if r.status == NOT_COMPARABLE else r.p_order_right for r in rows])
    return [replace(row, sure=s) for row, s in zip(rows, sure, strict=True)]


def selection_adjusted(p_right: Sequence[float | None]) -> list[float]:
    """``1 - q`` for each pair's P(order right): Benjamini-Hochberg over the pairs of one table.

    A table prints its *neighbouring* pairs, and near-ties end up as neighbours: a pair's own
    P(order right) >= 0.95 is wrong about 1 time in 20 when that pair is a near-tie, which
    among few sure pairs is far more than 5% of those printed. Read ``1 - P`` as a one-sided
    p-value of the order; the q-value ``q_(j) = min_(k >= j) p_(k) m / k`` over the ``m``
    pairs with an order to claim (``None``: not comparable, no claim, 0.5) is the smallest
    false discovery rate at which the pair would be claimed. So of the pairs printed with
    ``1 - q >= s``, at most ``1 - s`` are expected in the wrong order (Benjamini and Hochberg
    1995). The simulation in ``tests/tournament/test_order_calibration.py`` checks it.
    """
    tested = sorted((1.0 - p, i) for i, p in enumerate(p_right) if p is not None)
    m = len(tested)
    result = [0.5] * len(p_right)
    running = 1.0
    for rank in range(m, 0, -1):
        p_value, i = tested[rank - 1]
        running = min(running, p_value * m / rank)
        result[i] = max(0.5, 1.0 - running)
    return result
