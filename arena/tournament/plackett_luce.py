"""Plackett-Luce maximum-likelihood ratings for games with more than two seats.

A ranked game is read as a sequence of choices: the winner is chosen from everyone, the
runner-up from the rest, and so on, each entry ``i`` with probability ``exp(theta_i)`` over
the sum for the entries still in (Plackett-Luce). Equal standings tie: every member of a
tied block is chosen from the same remaining set before any of them leaves (Breslow's
approximation for tied events). A player holding several seats enters once per seat.
The model is the same as Bradley-Terry's on the same scale, for two entries exactly BT.

The fit maximises the likelihood by Newton's method, every bootstrap resample at once.
Unlike openskill's online update (:mod:`arena.tournament.openskill_ratings`) the result
does not depend on the order the games are fed in. The same weak prior as Bradley-Terry's
(``prior`` virtual comparisons split as a draw between each pair that met) keeps a
resample that drops a pair's only upset finite; games are grouped by the set of entries
still in at each choice, so the work grows with the number of distinct sets, not games.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from arena.tournament.ratings import RIDGE, Comparisons, FloatArray, TierFit
from arena.tournament.records import EpisodeRecord, games

PLACKETT_LUCE = "plackett-luce"


def choice_fit(records: Sequence[EpisodeRecord], data: Comparisons, prior: float) -> TierFit:
    """A :data:`ratings.TierFit` fitting Plackett-Luce on ``records``' rankings among a tier's players."""
    seed_index = {seed: i for i, seed in enumerate(data.seeds)}
    ranked = [
        (seed_index[game.deal_seed], [(data.players.index(p), standing) for p, standing in game.entries])
        for game in games(records)
    ]

    def fit_members(members: tuple[int, ...], draws: FloatArray) -> tuple[FloatArray, FloatArray]:
        sets, chosen = _choices(ranked, members, len(data.seeds))
        total = data.total[np.ix_(list(members), list(members))]
        met = np.argwhere(np.triu((total + total.T) > 0))
        pair_sets = np.zeros((len(met), len(members)))
        pair_sets[np.arange(len(met)), met[:, 0]] = 1.0
        pair_sets[np.arange(len(met)), met[:, 1]] = 1.0
        virtual = pair_sets * prior / 2.0
        all_sets = np.concatenate([sets, pair_sets])
        observed = np.concatenate([chosen.sum(axis=0), virtual])
        point = fit_choices(all_sets, observed[None])[0]
        k, n = len(members), len(chosen)
        boot = (draws @ chosen.reshape(n, -1)).reshape(len(draws), len(sets), k)
        samples = fit_choices(
            all_sets,
            np.concatenate([boot, np.broadcast_to(virtual, (len(draws), *virtual.shape))], axis=1),
            start=point,
        )
        return point, samples

    return fit_members


def _choices(
    ranked: list[tuple[int, list[tuple[int, float]]]], members: tuple[int, ...], seeds: int
) -> tuple[FloatArray, FloatArray]:
    """The distinct choice sets (members' multiplicities) and, per seed, each member's picks from each."""
    local = {p: i for i, p in enumerate(members)}
    set_index: dict[tuple[int, ...], int] = {}
    counts: list[tuple[int, int, int]] = []
    for row, entries in ranked:
        inside = sorted(((local[p], s) for p, s in entries if p in local), key=lambda e: -e[1])
        while len({i for i, _ in inside}) > 1:
            top = inside[0][1]
            block = [i for i, s in inside if s == top]
            multiplicity = [0] * len(members)
            for i, _ in inside:
                multiplicity[i] += 1
            key = tuple(multiplicity)
            column = set_index.setdefault(key, len(set_index))
            counts += [(row, column, i) for i in block]
            inside = [(i, s) for i, s in inside if s != top]
    sets = np.array(list(set_index), dtype=float).reshape(len(set_index), len(members))
    chosen = np.zeros((seeds, len(set_index), len(members)))
    if counts:
        rows, columns, players = (np.array(part, dtype=np.intp) for part in zip(*counts, strict=True))
        np.add.at(chosen, (rows, columns, players), 1.0)
    return sets, chosen


def fit_choices(
    sets: FloatArray,
    chosen: FloatArray,
    start: FloatArray | None = None,
    tol: float = 1e-9,
    max_iter: int = 100,
) -> FloatArray:
    """Plackett-Luce log-strengths (natural units, mean 0), one row per stack of choices.

    ``sets`` is ``(K, m)``: each distinct choice set as the multiplicity of each player in
    it. ``chosen`` is ``(B, K, m)``: how often each player was chosen from each set, per
    problem. Newton's method on the concave log-likelihood, each step capped at one unit.
    """
    batch, _, m = chosen.shape
    wins = chosen.sum(axis=1)
    picks = chosen.sum(axis=2)
    theta = np.zeros((batch, m)) if start is None else np.broadcast_to(start, (batch, m)).copy()
    eye = np.eye(m)
    gauge = np.ones((m, m)) / m
    for _ in range(max_iter):
        weights = sets[None] * np.exp(theta - theta.max(axis=1, keepdims=True))[:, None, :]
        share = weights / weights.sum(axis=2, keepdims=True)
        expected = np.einsum("bk,bki->bi", picks, share)
        gradient = wins - expected - RIDGE * theta
        information = eye * (expected[:, :, None] + RIDGE) - np.einsum("bk,bki,bkj->bij", picks, share, share)
        step = np.linalg.solve(information + gauge, gradient[:, :, None])[:, :, 0]
        largest = np.abs(step).max(axis=1, keepdims=True)
        theta = theta + step / np.maximum(largest, 1.0)
        theta -= theta.mean(axis=1, keepdims=True)
        if largest.max() < tol:
            break
    result: npt.NDArray[np.float64] = theta
    return result
