"""A board's plain tables drawn from cells drawn before: Rich's own lines, without its per-cell cost.

Rich draws a table by measuring and rendering every cell through a padding, a text wrap
and a line split: lemonade's board, a table of 11 rows by 14 columns, took ~9 ms of a replay
step. Stepping through an episode draws nearly the same table again and again
(one row more, one less), so each distinct cell is measured and drawn once by Rich itself,
with the options Rich's table would give it, and kept; a table is then its column widths
and its cells' lines side by side, as Rich lays out a table without a box.

Only tables whose every cell is one clean line at its natural width take this path (no box,
title, caption, footer, row styles, fixed or ratio widths, nothing to shrink or expand, no
control character or link that :class:`arena.app.safe.SafeRenderable` would clean);
:func:`table_lines` returns ``None`` for any other, which Rich then draws itself.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.measure import Measurement
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.table import Column, Table
from rich.text import Text

CELLS_KEPT = 4096
"""Cells kept per console (measured, and drawn at each width): a lemonade board holds 154."""

CELL_CHARS_KEPT = 400
"""A longer cell is not kept (it would not be one line of a board): Rich draws its table."""
MEASURE_WIDTH = 100_000
"""The width cells are measured at: wider than any board, so no measurement is clamped by it."""

Line = list[Segment]


class _Kept:
    """One console's measured and drawn cells, the least recently used dropped past :data:`CELLS_KEPT`."""

    def __init__(self) -> None:
        self.widths: OrderedDict[Hashable, int] = OrderedDict()
        self.lines: OrderedDict[Hashable, Line | None] = OrderedDict()

    @staticmethod
    def keep(store: OrderedDict[Hashable, Any], key: Hashable, value: Any) -> None:
        store[key] = value
        if len(store) > CELLS_KEPT:
            store.popitem(last=False)

    @staticmethod
    def used(store: OrderedDict[Hashable, Any], key: Hashable) -> None:
        """``key`` was read: it is dropped last."""
        store.move_to_end(key)


_kept: weakref.WeakKeyDictionary[Console, _Kept] = weakref.WeakKeyDictionary()


def _content_key(cell: RenderableType) -> Hashable | None:
    """What a cell's drawing depends on, or ``None`` for a cell that is neither a string nor a text
    (a subclass may draw itself otherwise) or one too long to keep."""
    if type(cell) is str:
        return ("str", cell) if len(cell) <= CELL_CHARS_KEPT else None
    if type(cell) is Text and len(cell.plain) <= CELL_CHARS_KEPT:
        return (
            "text",
            cell.plain,
            cell.style,
            tuple(cell.spans),
            cell.justify,
            cell.overflow,
            cell.no_wrap,
            cell.end,
            cell.tab_size,
        )
    return None


def _plain(table: Table) -> bool:
    """True for a table this module draws as Rich would: nothing but columns of cells."""
    return (
        table.box is None
        and not table.title
        and not table.caption
        and not table.show_footer
        and not table.row_styles
        and not table.expand
        and table.width is None
        and table.min_width is None
        and not table.collapse_padding
        and bool(table.columns)
        and all(row.style is None for row in table.rows)
        # a column added after rows has fewer cells: Rich draws only as many rows as the shortest
        and all(len(column._cells) == table.row_count for column in table.columns)
        and all(_plain_column(column) for column in table.columns)
    )


def _plain_column(column: Column) -> bool:
    return column.width is None and column.min_width is None and column.max_width is None and not column.ratio


def table_lines(table: Table, console: Console, options: ConsoleOptions) -> list[Line] | None:
    """``table``'s lines as ``console.render_lines`` draws them at ``options`` (``pad=False``).

    ``None`` when the table is not one this module draws (see the module docstring).
    """
    if not _plain(table) or console.get_style(table.style or "") or options.height is not None:
        return None
    kept = _kept.setdefault(console, _Kept())
    cells = _cells(table, console, options)
    if cells is None:
        return None
    widths: list[int] = []
    for column_cells in cells:
        found: list[int] = []
        for cell in column_cells:
            width = kept.widths.get(cell.key)
            if width is not None:
                kept.used(kept.widths, cell.key)
            else:
                width = _measure(console, options, cell.padded)
                if width is None:
                    return None
                kept.keep(kept.widths, cell.key, width)
            found.append(width)
        widths.append(max(found, default=0) or 1)
    if sum(widths) > options.max_width:
        return None  # Rich would shrink the columns
    lines: list[Line] = [[] for _ in cells[0]]
    for width, column, column_cells in zip(widths, table.columns, cells, strict=True):
        for line, cell in zip(lines, column_cells, strict=True):
            key = (cell.key, width, cell.style)
            if key in kept.lines:
                drawn = kept.lines[key]
                kept.used(kept.lines, key)
            else:
                drawn = _draw(console, options, cell, column, width)
                kept.keep(kept.lines, key, drawn)
            if drawn is None:
                return None  # a cell of more lines than one, or one to clean: Rich draws the table
            line += drawn
    return lines


@dataclass(frozen=True)
class _Cell:
    """A cell as Rich's table draws it: padded, with its column's (or the header's) style."""

    key: Hashable
    """What its drawing depends on, but for the column's width."""
    style: Style
    padded: Padding


def _cells(table: Table, console: Console, options: ConsoleOptions) -> list[list[_Cell]] | None:
    """Each column's cells, header first (as Rich's ``_get_cells``), or ``None`` for a cell not kept."""
    get_style = console.get_style
    header_style = get_style(table.header_style or "")
    rows = len(table.rows) + (1 if table.show_header else 0)
    found: list[list[_Cell]] = []
    for index, column in enumerate(table.columns):
        styled: list[tuple[Style, RenderableType]] = []
        if table.show_header:
            styled.append((header_style + get_style(column.header_style), column.header))
        body_style = get_style(column.style or "")
        styled += [(body_style, cell) for cell in column.cells]
        settings = (column.justify, column.no_wrap, column.overflow, column.highlight, options.markup)
        cells: list[_Cell] = []
        for row, (style, renderable) in enumerate(styled):
            content = _content_key(renderable)
            if content is None:
                return None
            padding = _padding(table, index, row, rows)
            cells.append(_Cell((content, padding, settings), style, Padding(renderable, padding)))
        found.append(cells)
    return found


def _padding(table: Table, column: int, row: int, rows: int) -> tuple[int, int, int, int]:
    """The padding Rich gives a cell (its ``_get_cells``, without collapsed padding)."""
    top, right, bottom, left = table.padding
    if not table.pad_edge:
        if column == 0:
            left = 0
        if column == len(table.columns) - 1:
            right = 0
        if row == 0:
            top = 0
        if row == rows - 1:
            bottom = 0
    return top, right, bottom, left


def _measure(console: Console, options: ConsoleOptions, padded: Padding) -> int | None:
    """A cell's natural width, padding included, as Rich's table measures it (``None``: too wide)."""
    width = Measurement.get(console, options.update_width(MEASURE_WIDTH), padded).maximum
    return width if width < MEASURE_WIDTH else None


def _draw(console: Console, options: ConsoleOptions, cell: _Cell, column: Column, width: int) -> Line | None:
    """A cell's one line as Rich's table draws it at ``width``; ``None`` for more lines or one to clean."""
    cell_options = options.update(
        width=width,
        justify=column.justify,
        no_wrap=column.no_wrap,
        overflow=column.overflow,
        height=None,
        highlight=column.highlight,
    )
    lines = console.render_lines(cell.padded, cell_options, style=cell.style)
    if len(lines) != 1 or Segment.get_line_length(lines[0]) != width:
        return None
    line = lines[0]
    for segment in line:
        style_of = segment.style
        if segment.control or not segment.text.isprintable():
            return None
        if style_of is not None and (style_of.link or style_of._meta):
            return None
    return line
