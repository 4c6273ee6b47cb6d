"""How a ratings table's cells read, the same in the CLI, the app and report.md.

Plain strings only (the front ends style them): a rating or a one-sided bound, an interval
that may be open on one side, P(order right) that never reads as certainty, and what it
would take to separate a pair. Player names in a bound are untrusted: the front ends
pass them through their own plain-text filters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.tournament.confidence import (
    CEILING,
    MORE_SEEDS,
    NOT_COMPARABLE,
    NOT_SEPARABLE,
    STATUS_TEXT,
    SWEPT,
    WHY_TEXT,
)

MINUS = "\u2212"


def signed(points: float) -> str:
    """``+570`` or ``−570`` (a true minus sign), whole points."""
    return f"+{points:.0f}" if points >= 0 else f"{MINUS}{-points:.0f}"


def rating_text(row: Mapping[str, Any]) -> str:
    """``1056``, ``1000 (reference)``, ``≥ +570 over cost-plus``, ``≤ −570 vs cost-plus``, ``above
    cost-plus`` (a sweep too short to bound the gap: its interval says how few seeds) or ``-``."""
    bound = row.get("bound")
    if bound:
        if bound["points"] is None:  # too few seeds to bound the gap: the side only (how few: the interval)
            return f"{'above' if bound['side'] == 'above' else 'below'} {bound['other']}"
        if bound["side"] == "above":
            return f"≥ {signed(bound['points'])} over {bound['other']}"
        return f"≤ {signed(-bound['points'])} vs {bound['other']}"
    if row.get("rating") is None:
        return "-"
    text = f"{row['rating']:.0f}"
    return f"{text} (reference)" if row.get("reference") else text


def interval_text(row: Mapping[str, Any]) -> str:
    """``980..1130``, ``≥ 1570`` / ``≤ 430`` (open on one side), ``only 3 seeds`` for a
    sweep too short to bound its gap, or ``-`` when nothing bounds it."""
    bound = row.get("bound")
    if bound and bound["points"] is None:  # a sweep of too few seeds to bound the gap: say how few
        return f"only {bound['seeds']} seed{'s' if bound['seeds'] != 1 else ''}"
    low, high = row.get("rating_low"), row.get("rating_high")
    if low is not None and high is not None:
        return f"{low:.0f}..{high:.0f}"
    if low is not None:
        return f"≥ {low:.0f}"
    if high is not None:
        return f"≤ {high:.0f}"
    return "-"


SURE_NOTE = (
    "sure: of the pairs shown at 0.95 or more, at most 5% are expected in the wrong order"
    " (1 - q, Benjamini-Hochberg over this table's pairs; each pair's own P(order right) is in --json)"
)


def probability_text(p: float) -> str:
    """P(order right) with two decimals, ``> 0.99`` rather than a rounded ``1.00``."""
    if 0.995 <= p < 1.0:
        return "> 0.99"
    return f"{p:.2f}"


def gap_text(row: Mapping[str, Any]) -> str:
    """The gap of an order-confidence row: ``57``, ``≥ 570`` for a sweep, ``-`` when there is none."""
    if row.get("diff") is None:
        return "≥ 0" if row["status"] == SWEPT else "-"
    return f"≥ {signed(row['diff'])}" if row["status"] == SWEPT else f"{row['diff']:.0f}"


def separation_text(row: Mapping[str, Any]) -> str:
    """What would separate the pair: ``separated``, ``swept (20 of 20 seeds)``, ``~27 more seeds (3-463)``"""
    status = row["status"]
    if status == SWEPT:
        seeds = row["sweep_seeds"]
        via = row.get("sweep_via") or []
        if via:
            return f"swept through {' > '.join(via)} (each step {seeds} of {seeds} seeds or more)"
        return f"swept ({seeds} of {seeds} seeds)"
    if status == NOT_SEPARABLE:
        return "not separable at this gap (perhaps never)"
    if status == NOT_COMPARABLE:
        return WHY_TEXT.get(row.get("why") or "", STATUS_TEXT[NOT_COMPARABLE])
    if status != MORE_SEEDS:
        return STATUS_TEXT.get(status, str(status))
    low, middle, high = row.get("more_seeds_low"), row.get("more_seeds"), row.get("more_seeds_high")
    never = f"more than {CEILING:,}: perhaps never"
    if middle is None:
        text = f"{low}+ more seeds ({never})"
    elif high is None:
        text = f"~{middle} more seeds ({low} or more; {never})"
    else:
        text = f"~{middle} more seeds ({low}-{high})"
    if row.get("more_usd"):
        text += f" (${row['more_usd']:.2f})"
    return text


def prior_note(ratings: Mapping[str, Any] | None) -> str | None:
    """The prior in one line (the text table's footer), or ``None`` without ratings."""
    if not ratings or ratings.get("prior") is None:
        return None
    prior = ratings["prior"]
    if not prior:
        return "prior: none (plain maximum likelihood)"
    return (
        f"prior: {prior:g} virtual comparison{'s' if prior != 1 else ''} per pair that met, split as a draw"
        " (pulls ratings together a little; its pull fades as one over the number of games)"
    )


def rough_note(ratings: Mapping[str, Any] | None) -> str | None:
    """The warning a table carries below 30 deal seeds, or ``None``."""
    if not ratings or not ratings.get("rough"):
        return None
    return (
        f"only {ratings['deal_seeds']} deal seeds: intervals are rough"
        " (widened for the small sample; 30 or more seeds make them dependable)"
    )


def groups_note(ratings: Mapping[str, Any] | None) -> str | None:
    """Which groups never met and who has no rating, or ``None`` for one group with everyone rated."""
    if not ratings:
        return None
    parts = []
    groups = ratings.get("groups") or []
    if len(groups) > 1:
        parts.append(
            f"{len(groups)} groups never met: ratings compare players within a group only, never across"
        )
    unrated = ratings.get("unrated") or []
    if unrated:
        parts.append(f"no finished games, so no rating: {', '.join(unrated)}")
    return "; ".join(parts) or None
