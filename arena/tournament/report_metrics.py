"""report.md's metrics part: what a win means, each player's own metrics, and the facts of the deals.

A player's lines hold only what it earned or did (pooled over its seats, then per seat when the
game's seats are roles); the facts of the deals (the deal's price, surplus, whether it closed)
and the numbers a deal hands each seat are listed apart, because they are shared by both sides.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.contract.labels import label
from arena.tournament.report_text import markdown_text


def _summary(s: Mapping[str, Any]) -> str:
    if s["low"] is None or s["high"] is None:
        return f"{s['mean']:.3g} (no interval: one deal seed)"
    if s["low"] == s["high"]:  # every seed read the same: the data bound nothing
        return f"{s['mean']:.3g} (no spread over the seeds: no interval)"
    return f"{s['mean']:.3g} ({s['low']:.3g}..{s['high']:.3g})"


def _summaries(by_metric: Mapping[str, Mapping[str, Any]]) -> str:
    # A metric's name in words ("final cash"); report.json keeps the identifier (final_cash).
    return ", ".join(f"{markdown_text(label(name))} {_summary(s)}" for name, s in by_metric.items())


def metrics_markdown(report: Mapping[str, Any]) -> list[str]:
    """The lines of the metrics sections (each section starts with an empty line)."""
    lines: list[str] = []
    if report.get("outcome_rule"):
        lines += ["", "## Wins, draws and losses", "", markdown_text(report["outcome_rule"])]
    lines += [
        "",
        "## Each player's own metrics (mean, 95% interval)",
        "",
        "Only what the player earned or did; the facts of the deals it took part in are listed after.",
        "",
    ]
    by_seat: Mapping[str, Mapping[str, Any]] = report.get("metrics_by_seat") or {}
    for player, by_metric in report["metrics"].items():
        lines.append(f"- **{markdown_text(player)}**: {_summaries(by_metric)}")
        seats = by_seat.get(player) or {}
        if len(seats) > 1:
            lines += [f"  - as {markdown_text(seat)}: {_summaries(found)}" for seat, found in seats.items()]
    facts: Mapping[str, Any] = report.get("deal_facts") or {}
    everything: Mapping[str, Any] = facts.get("all") or {}
    if not facts.get("metrics") and not facts.get("dealt"):
        return lines
    lines += [
        "",
        "## Facts of the deals (mean, 95% interval)",
        "",
        "Shared by the sides of a deal, so not any one player's metric.",
        "",
    ]
    if facts.get("metrics"):
        lines.append(f"- all deals ({everything['episodes']}): {_summaries(everything['metrics'])}")
        for group in facts.get("by_lineup") or ():
            seating = ", ".join(f"{seat} {player}" for seat, player in group["seating"].items())
            lines.append(f"- {markdown_text(seating)} ({group['episodes']}): {_summaries(group['metrics'])}")
    for name in facts.get("dealt") or ():
        cells = ", ".join(
            f"{markdown_text(seat)} {_summary(found[name])}"
            for seat, found in (everything.get("by_seat") or {}).items()
            if name in found
        )
        lines.append(f"- dealt to each seat, whoever held it: {markdown_text(label(name))}: {cells}")
    return lines
