"""Each player's own metrics and the facts of the deals, as means with 95% seed-bootstrap intervals.

Whose metric is it? A game's recorded metrics mix what a seat earned or did (bargain's
``gain``, ``bluffs``) with facts of the whole episode that both sides made together (the
deal's ``price``, ``surplus``, whether it ``closed``) and with what the deal handed a seat
(``own_number``: the seller's cost, the buyer's value). A :class:`MetricRoles`, read off the
game's definition, says which names are which. A player's row holds only its own metrics
(and its score), pooled over its seats and, when the seats are roles, per seat. The episode's
facts and the dealt numbers are summarised apart, per line-up and over all deals
(:func:`deal_facts`): on paired deals they are the same for every player, so a player's row
would only repeat them.

Each value is one number per seat (own metrics, dealt numbers) or per episode (episode
facts); booleans count as 0/1 and ``None`` or text is skipped. The mean is over those values.
The interval is a percentile interval of the mean over bootstrap resamples that draw whole
deal seeds with replacement (the same unit as the ratings; a t-interval would treat the
episodes on one seed as independent, which they are not), expanded for few seeds as the
ratings are (:func:`arena.tournament.intervals.tail_share`: a plain 2.5..97.5 percentile
interval of a skewed metric covered 78% at 10 seeds). The resampled mean is the ratio of the
drawn seeds' sums to their counts. With values from a single deal seed there is no interval
(``low`` and ``high`` are ``None``): one seed says nothing about the spread. Every summary of
one call uses the same resamples.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from arena.tournament.intervals import tail_share
from arena.tournament.records import EpisodeRecord, player_order

if TYPE_CHECKING:
    from arena.contract.game import GameDefinition

SCORE = "score"
POOLED = None
"""The group key of values pooled over every seat (or every line-up): never a seat's name."""

FloatArray = npt.NDArray[np.float64]
Key = tuple[object, str]
"""A summary's key: (group, metric name)."""


@dataclass(frozen=True)
class MetricSummary:
    """A metric's mean for one player with its 95% interval and number of values."""

    mean: float
    low: float | None
    high: float | None
    n: int
    rough: bool = False
    """The values are so skewed that the interval is rough (:func:`skewed`)."""

    def to_dict(self) -> dict[str, float | int | bool | None]:
        """JSON-able form: ``{"mean", "low", "high", "n", "rough"}``."""
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n, "rough": self.rough}


@dataclass(frozen=True)
class MetricRoles:
    """Which recorded metric names are facts of the deal rather than a seat's own, and whether seats differ.

    ``episode``: the same for every seat of an episode (the deal's price); ``dealt``: per seat,
    but handed out by the deal (bargain's ``own_number``); ``by_seat``: break a player's own
    metrics down by the seat it held (roles, stand positions). The defaults make every metric
    a player's own, with a breakdown by seat.
    """

    episode: frozenset[str] = field(default_factory=frozenset)
    dealt: frozenset[str] = field(default_factory=frozenset)
    by_seat: bool = True

    @classmethod
    def of(cls, game: GameDefinition) -> MetricRoles:
        """The roles a game definition declares (``episode_metrics``, ``dealt_metrics``, ``seats_differ``)."""
        return cls(frozenset(game.episode_metrics), frozenset(game.dealt_metrics), game.seats_differ)

    def own(self, name: str) -> bool:
        """Whether ``name`` is something a seat earned or did (its own metric)."""
        return name not in self.episode and name not in self.dealt


def _numeric(value: object) -> float | None:
    # value == value is false only for NaN; math/numpy isnan per value costs more on 10^5 values.
    if isinstance(value, bool | int | float) and value == value:
        return float(value)
    return None


class _Cells:
    """Values keyed by (group, metric), per deal seed, summarised with one shared set of resamples."""

    def __init__(self, records: Sequence[EpisodeRecord]) -> None:
        seeds = sorted({record.deal_seed for record in records})
        self.seed_index = {s: i for i, s in enumerate(seeds)}
        self.columns: dict[Key, int] = {}
        self.rows: list[int] = []
        self.cols: list[int] = []
        self.values: list[float] = []

    def add(self, deal_seed: int, keys: Iterable[Key], raw: object) -> None:
        """One value of ``raw`` (if numeric) under each of ``keys``."""
        value = _numeric(raw)
        if value is not None:
            row, columns = self.seed_index[deal_seed], self.columns
            for key in keys:
                self.rows.append(row)
                self.cols.append(columns.setdefault(key, len(columns)))
                self.values.append(value)

    def summaries(self, resamples: int, seed: int) -> dict[Key, MetricSummary]:
        if not self.columns:
            return {}
        n_seeds = len(self.seed_index)
        sums = np.zeros((n_seeds, len(self.columns)))
        counts = np.zeros((n_seeds, len(self.columns)))
        if self.values:
            rows, cols = np.array(self.rows, dtype=np.intp), np.array(self.cols, dtype=np.intp)
            np.add.at(sums, (rows, cols), np.array(self.values))
            np.add.at(counts, (rows, cols), 1.0)
        total_sums, total_counts = sums.sum(axis=0), counts.sum(axis=0)
        means = total_sums / np.maximum(total_counts, 1.0)
        low = high = np.full(len(self.columns), np.nan)
        seeds_with = np.count_nonzero(counts, axis=0)
        if resamples and n_seeds > 1:
            rng = np.random.default_rng(seed)
            draws = rng.multinomial(n_seeds, np.full(n_seeds, 1.0 / n_seeds), size=resamples).astype(float)
            with np.errstate(invalid="ignore", divide="ignore"):
                boot = (draws @ sums) / (draws @ counts)
            tails = np.array([tail_share(int(k)) if k > 1 else 0.0 for k in seeds_with])
            low, high = _nan_percentile(boot, 100.0 * tails), _nan_percentile(boot, 100.0 * (1.0 - tails))
        rough = skewed(sums, counts)
        return {
            key: MetricSummary(
                float(means[c]),
                float(low[c]) if seeds_with[c] > 1 and np.isfinite(low[c]) else None,
                float(high[c]) if seeds_with[c] > 1 and np.isfinite(high[c]) else None,
                int(total_counts[c]),
                bool(rough[c]),
            )
            for key, c in self.columns.items()
        }


SKEW_ROUGH = 1.0
"""Per-seed skewness beyond which a metric's interval is flagged rough."""


def skewed(sums: FloatArray, counts: FloatArray) -> npt.NDArray[np.bool_]:
    """Per column of per-seed ``sums`` / ``counts``: are its per-seed means skewed past :data:`SKEW_ROUGH`?

    A bootstrap percentile interval of a mean needs the mean to be near normal. On a very
    skewed metric it is not at tournament sizes: in ``tests/tournament/test_coverage.py`` a
    lognormal metric (sigma 1.4) covered 85-90% at 10-100 seeds whatever the interval
    method. Its seeds' sample skewness ``g1`` exceeds 1 in 96% of 30-seed and nearly all
    100-seed tournaments, while a normal metric's does in under 2% (at 30 seeds); such a
    metric's interval is flagged rough rather than trusted. Needs three seeds with values.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        per_seed = np.where(counts > 0, sums / np.where(counts > 0, counts, 1.0), np.nan)
        seeds = np.count_nonzero(counts > 0, axis=0)
        centred = per_seed - np.nanmean(per_seed, axis=0)  # every column has a value on some seed
        m2 = np.nanmean(centred**2, axis=0)
        m3 = np.nanmean(centred**3, axis=0)
        g1 = np.where(m2 > 0, m3 / np.where(m2 > 0, m2, 1.0) ** 1.5, 0.0)
    result: npt.NDArray[np.bool_] = (seeds >= 3) & (np.abs(g1) > SKEW_ROUGH)
    return result


def _nan_percentile(values: FloatArray, q: float | FloatArray) -> FloatArray:
    """``numpy.nanpercentile(values, q, axis=0)`` (linear method) without its per-column Python loop.

    A resample that drew none of a column's seeds gives NaN there; numpy then falls back to one
    call per column, which dominated the table's time. Same rule and arithmetic (numpy's lerp).
    """
    ordered = np.sort(values, axis=0)  # NaN sorts last
    valid = np.count_nonzero(~np.isnan(values), axis=0)
    position = np.maximum(valid - 1, 0) * (q / 100.0)
    below = np.floor(position).astype(np.intp)
    above = np.minimum(below + 1, np.maximum(valid - 1, 0))
    a = np.take_along_axis(ordered, below[None, :], axis=0)[0]
    b = np.take_along_axis(ordered, above[None, :], axis=0)[0]
    t = position - below
    diff = b - a
    result: FloatArray = np.where(t >= 0.5, b - diff * (1 - t), a + diff * t)
    result[valid == 0] = np.nan
    return result


def _nest(
    found: Mapping[Key, MetricSummary], groups: Iterable[Hashable]
) -> dict[Any, dict[str, MetricSummary]]:
    """``{group: {metric: summary}}`` for keys ``(group, metric)``, metrics sorted by name."""
    result: dict[Any, dict[str, MetricSummary]] = {group: {} for group in groups}
    for key in sorted(found, key=lambda k: k[1]):
        group, name = key
        if group in result:
            result[group][name] = found[key]
    return result


def metric_means(
    records: Sequence[EpisodeRecord],
    *,
    players: Sequence[str] | None = None,
    resamples: int = 1000,
    seed: int = 0,
    roles: MetricRoles | None = None,
) -> dict[str, dict[str, MetricSummary]]:
    """``{player: {metric: MetricSummary}}``: each player's own metrics over all its seats; ``score`` too."""
    return player_metrics(records, players=players, resamples=resamples, seed=seed, roles=roles)[0]


def player_metrics(
    records: Sequence[EpisodeRecord],
    *,
    players: Sequence[str] | None = None,
    resamples: int = 1000,
    seed: int = 0,
    roles: MetricRoles | None = None,
) -> tuple[dict[str, dict[str, MetricSummary]], dict[str, dict[str, dict[str, MetricSummary]]]]:
    """Each player's own metrics (and score): over all its seats, and ``{player: {seat: ...}}`` per seat.

    The per-seat part is empty when ``roles.by_seat`` is false (seats that do not differ).
    """
    roles = roles or MetricRoles()
    order = player_order(records, players)
    cells = _Cells(records)
    seats: dict[str, dict[str, None]] = {player: {} for player in order}
    for record in records:
        for seat, player in record.seating.items():
            seats[player][seat] = None
            values = {name: value for name, value in record.metrics.get(seat, {}).items() if roles.own(name)}
            if seat in record.scores:
                values[SCORE] = record.scores[seat]
            groups = ((player, POOLED), (player, seat)) if roles.by_seat else ((player, POOLED),)
            for name, raw in values.items():
                cells.add(record.deal_seed, [(group, name) for group in groups], raw)
    found = _nest(cells.summaries(resamples, seed), [(p, s) for p in order for s in (POOLED, *seats[p])])
    overall = {player: found[(player, POOLED)] for player in order}
    if not roles.by_seat:
        return overall, {}
    seat_order = _seat_order(records)
    return overall, {
        player: {seat: found[(player, seat)] for seat in sorted(seats[player], key=seat_order.__getitem__)}
        for player in order
    }


def _seat_order(records: Sequence[EpisodeRecord]) -> dict[str, int]:
    """Seats in the order episodes list them (the game's play order), whoever held them."""
    order: dict[str, int] = {}
    for record in records:
        for seat in record.seating:
            order.setdefault(seat, len(order))
    return order


def deal_facts(
    records: Sequence[EpisodeRecord],
    *,
    roles: MetricRoles,
    resamples: int = 1000,
    seed: int = 0,
) -> dict[str, Any]:
    """The facts of the deals, JSON-able: over all deals and per line-up (who sat where).

    ``{"metrics": [...], "dealt": [...], "all": GROUP, "by_lineup": [{"seating": {seat: player},
    **GROUP}, ...]}`` with ``GROUP = {"episodes": n, "metrics": {name: summary},
    "by_seat": {seat: {name: summary}}}``: the episode's facts once per episode (from its first
    seat that has them: the game declares them equal for every seat) and the dealt numbers per seat.
    """
    cells = _Cells(records)
    lineups: dict[tuple[tuple[str, str], ...], int] = {}
    seats: dict[str, None] = {}
    episode_names, dealt_names = sorted(roles.episode), sorted(roles.dealt)
    for record in records:
        lineup = tuple(record.seating.items())
        lineups[lineup] = lineups.get(lineup, 0) + 1
        seats.update(dict.fromkeys(record.seating))
        for name in episode_names:
            raw = next((m[name] for m in record.metrics.values() if m.get(name) is not None), None)
            cells.add(record.deal_seed, [((POOLED, POOLED), name), ((lineup, POOLED), name)], raw)
        for seat in record.seating:
            for name in dealt_names:
                raw = record.metrics.get(seat, {}).get(name)
                cells.add(record.deal_seed, [((POOLED, seat), name), ((lineup, seat), name)], raw)
    summaries = cells.summaries(resamples, seed)
    found = _nest(summaries, [(where, part) for where in (POOLED, *lineups) for part in (POOLED, *seats)])
    named = {name for _, name in summaries}

    def facts_of(key: object, episodes: int) -> dict[str, Any]:
        by_seat = {seat: _dicts(found[(key, seat)]) for seat in seats if found[(key, seat)]}
        return {"episodes": episodes, "metrics": _dicts(found[(key, POOLED)]), "by_seat": by_seat}

    return {
        "metrics": sorted(roles.episode & named),
        "dealt": sorted(roles.dealt & named),
        "all": facts_of(POOLED, len(records)),
        "by_lineup": [{"seating": dict(lineup), **facts_of(lineup, n)} for lineup, n in lineups.items()]
        if named
        else [],
    }


def _dicts(by_metric: Mapping[str, MetricSummary]) -> dict[str, dict[str, float | int | None]]:
    return {name: summary.to_dict() for name, summary in by_metric.items()}
