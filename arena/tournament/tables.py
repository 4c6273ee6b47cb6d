"""The tables part of a tournament report, computed from finished-episode records.

:func:`tables` returns the ``ratings``, ``players``, ``win_matrix``, ``metrics`` (each
player's own), ``metrics_by_seat``, ``deal_facts`` and ``order_confidence`` sections of
``report.json`` (see ``report_schema.json``); the caller adds the disclosure parts
(identity, harness, inference, cost, failures) and ``left_out``.
Every section is also what ``arena tournament table --json`` and the app show.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.tournament.confidence import cost_per_seed, order_confidence
from arena.tournament.intervals import ROUGH_BELOW
from arena.tournament.metrics import MetricRoles, deal_facts, player_metrics
from arena.tournament.openskill_ratings import openskill_ratings
from arena.tournament.plackett_luce import PLACKETT_LUCE, choice_fit
from arena.tournament.ratings import BRADLEY_TERRY, CENTRE, Ratings, comparisons, ratings_from, win_matrix
from arena.tournament.records import EpisodeRecord, outcome_counts

PRIOR = 1.0
SCALE = (
    "Elo-like: P(a beats b) = 1 / (1 + 10^((R_b - R_a) / 400)), 400 points = 10:1 odds;"
    " each group's reference tier has mean 1000 unless anchored"
)
FITS = {
    BRADLEY_TERRY: "Bradley-Terry on pairwise outcomes (ties half a win each way)",
    PLACKETT_LUCE: "Plackett-Luce on each game's full ranking (ties: Breslow), on Bradley-Terry's scale",
}
FIT_NOTE = (
    "penalised maximum likelihood: each pair of players that met gets {prior:g} virtual comparison(s)"
    " split as a draw (a weak prior that keeps a bootstrap resample finite; its pull fades as one over"
    " the number of games). Players who won or lost every comparison with another tier get one-sided"
    " bounds (exact Clopper-Pearson on deal seeds), not numbers."
)
INTERVAL = (
    "95% expanded percentile bootstrap (Hesterberg 2015: percentiles at the tail share matching"
    " sqrt(n/(n-1)) t_(n-1)) over {resamples} resamples of whole deal seeds"
)
OPENSKILL_LABEL = "openskill Plackett-Luce (Weng-Lin), online: depends on the order games were played in"


def tables(
    records: Sequence[EpisodeRecord],
    *,
    players: Sequence[str] | None = None,
    resamples: int = 1000,
    seed: int = 0,
    anchor: str | None = None,
    cost_per_episode: Mapping[str, float] | None = None,
    tokens_per_episode: Mapping[str, float] | None = None,
    roles: MetricRoles | None = None,
) -> dict[str, Any]:
    """The report's table sections for ``records`` (finished episodes only).

    ``cost_per_episode`` / ``tokens_per_episode`` map a player to its observed mean dollars
    and tokens per episode; with costs, each row gets ``rating_per_dollar`` and the order
    confidence prices its extra seeds. Plackett-Luce is added when any episode has more
    than two seats. ``roles`` (the game's, :meth:`MetricRoles.of`) keeps the facts of the
    deals out of the players' metrics; without it every metric is a player's own.
    """
    data = comparisons(records, players)
    many_seats = any(len(record.seating) > 2 for record in records)
    method = PLACKETT_LUCE if many_seats else BRADLEY_TERRY
    ratings = ratings_from(
        data,
        resamples=resamples,
        seed=seed,
        anchor=anchor,
        prior=PRIOR,
        tier_fit=choice_fit(records, data, PRIOR) if many_seats else None,
        method=method,
    )
    counts = outcome_counts(records, data.players)
    numbers = [r for r in ratings.rating if r is not None]
    floor = min(numbers) if numbers else 0.0
    rows: list[dict[str, Any]] = []
    for row in ratings.rows():
        player = str(row["player"])
        usd = cost_per_episode.get(player) if cost_per_episode is not None else None
        rating = row["rating"]
        per_dollar = (float(rating) - floor) / usd if usd and isinstance(rating, float) else None
        tokens = tokens_per_episode.get(player) if tokens_per_episode is not None else None
        rows.append(
            {
                **row,
                **counts[player],
                "usd_per_episode": usd,
                "tokens_per_episode": tokens,
                "rating_per_dollar": per_dollar,
            }
        )
    seed_cost = cost_per_seed(records, cost_per_episode) if cost_per_episode is not None else None
    roles = roles or MetricRoles()
    means, by_seat = player_metrics(
        records, players=data.players, resamples=resamples, seed=seed, roles=roles
    )
    return {
        "ratings": {
            "method": method,
            "fit": FITS[method] + "; " + FIT_NOTE.format(prior=PRIOR),
            "prior": PRIOR,
            "interval": INTERVAL.format(resamples=resamples),
            "scale": SCALE,
            "centre": CENTRE,
            "anchor": anchor,
            "deal_seeds": ratings.deals,
            "rough": ratings.interval_seeds < ROUGH_BELOW,
            "bootstrap": {"resamples": resamples, "unit": "deal seed", "seed": seed},
            **group_sections(ratings),
            "openskill": {
                "label": OPENSKILL_LABEL,
                "rows": [r.to_dict() for r in openskill_ratings(records, players=data.players)],
            }
            if many_seats
            else None,
        },
        "players": rows,
        "win_matrix": dict(win_matrix(data)),
        "metrics": {
            player: {name: summary.to_dict() for name, summary in by_metric.items()}
            for player, by_metric in means.items()
        },
        "metrics_by_seat": {
            player: {seat: {name: s.to_dict() for name, s in found.items()} for seat, found in seats.items()}
            for player, seats in by_seat.items()
        },
        "deal_facts": deal_facts(records, roles=roles, resamples=resamples, seed=seed),
        "order_confidence": [row.to_dict() for row in order_confidence(ratings, seed_cost_usd=seed_cost)],
    }


def group_sections(ratings: Ratings) -> dict[str, Any]:
    """The ``groups`` (players per connected group), ``never_met`` and ``unrated`` parts of ``ratings``."""
    numbers = sorted({g for g in ratings.group if g is not None})
    members = {
        g: [p for p, pg in zip(ratings.players, ratings.group, strict=True) if pg == g] for g in numbers
    }
    return {
        "groups": [{"group": g, "players": members[g]} for g in numbers],
        "never_met": [[a, b] for i, a in enumerate(numbers) for b in numbers[i + 1 :]],
        "unrated": [p for p, g in zip(ratings.players, ratings.group, strict=True) if g is None],
    }
