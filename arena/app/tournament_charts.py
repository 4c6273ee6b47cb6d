"""Pictures of a tournament's tables, drawn with Rich: interval bars, a heat map, histograms.

Drawn with block and box characters rather than a plotting library: ``textual-plotext``
(last release 2024) needs plotext 5, plotext 6 broke it, and none of its chart types is a
labelled heat map or a row of interval bars. These are plain Rich renderables, so the
screen shows them in ordinary widgets and tests read them as text. Player names are
untrusted and go through :func:`arena.app.safe.safe_text`. Nothing here imports Textual.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from arena.app.safe import safe_text
from arena.app.tournament_board import LeaderRow

BAR_WIDTH = 32
HIST_BINS = 24
LEVELS = "▁▂▃▄▅▆▇█"
RANK_STYLES = ("bold green", "bold cyan", "bold yellow", "bold magenta", "bold blue")


def rank_style(rank: int) -> str:
    """The colour of the ``rank``-th player (1 is best) in every chart."""
    return RANK_STYLES[(rank - 1) % len(RANK_STYLES)]


def rating_axis(rows: Sequence[LeaderRow]) -> tuple[float, float] | None:
    """The span every interval bar shares: lowest low to highest high, or ``None`` if unrated."""
    values = [v for row in rows for v in (row.low, row.rating, row.high) if v is not None]
    if not values:
        return None
    return min(values), max(values)


def _position(value: float, axis: tuple[float, float], width: int) -> int:
    low, high = axis
    if high <= low:
        return width // 2
    return max(0, min(width - 1, round((value - low) / (high - low) * (width - 1))))


def interval_bar(row: LeaderRow, axis: tuple[float, float] | None, width: int = BAR_WIDTH) -> Text:
    """``   ├────●──┤      ``: the 95% interval as a line on the shared axis, the rating a dot."""
    if axis is None or (row.rating is None and row.low is None and row.high is None):
        return Text(" " * width)
    if row.rating is None:  # a one-sided bound: an arrow from the bound to the open side
        cells = [" "] * width
        if row.low is not None:
            start = _position(row.low, axis, width)
            cells[start:] = ["─"] * (width - start)
            cells[start], cells[-1] = "├", "▶"
        elif row.high is not None:
            end = _position(row.high, axis, width)
            cells[: end + 1] = ["─"] * (end + 1)
            cells[0], cells[end] = "◀", "┤"
        return Text("".join(cells), style=rank_style(row.rank).replace("bold ", ""), no_wrap=True)
    low = _position(row.low if row.low is not None else row.rating, axis, width)
    high = _position(row.high if row.high is not None else row.rating, axis, width)
    mid = _position(row.rating, axis, width)
    cells = [" "] * width
    for index in range(low, high + 1):
        cells[index] = "─"
    if high > low:
        cells[low], cells[high] = "├", "┤"
    cells[mid] = "●"
    style = rank_style(row.rank)
    bar = Text(no_wrap=True)
    bar.append("".join(cells[:mid]), style=style.replace("bold ", ""))
    bar.append("●", style=style)
    bar.append("".join(cells[mid + 1 :]), style=style.replace("bold ", ""))
    return bar


def axis_label(axis: tuple[float, float] | None, width: int = BAR_WIDTH) -> Text:
    """The shared axis's ends, ``402 ··· 1598``, exactly ``width`` wide."""
    if axis is None:
        return Text("rating interval".center(width))
    left, right = f"{axis[0]:.0f}", f"{axis[1]:.0f}"
    gap = max(1, width - len(left) - len(right))
    return Text(f"{left}{'·' * gap}{right}"[:width], style="dim")


def _heat_colour(rate: float) -> str:
    """Red for 0, grey for 0.5, green for 1 (a background colour)."""
    grey, red, green = (70, 70, 70), (170, 40, 40), (30, 140, 70)
    end = green if rate >= 0.5 else red
    share = min(1.0, abs(rate - 0.5) * 2)
    rgb = [round(g + (e - g) * share) for g, e in zip(grey, end, strict=True)]
    return f"rgb({rgb[0]},{rgb[1]},{rgb[2]})"


def heat_map(
    matrix: Mapping[str, Any] | None, order: Sequence[str] = (), names: Mapping[str, str] | None = None
) -> RenderableType:
    """The pairwise win matrix as a coloured grid: row player's share of games against each column.

    ``names`` maps a player to the name shown (its short name); a player not in it shows as it is.
    """
    if not matrix or not matrix.get("players"):
        return Text("the win matrix appears once episodes have finished", style="dim")
    players = [str(p) for p in matrix["players"]]
    index = {p: i for i, p in enumerate(players)}
    shown = [p for p in order if p in index] + [p for p in players if p not in order]
    grid = Table(box=box.SIMPLE, pad_edge=False, show_edge=False, padding=(0, 1))
    grid.add_column("row beat column", no_wrap=True)
    for number, _ in enumerate(shown, 1):
        grid.add_column(f"#{number}", justify="center", min_width=6)
    for number, player in enumerate(shown, 1):
        cells: list[Text] = []
        i = index[player]
        for other in shown:
            j = index[other]
            rate = matrix["rate"][i][j]
            games = matrix["games"][i][j]
            if i == j or rate is None or not games:
                cells.append(Text("  ·  ", style="dim"))
            else:
                cells.append(Text(f"{rate * 100:3.0f}%", style=f"bold white on {_heat_colour(float(rate))}"))
        shown_name = (names or {}).get(player, player)
        label = Text(f"#{number} ", style=rank_style(number)).append_text(safe_text(shown_name, limit=40))
        grid.add_row(label, *cells)
    games = sorted({int(g) for row in matrix["games"] for g in row if g})
    counted = ", ".join(str(g) for g in games) if len(games) <= 4 else f"{games[0]} to {games[-1]}"
    legend = Text(
        f"share of games the row player beat the column player (draws count half); games per pair: {counted}"
        "  ·  red: loses  ·  green: wins",
        style="dim",
    )
    return Group(grid, legend)


def histogram_line(values: Sequence[float], span: tuple[float, float], bins: int = HIST_BINS) -> Text:
    """``▁▃█▅▂ `` : how many of ``values`` fall in each of ``bins`` equal bins of ``span``."""
    low, high = span
    counts = [0] * bins
    for value in values:
        slot = 0 if high <= low else int((value - low) / (high - low) * bins)
        counts[min(bins - 1, max(0, slot))] += 1
    top = max(counts) or 1
    line = Text(no_wrap=True)
    for count in counts:
        if count == 0:
            line.append("·", style="dim")
        else:
            level = max(0, min(len(LEVELS) - 1, round(count / top * (len(LEVELS) - 1))))
            line.append(LEVELS[level], style="cyan")
    return line


def score_histograms(
    scores: Mapping[str, Sequence[float]],
    order: Sequence[str],
    bins: int = HIST_BINS,
    names: Mapping[str, str] | None = None,
) -> RenderableType:
    """Each player's score distribution as a one-line histogram on a shared scale, with quartiles.

    ``names`` maps a player to the name shown (its short name); a player not in it shows as it is.
    """
    shown = [p for p in order if scores.get(p)] + [p for p in scores if p not in order and scores[p]]
    if not shown:
        return Text("score distributions appear once episodes have finished", style="dim")
    values = [v for p in shown for v in scores[p]]
    span = (min(values), max(values))
    table = Table(box=box.SIMPLE, pad_edge=False, show_edge=False, padding=(0, 1))
    table.add_column("player", no_wrap=True)
    table.add_column(f"{span[0]:.4g} … {span[1]:.4g}", no_wrap=True, min_width=bins)
    for name in ("min", "q1", "median", "q3", "max", "mean", "n"):
        table.add_column(name, justify="right")
    for player in shown:
        rank = list(order).index(player) + 1 if player in order else len(order) + 1
        data = sorted(scores[player])
        quartiles = statistics.quantiles(data, n=4) if len(data) > 1 else [data[0]] * 3
        numbers = (data[0], quartiles[0], quartiles[1], quartiles[2], data[-1], statistics.fmean(data))
        table.add_row(
            Text(f"#{rank} ", style=rank_style(rank)).append_text(
                safe_text((names or {}).get(player, player), limit=40)
            ),
            histogram_line(data, span, bins),
            *(Text(f"{n:.4g}") for n in numbers),
            Text(str(len(data))),
        )
    note = Text("one score per seat held in a finished episode; the same scale for every player", style="dim")
    return Group(table, note)
