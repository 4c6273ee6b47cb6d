"""A table wider than the terminal shown as several tables that fit, each cell whole.

Rich squeezes a table that does not fit: every column shrinks and cells end in an ellipsis
("ingredien…", "(509..100…"), so at 120 columns a tournament's metrics could not be read.
:class:`FittedTable` keeps the table as it is where it fits, and otherwise splits its
columns into groups that each fit, every group repeating the leading columns (the player,
its seat) so each part reads on its own.
"""

from __future__ import annotations

import copy

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Column, Table

UNBOUNDED = 10_000
"""The width a table is measured at to find its natural width."""


class FittedTable:
    """``table`` as one table where it fits the width, else split into column groups that fit.

    ``lead`` is how many leading columns name a row; every part repeats them. The parts
    after the first say they continue the first's title.
    """

    def __init__(self, table: Table, lead: int = 1) -> None:
        self.table = table
        self.lead = lead

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.parts(console, options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        natural = self._natural(console)
        widths = self._widths(console)
        narrowest = sum(widths[: self.lead]) + max(widths[self.lead :], default=0) + 1
        return Measurement(min(narrowest, natural), natural)

    def parts(self, console: Console, width: int) -> list[Table]:
        """The tables to print at ``width``: the table itself if it fits, else its column groups."""
        table = self.table
        if self._natural(console) <= width or len(table.columns) <= self.lead + 1:
            return [table]
        widths = self._widths(console)
        room = width - sum(widths[: self.lead]) - 1
        groups: list[list[Column]] = [[]]
        used = 0
        for column, needed in zip(table.columns[self.lead :], widths[self.lead :], strict=True):
            if groups[-1] and used + needed > room:
                groups.append([])
                used = 0
            groups[-1].append(column)
            used += needed
        lead = table.columns[: self.lead]
        return [self._part(lead + group, index) for index, group in enumerate(groups)]

    def _part(self, columns: list[Column], index: int) -> Table:
        part = copy.copy(self.table)
        part.columns = [copy.copy(column) for column in columns]
        if index and isinstance(self.table.title, str):
            part.title = f"{self.table.title} (continued)"
        return part

    def _natural(self, console: Console) -> int:
        return Measurement.get(console, console.options.update_width(UNBOUNDED), self.table).maximum

    def _widths(self, console: Console) -> list[int]:
        """Each column's natural width with its padding and the rule before it."""
        options = console.options.update_width(UNBOUNDED)
        _, right, _, left = self.table.padding
        widths = []
        for column in self.table.columns:
            cells = [column.header, *column.cells]
            widest = max((Measurement.get(console, options, cell).maximum for cell in cells), default=0)
            widths.append(max(widest, column.min_width or 0) + left + right + 1)
        return widths
