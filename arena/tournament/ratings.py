"""Bradley-Terry ratings with seed-bootstrap intervals, and the pairwise win matrix.

Outcomes. Every game of :func:`records.games` is broken into pairs of entries held by
different players: the higher standing wins the pair (1), an equal standing is a tie
(0.5 to each). Two-seat games give one pair per episode; games with more seats give every
pair of seats; one-seat games compare players on the same deal seed.

Model. ``P(a beats b) = 1 / (1 + 10 ** ((R_b - R_a) / 400))``: a 400-point gap is 10:1 odds,
as in Elo. Ratings are the maximum-likelihood fit of that model (ties count half a win each
way), found by Newton's method, centred so the players' mean is 1000, or shifted so
``anchor`` is exactly 1000. Each pair of players that met also gets ``prior`` virtual
comparisons split as a draw (default 1): this keeps a clean sweep finite, and its pull
fades as one over the number of games (``prior=0`` is the plain MLE).

Intervals. 95% percentile intervals from ``resamples`` bootstrap resamples (default 1000)
that draw whole deal seeds with replacement: every pairing and seating played on a drawn
seed comes along, so the interval reflects how much the result depends on which deals were
dealt (episodes on one seed are not independent; resampling episodes would understate the
spread). Draws come from ``numpy.random.default_rng(seed)``: same data and seed, same
intervals. With an anchor, intervals are relative to the anchor (its own is a point).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

import numpy as np
import numpy.typing as npt

from arena.tournament.records import EpisodeRecord, games, player_order

FloatArray = npt.NDArray[np.float64]
ELO = 400.0 / math.log(10.0)
CENTRE = 1000.0
RIDGE = 1e-6  # keeps players in separate components of the comparison graph finite and centred


@dataclass(frozen=True)
class Comparisons:
    """Pairwise results per deal seed: ``wins[s, a, b]`` is a's wins over b on seed ``s``."""

    players: tuple[str, ...]
    seeds: tuple[int, ...]
    wins: FloatArray

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


@dataclass(frozen=True)
class Ratings:
    """Ratings on the Elo-like scale, best first, with 95% bootstrap intervals.

    ``samples[r, i]`` is player ``players[i]``'s rating in bootstrap resample ``r``.
    ``components[i]`` numbers the connected part of the who-met-whom graph the player is in:
    ratings in different parts were never compared (each part is centred on its own).
    """

    players: tuple[str, ...]
    rating: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    samples: FloatArray
    deals: int
    components: tuple[int, ...]
    method: str = "bradley-terry"

    def rows(self) -> list[dict[str, float | str]]:
        """One ``{"player", "rating", "rating_low", "rating_high"}`` dict per player, best first."""
        return [
            {"player": p, "rating": r, "rating_low": lo, "rating_high": hi}
            for p, r, lo, hi in zip(self.players, self.rating, self.low, self.high, strict=True)
        ]


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


def _scaled(theta: FloatArray, anchor: int | None) -> FloatArray:
    shift = theta[..., anchor : anchor + 1] if anchor is not None else 0.0
    result: FloatArray = CENTRE + ELO * (theta - shift)
    return result


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
    data: Comparisons, *, resamples: int = 1000, seed: int = 0, anchor: str | None = None, prior: float = 1.0
) -> Ratings:
    """:func:`bradley_terry` on comparisons already built (the bench reuses them)."""
    if not data.seeds:
        raise ValueError("no finished episodes to rate")
    if anchor is not None and anchor not in data.players:
        raise ValueError(f"anchor {anchor!r} is not one of the players")
    anchor_index = data.players.index(anchor) if anchor is not None else None
    met = (data.games > 0).astype(float)
    virtual = prior / 2.0 * met
    theta = fit(data.total + virtual)
    seeds = len(data.seeds)
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(seeds, np.full(seeds, 1.0 / seeds), size=resamples).astype(float)
    m = len(data.players)
    boot_wins = (draws @ data.wins.reshape(seeds, m * m)).reshape(resamples, m, m) + virtual
    samples = _scaled(fit(boot_wins, start=theta), anchor_index)
    point = _scaled(theta, anchor_index)
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    order = sorted(range(m), key=lambda i: (-point[i], data.players[i]))
    parts = components(met)
    return Ratings(
        players=tuple(data.players[i] for i in order),
        rating=tuple(float(point[i]) for i in order),
        low=tuple(float(low[i]) for i in order),
        high=tuple(float(high[i]) for i in order),
        samples=samples[:, order],
        deals=seeds,
        components=tuple(parts[i] for i in order),
    )


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
