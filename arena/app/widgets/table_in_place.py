"""Filling a DataTable in place when its columns keep their widths, rebuilding it only when they change.

Rebuilding a table (``clear(columns=True)`` and every row added again) makes it measure its
columns anew, which changes its size and lays the whole screen out again: on the tournament
screen, every half second while a tournament plays, on the event loop that answers keys.
When the new cells leave every column as wide as it was (the same players, ratings of the
same number of digits), :func:`fill_table` changes only the cells that differ, and the
table looks exactly as a rebuilt one would. A rebuild is still how the columns shrink:
a DataTable updated in place only ever widens them.

A rebuilt table's columns are given their widths, not left for the DataTable to measure:
it measures new rows only when it is next idle, and a frame painted before that (the
screen repaints on its own timer) was cached with the columns as wide as their labels and
kept, since the cache is not cleared when the widths arrive: under load the final
leaderboard stayed cut to "baseli" for good.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey

from arena.app.board_layout import text_width


def _width(cell: Text) -> int | None:
    """Cells ``cell`` takes on one line; ``None`` for a cell of several lines (rebuilt, not measured)."""
    return None if "\n" in cell.plain else cell.cell_len


def _same_shape(
    table: DataTable[Text], columns: Sequence[tuple[str, Text]], rows: Sequence[tuple[str, Sequence[Text]]]
) -> bool:
    """True if ``columns`` and ``rows`` have the table's keys and leave each column as wide as it is."""
    if [key.value for key in table.columns] != [key for key, _ in columns]:
        return False
    if [key.value for key in table.rows] != [key for key, _ in rows]:
        return False
    for index, (key, label) in enumerate(columns):
        widths = [_width(label), *(_width(cells[index]) for _, cells in rows)]
        if any(width is None for width in widths):
            return False
        # A table built from these cells would make the column as wide as its widest cell or label.
        if max(width for width in widths if width is not None) != table.columns[ColumnKey(key)].width:
            return False
    return True


def fill_table(
    table: DataTable[Text], columns: Sequence[tuple[str, Text]], rows: Sequence[tuple[str, Sequence[Text]]]
) -> bool:
    """Show ``rows`` (key, cells) under ``columns`` (key, label); True if done in place, False if rebuilt.

    In place, only the labels and cells that differ are replaced and the cursor stays where
    it is; otherwise the table is cleared and built again with the cursor kept on the same
    row number (or the last row).
    """
    if table.row_count and _same_shape(table, columns, rows):
        relabelled = False
        for key, label in columns:
            column = table.columns[ColumnKey(key)]
            if column.label != label:
                column.label = label  # as wide as the one it replaces (checked above)
                relabelled = True
        changed = False
        for row_key, cells in rows:
            for (column_key, _), cell in zip(columns, cells, strict=True):
                if table.get_cell(row_key, column_key) != cell:
                    table.update_cell(row_key, column_key, cell)
                    changed = True
        if relabelled and not changed:
            # The table keeps what it drew until a cell changes: "change" one so the header is redrawn.
            row_key, cells = rows[0]
            table.update_cell(row_key, columns[0][0], cells[0])
        return True
    cursor = table.cursor_row
    table.clear(columns=True)
    for index, (key, label) in enumerate(columns):
        table.add_column(
            label,
            key=key,
            width=max(text_width(text) for text in (label, *(cells[index] for _, cells in rows))),
        )
    for key, cells in rows:  # a cell of several lines (a wrapped name) makes its row as tall
        table.add_row(*cells, key=key, height=max((cell.plain.count("\n") + 1 for cell in cells), default=1))
    if rows:
        table.move_cursor(row=min(cursor, len(rows) - 1))
    return False
