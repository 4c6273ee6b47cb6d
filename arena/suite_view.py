"""Suite results as Rich tables (the CLI and the app show them; the engine stays free of Rich)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

from arena.registry import get_game
from arena.suite_report import Aggregate, SuiteReport


def suite_table(report: SuiteReport, columns: Sequence[str] | None = None) -> Table:
    """A Rich table with one row per player and one per player-in-a-seat.

    ``columns`` picks metrics; by default the game's ``summary_metrics``, else every
    metric reported.
    """
    if columns is None:
        columns = get_game(report.game).summary_metrics
    per_player, per_role = report.per_player, report.per_role
    if not columns:
        columns = tuple(dict.fromkeys(key for agg in per_player.values() for key in agg.metrics))
    table = Table(title=f"{report.game} suite: seed {report.seed}, n {report.n}", header_style="bold")
    left = report.left_out_summary()
    if left["episodes"]:
        statuses = ", ".join(f"{count} {status}" for status, count in left["by_status"].items())
        table.caption = (
            f"{left['episodes']} of {len(report.episodes)} episodes left out (not finished: {statuses});"
            " see the report's left_out"
        )
    for name in ("player", "seat", "episodes", "wins", "draws", "score", "fallback%", "invalid%", *columns):
        if name == "player":  # specs are the point of the table: never cut them short
            table.add_column(name, no_wrap=True, min_width=max(map(len, per_player), default=6))
        else:
            table.add_column(name, justify="left" if name == "seat" else "right", overflow="fold")
    for player, agg in per_player.items():
        table.add_row(player, "all", *_cells(agg, columns), style="bold")
        for seat, role in per_role.get(player, {}).items():
            table.add_row("", seat, *_cells(role, columns))
    return table


def _cells(agg: Aggregate, columns: Sequence[str]) -> list[str]:
    cells = [str(agg.episodes), str(agg.wins), str(agg.draws), f"{agg.score:.2f}"]
    cells += [f"{100 * agg.fallback_rate:.0f}", f"{100 * agg.invalid_rate:.0f}"]
    for column in columns:
        value = agg.metrics.get(column)
        cells.append("-" if value is None else f"{value:.3g}" if abs(value) < 1 else f"{value:.2f}")
    return cells
