"""Simulated tournaments with known strengths, in the designs the calibration of the tables is checked on.

Each :class:`Design` deals one tournament from a seeded generator: who plays whom on each
deal seed, the per-seed effect, draws, and the number of seats. :func:`rate` runs it through
the real table code (:func:`arena.tournament.ratings.ratings_from`, Plackett-Luce for more
than two seats) and :func:`score` reads off the two figures the closing table of issue 43
asks for: how often the 95% rating intervals cover the truth, and how many of the
neighbouring pairs printed as sure (``sure >= 0.95``) are in the wrong order (and, for
comparison, among pairs whose own P(order right) >= 0.95).

The truth a rating estimates is the Bradley-Terry (or Plackett-Luce) fit that infinitely many
seeds of the same schedule would give: with per-seed effects or draws that is not the
latent strength itself but the fit to the *expected* pairwise scores, weighted by how often
each pair meets (:meth:`Design.truth`, computed once per design from a large fixed sample).
Orders are judged against the latent strengths, which every design spaces apart.

Used by ``tests/tournament/test_order_calibration.py`` (small, fixed seeds) and
``bench/order_calibration.py`` (the large version that prints the table).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from arena.tournament.confidence import order_confidence
from arena.tournament.plackett_luce import PLACKETT_LUCE, choice_fit
from arena.tournament.ratings import ELO, Comparisons, Ratings, comparisons, fit, ratings_from
from arena.tournament.records import EpisodeRecord
from arena.tournament.schedule import schedule

FloatArray = npt.NDArray[np.float64]
PRINTED = 0.95
"""Neighbouring pairs printed with P(order right) at least this are the claims checked."""


def _no_effect(rng: np.random.Generator, shape: tuple[int, ...]) -> FloatArray:
    return np.zeros(shape)


def _normal(points: float) -> Callable[[np.random.Generator, tuple[int, ...]], FloatArray]:
    def draw(rng: np.random.Generator, shape: tuple[int, ...]) -> FloatArray:
        return rng.normal(0.0, points / ELO, size=shape)

    return draw


def _heavy(points: float) -> Callable[[np.random.Generator, tuple[int, ...]], FloatArray]:
    """Student's t with 2 degrees of freedom (infinite variance), scaled to ``points``."""

    def draw(rng: np.random.Generator, shape: tuple[int, ...]) -> FloatArray:
        return points / ELO * rng.standard_t(2.0, size=shape)

    return draw


@dataclass(frozen=True)
class Design:
    """One simulated tournament design: latent strengths (Elo points), schedule, effects, draws, seats."""

    name: str
    strength: tuple[float, ...]
    effect: Callable[[np.random.Generator, tuple[int, ...]], FloatArray] = _no_effect
    draws: float = 0.0
    seats: int = 2
    meet: Callable[[int, int], float] | None = None
    """For two seats: the chance that pair (a, b) meets on a deal seed (both seatings); ``None``: always."""
    note: str = ""

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(f"p{i}" for i in range(len(self.strength)))

    def deal(self, seeds: int, rng: np.random.Generator) -> tuple[Comparisons, list[EpisodeRecord] | None]:
        """One tournament: its pairwise results, and its records when it has more than two seats."""
        if self.seats == 2:
            return Comparisons(self.players, tuple(range(seeds)), self._pairs(seeds, rng)), None
        records = self._ranked(seeds, rng)
        return comparisons(records, self.players), records

    def _pairs(self, seeds: int, rng: np.random.Generator) -> FloatArray:
        m = len(self.strength)
        theta = np.array(self.strength) / ELO + self.effect(rng, (seeds, m))
        p = 1.0 / (1.0 + np.exp(theta[:, None, :] - theta[:, :, None]))
        first_wins = (rng.random((seeds, m, m)) < p).astype(float)
        if self.draws:
            drawn = rng.random((seeds, m, m)) < self.draws
            first_wins = np.where(drawn, 0.5, first_wins)
        wins = first_wins + (1.0 - first_wins).transpose(0, 2, 1)  # (a, b) seats a first; (b, a) b first
        if self.meet is not None:
            chance = np.array([[self.meet(a, b) if a != b else 0.0 for b in range(m)] for a in range(m)])
            met = rng.random((seeds, m, m)) < np.triu(chance, 1)
            met = met | met.transpose(0, 2, 1)
            wins = wins * met
        wins[:, np.arange(m), np.arange(m)] = 0.0
        return wins

    def _ranked(self, seeds: int, rng: np.random.Generator) -> list[EpisodeRecord]:
        seat_names = [f"s{i}" for i in range(self.seats)]
        strength = dict(zip(self.players, self.strength, strict=True))
        slots = schedule(seat_names, list(self.players), seeds, 0)
        effects = self.effect(rng, (seeds, len(self.players)))
        index = {p: i for i, p in enumerate(self.players)}
        seed_row = {s: i for i, s in enumerate(sorted({slot.deal_seed for slot in slots}))}
        records = []
        gumbel = rng.gumbel(size=(len(slots), self.seats))
        for n, slot in enumerate(slots):
            row = seed_row[slot.deal_seed]
            scores = {
                seat: strength[p] / ELO + effects[row, index[p]] + gumbel[n, k]
                for k, (seat, p) in enumerate(slot.seating.items())
            }
            records.append(EpisodeRecord(slot.slot_key, slot.deal_seed, slot.seating, scores))
        return records

    @cached_property
    def truth(self) -> FloatArray:
        """What each rating estimates (Elo points, mean 0): the fit to the expected scores (see module)."""
        return self._truth()

    def _truth(self) -> FloatArray:
        m = len(self.strength)
        theta = np.array(self.strength) / ELO
        rng = np.random.default_rng(12345)
        if self.seats > 2 and self.effect is _no_effect:
            centred: FloatArray = ELO * (theta - theta.mean())
            return centred
        if self.seats > 2:
            # the pairwise win chances of a Plackett-Luce game with per-seed effects, by sampling
            draws = 200_000
            shifted = theta[None, :] + self.effect(rng, (draws, m))
            p = (1.0 / (1.0 + np.exp(shifted[:, None, :] - shifted[:, :, None]))).mean(axis=0)
            weights = np.ones((m, m))
        else:
            samples = 200_000 if self.effect is not _no_effect else 1
            shifted = theta[None, :] + self.effect(rng, (samples, m))
            p = (1.0 / (1.0 + np.exp(shifted[:, None, :] - shifted[:, :, None]))).mean(axis=0)
            p = self.draws * 0.5 + (1.0 - self.draws) * p
            weights = np.array(
                [[(self.meet(a, b) if self.meet else 1.0) for b in range(m)] for a in range(m)]
            )
            weights = np.triu(weights, 1) + np.triu(weights, 1).T
        np.fill_diagonal(p, 0.0)
        strengths = fit(p * weights * 1e6)
        result: FloatArray = ELO * (strengths - strengths.mean())
        return result


def _ladder(a: int, b: int) -> float:
    """Neighbours by strength meet on every seed, players two apart on a third, the rest on a tenth."""
    gap = abs(a - b)
    return 1.0 if gap == 1 else (1.0 / 3.0 if gap == 2 else 0.1)


def _sparse(a: int, b: int) -> float:
    """Every pair meets on a fixed share of the seeds, from 15% to 100% by a hash of the pair."""
    return 0.15 + 0.85 * (((a + 1) * 7 + (b + 1) * 13) % 10) / 9


UNEVEN = (0.0, 20.0, 45.0, 60.0, 130.0, 150.0, 260.0, 400.0)
"""Eight unevenly spaced players: three near-ties (20, 15 and 20 points apart) among wide gaps."""
UNEVEN_PL = (0.0, 25.0, 60.0, 140.0, 160.0, 330.0)
DESIGNS = {
    d.name: d
    for d in (
        Design("uneven", UNEVEN, note="8 unevenly spaced players, every pair in both seatings on every seed"),
        Design("seed-effect", UNEVEN, effect=_normal(150.0), note="uneven, per-seed effects N(0, 150)"),
        Design("heavy-tails", UNEVEN, effect=_heavy(60.0), note="uneven, per-seed effects t(2 df) x 60"),
        Design("draws-30", UNEVEN, draws=0.3, note="uneven, 30% of games drawn"),
        Design(
            "unbalanced",
            UNEVEN,
            meet=_ladder,
            note="uneven; neighbours by strength meet every seed, two apart 1/3, others 1/10 of seeds",
        ),
        Design("sparse", UNEVEN, meet=_sparse, note="uneven; each pair meets on 15-100% of the seeds"),
        Design("pl-3-seats", UNEVEN_PL, seats=3, note="6 unevenly spaced players, 3-seat Plackett-Luce"),
        Design("pl-4-seats", UNEVEN_PL, seats=4, note="6 unevenly spaced players, 4-seat Plackett-Luce"),
    )
}
SEED_COUNTS = (10, 30, 100)


def rate(design: Design, seeds: int, rng: np.random.Generator, *, resamples: int, seed: int) -> Ratings:
    """One tournament of ``design`` rated by the real table code."""
    data, records = design.deal(seeds, rng)
    if records is None:
        return ratings_from(data, resamples=resamples, seed=seed)
    return ratings_from(
        data, resamples=resamples, seed=seed, tier_fit=choice_fit(records, data, 1.0), method=PLACKETT_LUCE
    )


@dataclass
class Tally:
    """Counts over many tournaments of one design and seed count."""

    intervals: int = 0
    covered: int = 0
    printed: int = 0
    wrong: int = 0
    raw_printed: int = 0
    raw_wrong: int = 0
    """The same for each pair's own P(order right), unadjusted for the table's choice of pairs."""

    def add(self, design: Design, ratings: Ratings) -> None:
        """Count one rated tournament's intervals and printed neighbour pairs."""
        truth = design.truth
        index = {p: i for i, p in enumerate(design.players)}
        centred = _centred(ratings, truth, index)
        for player, low, high in zip(ratings.players, ratings.low, ratings.high, strict=True):
            if low is None or high is None or centred is None:
                continue
            self.intervals += 1
            self.covered += low <= centred[index[player]] <= high
        for row in order_confidence(ratings):
            wrong = design.strength[index[row.higher]] < design.strength[index[row.lower]]
            if row.sure >= PRINTED:
                self.printed += 1
                self.wrong += wrong
            if row.p_order_right >= PRINTED:
                self.raw_printed += 1
                self.raw_wrong += wrong

    @property
    def coverage(self) -> float:
        return self.covered / self.intervals if self.intervals else math.nan

    @property
    def wrong_share(self) -> float:
        return self.wrong / self.printed if self.printed else 0.0

    @property
    def raw_wrong_share(self) -> float:
        return self.raw_wrong / self.raw_printed if self.raw_printed else 0.0


def _centred(ratings: Ratings, truth: FloatArray, index: dict[str, int]) -> FloatArray | None:
    """The truth shifted onto the table's scale: its reference tier's mean is the table's 1000."""
    rated = [i for i, r in enumerate(ratings.rating) if r is not None and ratings.low[i] is not None]
    if not rated:
        return None
    members = [index[ratings.players[i]] for i in rated]
    shift = float(np.mean([ratings.rating[i] for i in rated])) - float(truth[members].mean())
    return truth + shift


def run(design: Design, seeds: int, tournaments: int, *, resamples: int, base_seed: int = 0) -> Tally:
    """Rate ``tournaments`` tournaments of ``design`` at ``seeds`` deal seeds and tally them."""
    tally = Tally()
    rng = np.random.default_rng([base_seed, seeds, sorted(DESIGNS).index(design.name)])
    for t in range(tournaments):
        tally.add(design, rate(design, seeds, rng, resamples=resamples, seed=t))
    return tally
