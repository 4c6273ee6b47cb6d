"""The tournament screen's leaderboard laid out for the screen's width, read whole without scrolling sideways.

At 160 columns the leaderboard has a column each for the rating, its interval, the interval
drawn as a bar, the share of its decisions the game's fallback made (as the CLI's table),
wins, draws, losses, episodes and dollars. At 80 columns those add up to more than the
screen, and the table scrolled sideways. So the bar takes only the room left (down to
:data:`MIN_BAR` cells), a long rating wrapping onto a second line to make room for it;
below that it is left out (the interval's numbers say the same); where even that does not
fit, the narrow layout puts each interval under its rating and wins, draws and losses in
one column (``12-0-3``, which add up to the episodes), and the rating and player cells wrap
at spaces, never inside a word. Nothing here imports Textual.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rich.text import Text

PAD = 2
"""A DataTable cell's padding: one cell each side."""
MIN_BAR = 12
"""The narrowest interval bar worth drawing."""
WIDE_COLUMNS = (
    "#",
    "player",
    "rating",
    "95% interval",
    "bar",
    "fallback",
    "W",
    "D",
    "L",
    "episodes",
    "$/episode",
)
NARROW_COLUMNS = ("#", "player", "rating (95% interval)", "fallback", "W-D-L", "$/episode")
WRAPPED = ("rating (95% interval)", "player")
"""The narrow layout's columns that may wrap onto more lines, the first the first to wrap."""


@dataclass(frozen=True)
class BoardCells:
    """One leaderboard row's texts, before they are laid out (names already shortened and plain)."""

    rank: Text
    player: Text
    rating: Text
    interval: Text
    wins: int
    draws: int
    losses: int
    episodes: int
    dollars: str
    fallback: str = "-"
    """The share of the player's decisions made by the game's fallback (``12%``), as the CLI's table."""


def text_width(text: Text) -> int:
    """The width of ``text``'s widest line."""
    return max((Text(line).cell_len for line in text.plain.split("\n")), default=0)


def _longest_word(text: Text) -> int:
    return max((Text(word).cell_len for word in text.plain.split()), default=0)


def bar_width(rows: Sequence[BoardCells], width: int, widest: int) -> int:
    """How wide the wide layout's bar can be at ``width`` (at most ``widest``); 0: it does not fit."""
    return room_for_bar(*wide_columns(rows, 0), width, widest)


def wrapped_for_bar(rows: Sequence[BoardCells], width: int, widest: int) -> tuple[list[BoardCells], int]:
    """The rows with their rating cells wrapped at spaces so the wide layout's bar fits at ``width``,
    and that bar's width (at most ``widest``); the rows as they were and 0 when no wrap makes room.

    A long one-sided bound (``above X (only 3 deal seeds: gap unknown)``) would otherwise push
    the bar out at 140 columns, though two lines of it leave room for one.
    """
    labels, table = wide_columns(rows, 0)
    if wrap_to_fit(labels, table, ("rating",), width - PAD - MIN_BAR):
        return list(rows), 0
    index = labels.index("rating")
    wrapped = [replace(row, rating=cells[index]) for row, cells in zip(rows, table, strict=True)]
    return wrapped, bar_width(wrapped, width, widest)


def table_width(labels: Sequence[str], table: Sequence[Sequence[Text]]) -> int:
    """The width of the table of ``labels`` over the rows ``table``."""
    return sum(column_width(label, [cells[i] for cells in table]) for i, label in enumerate(labels))


def column_width(label: str, cells: Sequence[Text]) -> int:
    """A column's width with its padding: its widest line of label or cell."""
    return max([Text(label).cell_len, *(text_width(cell) for cell in cells)]) + PAD


def wide_columns(
    rows: Sequence[BoardCells], bar: int, bars: Sequence[Text] = ()
) -> tuple[list[str], list[list[Text]]]:
    """The wide layout: every column, the bar ``bar`` cells wide (``bars``, one per row) or left out at 0."""
    labels = [name for name in WIDE_COLUMNS if bar or name != "bar"]
    table = []
    for index, row in enumerate(rows):
        cells = [row.rank, row.player, row.rating, row.interval]
        if bar:
            cells.append(bars[index] if index < len(bars) else Text(" " * bar))
        cells.append(Text(row.fallback))
        cells += [Text(str(row.wins)), Text(str(row.draws)), Text(str(row.losses))]
        cells += [Text(str(row.episodes)), Text(row.dollars)]
        table.append(cells)
    return labels, table


def narrow_columns(rows: Sequence[BoardCells], width: int) -> tuple[list[str], list[list[Text]]]:
    """The narrow layout at ``width``: the interval under the rating, W-D-L in one, long cells wrapped."""
    labels = list(NARROW_COLUMNS)
    table = []
    for row in rows:
        rating = row.rating.copy()
        rating.append("\n")
        rating.append_text(row.interval)
        record = Text(f"{row.wins}-{row.draws}-{row.losses}")
        table.append([row.rank, row.player, rating, Text(row.fallback), record, Text(row.dollars)])
    wrap_to_fit(labels, table, WRAPPED, width)
    return labels, table


def wrap_to_fit(labels: Sequence[str], table: list[list[Text]], names: Sequence[str], width: int) -> int:
    """Wrap the columns ``names`` (the first first) of ``table`` at spaces, in place, until it fits
    ``width``; returns by how many columns it is still too wide (0: it fits).

    A header has one line and a word is never cut: no column is made narrower than either.
    """
    widths = [column_width(label, [cells[i] for cells in table]) for i, label in enumerate(labels)]
    excess = sum(widths) - width
    for name in names:
        if excess <= 0:
            break
        index = list(labels).index(name)
        cells = [cells[index] for cells in table]
        narrowest = max([Text(name).cell_len, *(_longest_word(cell) for cell in cells)])
        target = max(narrowest, widths[index] - PAD - excess)
        if target >= widths[index] - PAD:
            continue
        for cells_of_row in table:
            cells_of_row[index] = wrap(cells_of_row[index], target)
        excess -= widths[index] - PAD - target
        widths[index] = target + PAD
    return max(0, excess)


def wrap(text: Text, width: int) -> Text:
    """``text`` with each line broken at spaces to at most ``width`` cells (a longer word stays whole)."""
    out: list[Text] = []
    for line in text.split("\n"):
        current = Text(style=line.style)
        for word in line.split(" "):
            if not word.plain:
                continue
            if current.plain and current.cell_len + 1 + word.cell_len > width:
                out.append(current)
                current = Text(style=line.style)
            if current.plain:
                current.append(" ")
            current.append_text(word)
        out.append(current)
    return Text("\n").join(out)


def room_for_bar(labels: Sequence[str], table: Sequence[Sequence[Text]], width: int, widest: int) -> int:
    """How wide a bar fits beside the table at ``width`` (at most ``widest``); 0: none fits."""
    room = width - table_width(labels, table) - PAD
    return min(widest, room) if room >= MIN_BAR else 0


def with_bar(
    labels: Sequence[str], table: Sequence[Sequence[Text]], bars: Sequence[Text]
) -> tuple[list[str], list[list[Text]]]:
    """The narrow layout with the interval bars (one per row) after the rating column."""
    at = labels.index(NARROW_COLUMNS[2]) + 1
    return [*labels[:at], "bar", *labels[at:]], [
        [*cells[:at], bar, *cells[at:]] for cells, bar in zip(table, bars, strict=True)
    ]
