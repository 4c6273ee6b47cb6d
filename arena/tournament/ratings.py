"""Bradley-Terry ratings with seed-bootstrap intervals, and the pairwise win matrix.

Outcomes. Every game of :func:`records.games` is broken into pairs of entries held by
different players: the higher standing wins the pair (1), an equal standing is a tie
(0.5 to each). Two-seat games give one pair per episode; games with more seats give every
pair of seats; one-seat games compare players on the same deal seed.

Model. ``P(a beats b) = 1 / (1 + 10 ** ((R_b - R_a) / 400))``: a 400-point gap is 10:1 odds,
as in Elo. Ratings are a penalised maximum-likelihood fit of that model (ties count half a
win each way), found by Newton's method: each pair of players that met also gets
``prior`` virtual comparisons split as a draw (default 1, a weak prior whose pull fades
as one over the number of games; ``prior=0`` is the plain maximum likelihood). The prior
keeps a bootstrap resample finite when it happens to drop a pair's only upset.

What a table may say (:mod:`arena.tournament.tiers`). Only players joined by games are
compared: each connected *group* is rated on its own and centred so its reference tier's
mean is 1000 (or so ``anchor`` is exactly 1000). A player with no finished game has no
rating. Inside a group, players who won (or lost) every comparison with the players below
(or above) them form *tiers*; no finite number fits such a sweep, so only the reference
tier gets numbers, and every other tier gets a one-sided bound from the exact binomial
bound on its sweep (:func:`intervals.sweep_points`): "at least +x over b", chained tier by
tier towards the reference. A tier of several players carries its bound to its other
members by their ratings inside the tier. A lone reference player is "1000 (reference)",
with no interval: nothing in the data fixes it.

Intervals. 95% expanded percentile intervals (:mod:`arena.tournament.intervals`) from
``resamples`` bootstrap resamples (default 1000) that draw whole deal seeds with
replacement (within each stratum, for leaderboards across games): every pairing and
seating played on a drawn seed comes along, so the interval reflects how much the result
depends on which deals were dealt. Draws come from ``numpy.random.default_rng(seed)``:
same data and seed, same intervals.

A sweep of so few seeds that its bound is no better than even odds (``p <= 0.5``, up to 5
seeds) bounds no gap: the row says which side and how few seeds, with no number. A bound
against a rated player starts from the far end of that player's own interval, not its point.

Order. Inside a tier players are listed by rating; where a neighbouring pair's own
bootstrap keeps the opposite order more often (the gap is inside the noise), the pair is
listed the bootstrap's way and given one shared rank, so the printed order never
contradicts its bootstrap; equal ratings share a rank too. Between tiers the order is
claimed only along games played: the two neighbours must be joined by a chain of sweeps
(:class:`Link`: the upper one beat a player in every game, who beat the next, ... down to
the lower one). Neighbours of different tiers with no such chain (one swept only part of a
group, or they met nobody in common) share a rank, and the order table says "not
comparable".

No spread. A player whose results were the same on every deal seed (all draws, identical
seeds) gives the bootstrap nothing to resample: its interval is widened to the exact
binomial interval of its score share over its seeds (:func:`spreadless_interval`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal, TypedDict

import numpy as np
import numpy.typing as npt

from arena.tournament.intervals import (
    exact_share_interval,
    expanded_percentiles,
    keep_share,
    sweep_order_probability,
    sweep_points,
    sweep_probability,
)
from arena.tournament.records import EpisodeRecord, games, player_order
from arena.tournament.tiers import Group, closure, groups

FloatArray = npt.NDArray[np.float64]
ELO = 400.0 / math.log(10.0)
CENTRE = 1000.0
RIDGE = 1e-6  # keeps players in separate components of the comparison graph finite and centred
SAME_RATING = 0.5
"""Rating points under which two neighbours of a tier share a rank (the table shows them as one number)."""
BRADLEY_TERRY = "bradley-terry"


@dataclass(frozen=True)
class Comparisons:
    """Pairwise results per deal seed: ``wins[s, a, b]`` is a's wins over b on seed ``s``.

    ``strata[s]`` numbers the stratum seed ``s`` belongs to (one game of a leaderboard
    across games); the bootstrap draws seeds within each stratum. ``None``: one stratum.
    """

    players: tuple[str, ...]
    seeds: tuple[int, ...]
    wins: FloatArray
    strata: tuple[int, ...] | None = None

    @property
    def total(self) -> FloatArray:
        """Wins of a over b over all seeds (ties counted half)."""
        result: FloatArray = self.wins.sum(axis=0)
        return result

    @property
    def games(self) -> FloatArray:
        """Comparisons between a and b over all seeds."""
        total = self.total
        result: FloatArray = total + total.T
        return result

    def seeds_met(self) -> npt.NDArray[np.int64]:
        """``[a, b]``: on how many deal seeds a and b met."""
        met: npt.NDArray[np.int64] = ((self.wins + self.wins.transpose(0, 2, 1)) > 0).sum(axis=0)
        return met


def comparisons(records: Sequence[EpisodeRecord], players: Sequence[str] | None = None) -> Comparisons:
    """Break ``records`` into pairwise results per deal seed (see the module docstring)."""
    order = player_order(records, players)
    index = {player: i for i, player in enumerate(order)}
    seeds = sorted({record.deal_seed for record in records})
    seed_index = {seed: i for i, seed in enumerate(seeds)}
    rows: list[int] = []
    winners: list[int] = []
    losers: list[int] = []
    amounts: list[float] = []
    for game in games(records):
        row = seed_index[game.deal_seed]
        for i, (a, sa) in enumerate(game.entries):
            for b, sb in game.entries[i + 1 :]:
                if a == b:
                    continue
                if sa == sb:
                    rows += [row, row]
                    winners += [index[a], index[b]]
                    losers += [index[b], index[a]]
                    amounts += [0.5, 0.5]
                else:
                    rows.append(row)
                    winners.append(index[a] if sa > sb else index[b])
                    losers.append(index[b] if sa > sb else index[a])
                    amounts.append(1.0)
    wins = np.zeros((len(seeds), len(order), len(order)))
    np.add.at(
        wins,
        (np.array(rows, dtype=np.intp), np.array(winners, dtype=np.intp), np.array(losers, dtype=np.intp)),
        amounts,
    )
    return Comparisons(tuple(order), tuple(seeds), wins)


def fit(
    wins: FloatArray, start: FloatArray | None = None, tol: float = 1e-9, max_iter: int = 100
) -> FloatArray:
    """Bradley-Terry log-strengths (natural units, mean 0) for a stack of win matrices.

    ``wins`` is ``(B, m, m)`` (or ``(m, m)``); returns ``(B, m)`` (or ``(m,)``). Newton's
    method on the concave log-likelihood, all B problems at once, each step capped at one
    natural unit so a lopsided start cannot overshoot; ``start`` warm-starts it.
    """
    single = wins.ndim == 2
    stack = wins[None] if single else wins
    batch, m, _ = stack.shape
    games_ = stack + stack.transpose(0, 2, 1)
    theta = np.zeros((batch, m)) if start is None else np.broadcast_to(start, (batch, m)).copy()
    row_wins = stack.sum(axis=2)
    eye = np.eye(m)
    gauge = np.ones((m, m)) / m
    for _ in range(max_iter):
        p = 1.0 / (1.0 + np.exp(theta[:, None, :] - theta[:, :, None]))
        gradient = row_wins - (games_ * p).sum(axis=2) - RIDGE * theta
        weight = games_ * p * (1.0 - p)
        precision = eye * (weight.sum(axis=2)[:, :, None] + RIDGE) - weight + gauge
        step = np.linalg.solve(precision, gradient[:, :, None])[:, :, 0]
        largest = np.abs(step).max(axis=1, keepdims=True)
        step = step / np.maximum(largest, 1.0)
        theta = theta + step
        theta -= theta.mean(axis=1, keepdims=True)
        if largest.max() < tol:
            break
    result: FloatArray = theta[0] if single else theta
    return result


def bootstrap_draws(data: Comparisons, resamples: int, seed: int) -> FloatArray:
    """``(resamples, seeds)``: how often each deal seed is drawn, whole seeds with replacement per stratum."""
    rng = np.random.default_rng(seed)
    n = len(data.seeds)
    strata = data.strata or (0,) * n
    draws = np.zeros((resamples, n))
    for stratum in sorted(set(strata)):
        columns = [i for i, s in enumerate(strata) if s == stratum]
        size = len(columns)
        draws[:, columns] = rng.multinomial(size, np.full(size, 1.0 / size), size=resamples)
    return draws


TierFit = Callable[[tuple[int, ...], FloatArray], tuple[FloatArray, FloatArray]]
"""``(members, draws) -> (point, samples)``: log-strengths of ``members`` (natural units, mean 0)
on all the data, and on each bootstrap resample given by ``draws``."""


def pair_fit(data: Comparisons, prior: float) -> TierFit:
    """A :data:`TierFit` for Bradley-Terry on the pairwise results of ``data``, among the members only."""

    def fit_members(members: tuple[int, ...], draws: FloatArray) -> tuple[FloatArray, FloatArray]:
        k, n = len(members), len(data.seeds)
        index = list(members)
        total = data.total[np.ix_(index, index)]
        virtual = prior / 2.0 * ((total + total.T) > 0)
        point = fit(total + virtual)
        wins = data.wins[:, index][:, :, index].reshape(n, k * k)
        samples = fit((draws @ wins).reshape(len(draws), k, k) + virtual, start=point)
        return point, samples

    return fit_members


@dataclass(frozen=True)
class Bound:
    """A one-sided statement where a sweep leaves no finite rating.

    The player is at least ``points`` rating points ``side`` (above or below) ``other``;
    it rests on ``seeds`` deal seeds all won (or lost) against ``via`` (the player of its
    tier who met ``other``; the player itself for a lone player), whose win probability is
    then at least ``p`` (exact one-sided 97.5% bound). ``points`` is ``None`` when that
    bound is no better than even odds (a sweep of very few seeds, ``p <= 0.5``): the
    seeds then say which side, not by how much.
    """

    side: Literal["above", "below"]
    other: str
    points: float | None
    seeds: int
    p: float
    via: str

    def to_dict(self) -> dict[str, object]:
        """JSON-able form (a table row's ``bound``)."""
        return {
            "side": self.side,
            "other": self.other,
            "points": self.points,
            "seeds": self.seeds,
            "p": self.p,
            "via": self.via,
        }


@dataclass(frozen=True)
class Link:
    """Evidence for the order of two neighbouring players of different tiers: a chain of sweeps.

    ``upper`` won every game it played against the next player of ``via`` (or ``lower``
    itself when ``via`` is empty), that one every game against the next, and so on down to
    ``lower``: each step is a sweep of games actually played. ``seeds`` is the fewest deal
    seeds of any step; ``p`` the probability the order is right (one minus the chance that
    some step's sweep is luck, ``1 - sum(0.5 ** n)`` over the steps); ``points`` the least gap
    the chain supports (the steps' :func:`intervals.sweep_points` added up), ``None`` when a
    step has too few seeds to bound its gap at all.
    """

    upper: str
    lower: str
    seeds: int
    via: tuple[str, ...] = ()
    p: float = 0.0
    points: float | None = None


@dataclass(frozen=True)
class Ratings:
    """A ratings table: players group by group, best first, then players with no finished game.

    ``rating`` is ``None`` where the data fix no number (a swept tier, or no games);
    ``low`` / ``high`` are the 95% interval ends, ``None`` on an open side. ``samples[r, i]``
    is player ``i``'s rating in resample ``r`` relative to its tier (``NaN`` for a lone
    player). ``group[i]`` numbers the connected groups from 1 (``None``: no finished game);
    ``tier[i]`` numbers the tiers of a group from 0 (best). ``rank`` starts at 1 in every
    group and is shared where the order is the bootstrap's, not the ratings', where two
    neighbours' ratings are equal (under :data:`SAME_RATING`), and where no games decide
    the order of two neighbours of different tiers (no chain of sweeps, see :class:`Link`).
    ``no_spread[i]``: the player's results were the same on every deal seed, so the
    bootstrap cannot measure their spread; its interval is widened to the exact binomial
    interval of its score share (:func:`spreadless_interval`).
    """

    players: tuple[str, ...]
    rating: tuple[float | None, ...]
    low: tuple[float | None, ...]
    high: tuple[float | None, ...]
    bounds: tuple[Bound | None, ...]
    reference: tuple[bool, ...]
    group: tuple[int | None, ...]
    tier: tuple[int | None, ...]
    rank: tuple[int | None, ...]
    offset: tuple[float | None, ...]
    samples: FloatArray
    deals: int
    links: tuple[Link, ...]
    interval_seeds: int
    method: str = BRADLEY_TERRY
    prior: float = 1.0
    no_spread: tuple[bool, ...] = ()

    def rows(self) -> list[dict[str, object]]:
        """One JSON-able dict per player, in table order."""
        return [
            {
                "player": self.players[i],
                "group": self.group[i],
                "rank": self.rank[i],
                "rating": self.rating[i],
                "rating_low": self.low[i],
                "rating_high": self.high[i],
                "reference": self.reference[i],
                "bound": bound.to_dict() if (bound := self.bounds[i]) is not None else None,
            }
            for i in range(len(self.players))
        ]

    def link(self, upper: str, lower: str) -> Link | None:
        """The chain of sweeps ordering neighbours ``upper`` and ``lower`` of different tiers, if any."""
        return next((k for k in self.links if (k.upper, k.lower) == (upper, lower)), None)


def components(met: FloatArray) -> list[int]:
    """For each player, the number of its connected component in the graph of ``met > 0``."""
    label = [-1] * len(met)
    for start in range(len(met)):
        if label[start] >= 0:
            continue
        label[start] = start
        stack = [start]
        while stack:
            node = stack.pop()
            for other in np.flatnonzero(met[node] > 0):
                if label[other] < 0:
                    label[other] = start
                    stack.append(int(other))
    return label


def bradley_terry(
    records: Sequence[EpisodeRecord],
    *,
    players: Sequence[str] | None = None,
    resamples: int = 1000,
    seed: int = 0,
    anchor: str | None = None,
    prior: float = 1.0,
) -> Ratings:
    """Bradley-Terry ratings of the players in ``records`` (see the module docstring)."""
    data = comparisons(records, players)
    return ratings_from(data, resamples=resamples, seed=seed, anchor=anchor, prior=prior)


def ratings_from(
    data: Comparisons,
    *,
    resamples: int = 1000,
    seed: int = 0,
    anchor: str | None = None,
    prior: float = 1.0,
    tier_fit: TierFit | None = None,
    method: str = BRADLEY_TERRY,
) -> Ratings:
    """The ratings table of ``data`` (see the module docstring).

    ``tier_fit`` fits the players of one tier (default: Bradley-Terry on ``data``'s pairs;
    :func:`arena.tournament.plackett_luce.choice_fit` for games with more seats).
    """
    if not data.seeds:
        raise ValueError("no finished episodes to rate")
    if anchor is not None and anchor not in data.players:
        raise ValueError(f"anchor {anchor!r} is not one of the players")
    fitter = tier_fit or pair_fit(data, prior)
    draws = bootstrap_draws(data, resamples, seed)
    met = (data.games > 0).astype(float)
    order_key = fit(data.total + prior / 2.0 * met)
    anchor_index = data.players.index(anchor) if anchor is not None else None
    builder = _TableBuilder(data, draws, _interval_seeds(data))
    for number, group in enumerate(groups(data.total, order_key), 1):
        builder.add_group(number, group, fitter, anchor_index)
    builder.add_unrated()
    return builder.build(method, prior)


def _interval_seeds(data: Comparisons) -> int:
    """Deal seeds behind an interval: all of them, or the smallest stratum's."""
    if data.strata is None:
        return len(data.seeds)
    return min(data.strata.count(s) for s in set(data.strata))


@dataclass(frozen=True)
class _Candidate:
    """A sweep that could carry a tier's bound: ``a`` of the tier against ``b`` of another."""

    a: int
    b: int
    seeds: int
    points: float
    level: float | None
    upper: bool


class _TableBuilder:
    """Collects the rows of :class:`Ratings` group by group."""

    def __init__(self, data: Comparisons, draws: FloatArray, interval_seeds: int) -> None:
        self.data = data
        self.draws = draws
        self.interval_seeds = interval_seeds
        self.met_seeds = data.seeds_met()
        m = len(data.players)
        self.order: list[int] = []
        self.rating: dict[int, float | None] = {}
        self.low: dict[int, float | None] = {}
        self.high: dict[int, float | None] = {}
        self.bounds: dict[int, Bound | None] = {}
        self.reference: dict[int, bool] = {}
        self.group: dict[int, int | None] = {}
        self.tier: dict[int, int | None] = {}
        self.rank: dict[int, int | None] = {}
        self.offset: dict[int, float | None] = {}
        self.samples = np.full((len(draws), m), np.nan)
        self.links: list[Link] = []
        self.no_spread: set[int] = set()

    def add_group(self, number: int, group: Group, fitter: TierFit, anchor: int | None) -> None:
        """Fit every tier of ``group``, rate its reference tier and bound the others."""
        reference = next((t for t, tier in enumerate(group.tiers) if anchor in tier), group.reference)
        offsets: list[dict[int, float]] = []
        ordered: list[list[int]] = []
        for t, tier in enumerate(group.tiers):
            point, samples = self._fit(tier, fitter)
            fixed = tier.index(anchor) if t == reference and anchor in tier else None
            shift = point.mean() if fixed is None else point[fixed]
            boot_shift = samples.mean(axis=1, keepdims=True) if fixed is None else samples[:, [fixed]]
            scaled = ELO * (samples - boot_shift)
            if len(tier) > 1:
                self.samples[:, list(tier)] = scaled
            offsets.append({p: float(ELO * (point[i] - shift)) for i, p in enumerate(tier)})
            self.offset.update(offsets[-1])
            ordered.append(self._order_tier(tier, offsets[-1]))
            if t == reference:
                self._rate_reference(tier, offsets[-1], scaled)
        self._bound_tiers(group, reference, offsets)
        listed = [(t, p) for t, members in enumerate(ordered) for p in members]
        for position, ((t, p), previous) in enumerate(zip(listed, [None, *listed], strict=False), 1):
            shared = False
            if previous is not None:
                t_above, above = previous
                if t_above == t:
                    # listed against its ratings (the bootstrap's order), or equal: one rank
                    shared = offsets[t][above] - offsets[t][p] < SAME_RATING
                else:
                    link = self._chain(above, p, group.players)
                    shared = link is None  # no games decide their order
                    if link is not None:
                        self.links.append(link)
            self.rank[p] = self.rank[previous[1]] if shared and previous is not None else position
            self.order.append(p)
            self.group[p], self.tier[p] = number, t

    def _chain(self, upper: int, lower: int, members: tuple[int, ...]) -> Link | None:
        """The shortest chain of sweeps from ``upper`` down to ``lower`` in ``members`` (see :class:`Link`).

        A step ``a -> b`` is a pair that met on some deal seed where ``b`` never scored
        against ``a`` (no win, no draw). Among chains of one length the one whose weakest
        step rests on the most seeds.
        """
        total, met = self.data.total, self.met_seeds
        best: dict[int, tuple[int, tuple[int, ...]]] = {upper: (10**9, ())}
        frontier = [upper]
        while frontier and lower not in best:
            found: dict[int, tuple[int, tuple[int, ...]]] = {}
            for a in frontier:
                weakest, path = best[a]
                for b in members:
                    if b in best or not met[a, b] or total[b, a] > 0:
                        continue
                    candidate = (min(weakest, int(met[a, b])), (*path, b))
                    if b not in found or candidate[0] > found[b][0]:
                        found[b] = candidate
            best.update(found)
            frontier = list(found)
        if lower not in best:
            return None
        _, path = best[lower]
        steps = list(pairwise((upper, *path)))
        seeds = [int(met[a, b]) for a, b in steps]
        points = [sweep_points(n) for n in seeds]
        names = self.data.players
        return Link(
            upper=names[upper],
            lower=names[lower],
            seeds=min(seeds),
            via=tuple(names[v] for v in path[:-1]),
            p=max(0.0, 1.0 - sum(1.0 - sweep_order_probability(n) for n in seeds)),
            points=sum(points) if all(x > 0 for x in points) else None,
        )

    def _fit(self, tier: tuple[int, ...], fitter: TierFit) -> tuple[FloatArray, FloatArray]:
        if len(tier) == 1:
            return np.zeros(1), np.zeros((len(self.draws), 1))
        return fitter(tier, self.draws)

    def _order_tier(self, tier: tuple[int, ...], offsets: dict[int, float]) -> list[int]:
        """The tier best first; a neighbouring pair its bootstrap orders the other way is swapped."""
        members = sorted(tier, key=lambda p: (-offsets[p], self.data.players[p]))
        for _ in range(len(members) ** 2):
            swapped = False
            for i in range(len(members) - 1):
                if self.keep_share(members[i], members[i + 1]) < 0.5:
                    members[i], members[i + 1] = members[i + 1], members[i]
                    swapped = True
            if not swapped:
                break
        return members

    def keep_share(self, upper: int, lower: int) -> float:
        """The share of resamples rating ``upper`` above ``lower`` (exact ties half); 0.5 without samples."""
        return keep_share(self.samples[:, upper] - self.samples[:, lower])

    def _rate_reference(self, tier: tuple[int, ...], offsets: dict[int, float], scaled: FloatArray) -> None:
        lone = len(tier) == 1 or self.interval_seeds < 2
        low, high = (None, None) if lone else expanded_percentiles(scaled, self.interval_seeds)
        for i, p in enumerate(tier):
            self.rating[p] = CENTRE + offsets[p]
            self.low[p] = None if low is None else CENTRE + float(low[i])
            self.high[p] = None if high is None else CENTRE + float(high[i])
            self.bounds[p] = None
            self.reference[p] = len(tier) == 1
            floor = None if len(tier) == 1 else spreadless_interval(self.data.wins, p, tier)
            if floor is not None:
                self.no_spread.add(p)
                rating = CENTRE + offsets[p]
                low_now, high_now = self.low[p], self.high[p]
                self.low[p] = min(rating + floor[0], math.inf if low_now is None else low_now)
                self.high[p] = max(rating + floor[1], -math.inf if high_now is None else high_now)

    def _bound_tiers(self, group: Group, reference: int, offsets: list[dict[int, float]]) -> None:
        """One-sided bounds for every tier but the reference, chained outwards from it.

        A tier above the reference that a chain of sweeps links down to it gets a lower
        bound (the strongest its sweeps support), one below it an upper bound; a tier
        linked to the reference by no such chain gets only its bound against a neighbour.
        """
        tiers = group.tiers
        reach = closure(group.above)
        side_of = {reference: 0}
        for t in [*range(reference - 1, -1, -1), *range(reference + 1, len(tiers))]:
            side = (1 if reach[t, reference] else 0) if t < reference else (-1 if reach[reference, t] else 0)
            best: tuple[bool, float, int, int] | None = None
            chosen: _Candidate | None = None
            for u, b_tier in enumerate(tiers):
                upper = t < u
                if u == t or not (group.above[t, u] if upper else group.above[u, t]):
                    continue
                for a in tiers[t]:
                    for b in b_tier:
                        seeds = int(self.met_seeds[a, b])
                        if not seeds:
                            continue
                        points = sweep_points(seeds)
                        level = None
                        if side and side_of.get(u) in (0, side) and upper == (side > 0) and points > 0:
                            # the far end of b's own interval, not its point rating: both may err
                            edge = (self.low if side > 0 else self.high)[b]
                            value = self.rating[b] if u == reference and edge is None else edge
                            if value is not None:
                                level = value + side * points - offsets[t][a]
                        # a number first, then the strongest, then more seeds, then the nearest tier
                        key = (
                            level is not None,
                            side * level if level is not None else 0.0,
                            seeds,
                            -abs(u - t),
                        )
                        if best is None or key > best:
                            best, chosen = key, _Candidate(a, b, seeds, points, level, upper)
            if side:
                side_of[t] = side
            assert chosen is not None  # a tier of a connected group met another tier
            self._set_bounds(tiers[t], offsets[t], chosen)

    def _set_bounds(self, tier: tuple[int, ...], offsets: dict[int, float], chosen: _Candidate) -> None:
        names = self.data.players
        for p in tier:
            extra = offsets[p] - offsets[chosen.a]
            edge = None if chosen.level is None else chosen.level + offsets[p]
            self.rating[p] = None
            self.low[p] = edge if chosen.upper else None
            self.high[p] = None if chosen.upper else edge
            points = None
            if chosen.points > 0:
                points = chosen.points + extra if chosen.upper else chosen.points - extra
            self.bounds[p] = Bound(
                side="above" if chosen.upper else "below",
                other=names[chosen.b],
                points=points,
                seeds=chosen.seeds,
                p=sweep_probability(chosen.seeds),
                via=names[chosen.a],
            )
            self.reference[p] = False

    def add_unrated(self) -> None:
        """Players with no finished game: listed last, with no rating and no group."""
        for p in range(len(self.data.players)):
            if p not in self.group:
                self.order.append(p)
                self.rating[p] = self.low[p] = self.high[p] = None
                self.bounds[p], self.reference[p] = None, False
                self.group[p] = self.tier[p] = self.rank[p] = self.offset[p] = None

    def build(self, method: str, prior: float) -> Ratings:
        """The finished :class:`Ratings`."""
        order = self.order
        return Ratings(
            players=tuple(self.data.players[p] for p in order),
            rating=tuple(self.rating[p] for p in order),
            low=tuple(self.low[p] for p in order),
            high=tuple(self.high[p] for p in order),
            bounds=tuple(self.bounds[p] for p in order),
            reference=tuple(self.reference[p] for p in order),
            group=tuple(self.group[p] for p in order),
            tier=tuple(self.tier[p] for p in order),
            rank=tuple(self.rank[p] for p in order),
            offset=tuple(self.offset[p] for p in order),
            samples=self.samples[:, order],
            deals=len(self.data.seeds),
            links=tuple(self.links),
            interval_seeds=self.interval_seeds,
            method=method,
            prior=prior,
            no_spread=tuple(p in self.no_spread for p in order),
        )


def spreadless_interval(wins: FloatArray, player: int, tier: tuple[int, ...]) -> tuple[float, float] | None:
    """Rating points below and above ``player``'s rating that its results alone allow, if they have no spread.

    ``None`` unless ``player``'s score share against the rest of ``tier`` was the same on
    every deal seed it played (all draws, or identical seeds): the seed bootstrap then
    resamples one value and its interval is no wider than rounding. What the data do say
    is the exact binomial interval of that share over the seeds played
    (:func:`intervals.exact_share_interval`, a draw counting half), moved to the rating
    scale as the log-odds distance from the share observed.
    """
    others = [q for q in tier if q != player]
    scored = wins[:, player, others].sum(axis=1)
    played = scored + wins[:, others, player].sum(axis=1)
    seeds = played > 0
    if not seeds.any():
        return None
    shares = scored[seeds] / played[seeds]
    if shares.max() - shares.min() > 1e-12:
        return None
    n = int(seeds.sum())
    share = float(shares[0])
    low, high = exact_share_interval(share * n, n)
    edge = 0.5 / max(n, 1)  # a share of 0 or 1 has no log-odds: measure from half a seed inside

    def logit(x: float) -> float:
        x = min(max(x, edge / 10.0), 1.0 - edge / 10.0)
        return math.log(x / (1.0 - x))

    centre = logit(min(max(share, edge), 1.0 - edge))
    return ELO * (logit(low) - centre), ELO * (logit(high) - centre)


class WinMatrix(TypedDict):
    """The pairwise win matrix in the players' order."""

    players: list[str]
    wins: list[list[float]]
    games: list[list[float]]
    rate: list[list[float | None]]


def win_matrix(data: Comparisons) -> WinMatrix:
    """The pairwise win matrix: ``wins[i][j]`` (ties half), ``games[i][j]`` and ``rate[i][j]``.

    ``rate`` is ``wins / games``, or ``None`` for a pair that never met (and the diagonal).
    """
    wins = data.total
    played = data.games
    rate = [
        [float(wins[i, j] / played[i, j]) if played[i, j] > 0 else None for j in range(len(data.players))]
        for i in range(len(data.players))
    ]
    return WinMatrix(
        players=list(data.players), wins=wins.round(6).tolist(), games=played.round(6).tolist(), rate=rate
    )
