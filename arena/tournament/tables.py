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
from arena.tournament.metrics import MetricRoles, deal_facts, player_metrics
from arena.tournament.plackett_luce import plackett_luce
from arena.tournament.ratings import CENTRE, comparisons, ratings_from, win_matrix
from arena.tournament.records import EpisodeRecord, outcome_counts

SCALE = (
    "Bradley-Terry maximum likelihood on pairwise outcomes (ties half), Elo-like: "
    "P(a beats b) = 1 / (1 + 10^((R_b - R_a) / 400)), mean rating 1000 unless anchored"
)


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
    ratings = ratings_from(data, resamples=resamples, seed=seed, anchor=anchor)
    counts = outcome_counts(records, data.players)
    floor = min(ratings.rating)
    rows: list[dict[str, Any]] = []
    for row in ratings.rows():
        player = str(row["player"])
        usd = cost_per_episode.get(player) if cost_per_episode is not None else None
        per_dollar = (float(row["rating"]) - floor) / usd if usd else None
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
    many_seats = any(len(record.seating) > 2 for record in records)
    seed_cost = cost_per_seed(records, cost_per_episode) if cost_per_episode is not None else None
    roles = roles or MetricRoles()
    means, by_seat = player_metrics(
        records, players=data.players, resamples=resamples, seed=seed, roles=roles
    )
    return {
        "ratings": {
            "method": ratings.method,
            "scale": SCALE,
            "centre": CENTRE,
            "anchor": anchor,
            "deal_seeds": ratings.deals,
            "bootstrap": {"resamples": resamples, "unit": "deal seed", "seed": seed},
            "plackett_luce": [r.to_dict() for r in plackett_luce(records, players=data.players)]
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
