"""A DataTable filled in place while its columns keep their widths looks exactly as one rebuilt."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import DataTable

from arena.app.widgets.table_in_place import fill_table
from tests.support.app_driving import wait_until

Columns = list[tuple[str, Text]]
Rows = list[tuple[str, Sequence[Text]]]


class Tables(App[None]):
    """One table filled again and again, one built from scratch to compare with."""

    CSS = "DataTable { height: auto; }"

    def compose(self) -> ComposeResult:
        yield DataTable[Text](id="filled", cursor_type="row")
        yield DataTable[Text](id="fresh", cursor_type="row")


def board(axis: str, rows: list[tuple[str, str]]) -> tuple[Columns, Rows]:
    """A leaderboard-like table: a player column, a rating column whose header is ``axis``."""
    columns = [("player", Text("player")), ("rating", Text(axis))]
    return columns, [(str(i), (Text(player), Text(rating))) for i, (player, rating) in enumerate(rows)]


def lines(table: DataTable[Text]) -> list[str]:
    """What the table shows, line by line."""
    return [table.render_line(y).text for y in range(table.size.height)]


async def test_cells_and_a_label_of_the_same_widths_are_updated_in_place_and_look_as_rebuilt() -> None:
    app = Tables()
    async with app.run_test(size=(60, 20)) as pilot:
        filled = app.query_one("#filled", DataTable)
        fresh = app.query_one("#fresh", DataTable)
        first = board("402···1598", [("alice", "1010"), ("bob", "990")])
        assert not fill_table(filled, *first), "the first fill builds it"
        await wait_until(pilot, lambda: filled.size.height == 3, "the table laid out")
        filled.move_cursor(row=1)
        later = board("399···1601", [("bob", "1020"), ("alice", "980")])
        assert fill_table(filled, *later), "same widths: in place"
        assert filled.cursor_row == 1, "the cursor stays"
        assert not fill_table(fresh, *later)
        await wait_until(pilot, lambda: fresh.size.height == 3, "the fresh table laid out")
        await wait_until(pilot, lambda: lines(filled) == lines(fresh), "the same lines as the rebuilt table")
        assert "399···1601" in lines(filled)[0], "the new header label is drawn"


async def test_a_column_that_would_widen_or_narrow_or_another_row_set_rebuilds_the_table() -> None:
    app = Tables()
    async with app.run_test(size=(60, 20)) as pilot:
        filled = app.query_one("#filled", DataTable)
        fill_table(filled, *board("axis", [("alice", "1010"), ("bob", "990")]))
        await wait_until(pilot, lambda: filled.size.height == 3, "the table laid out")
        assert not fill_table(filled, *board("axis", [("alice", "10100"), ("bob", "990")])), "wider"
        await wait_until(pilot, lambda: filled.columns[filled.ordered_columns[1].key].content_width == 5, "5")
        assert not fill_table(filled, *board("axis", [("alice", "1010"), ("bob", "990")])), "narrower"
        await wait_until(pilot, lambda: filled.columns[filled.ordered_columns[1].key].content_width == 4, "4")
        assert not fill_table(filled, *board("axis", [("alice", "1010")])), "a row fewer"
        await wait_until(pilot, lambda: filled.row_count == 1, "one row")
        assert not fill_table(filled, *board("axis", [("alice", "10\n10")])), "a cell of two lines"


class FullWidth(App[None]):
    """One table as wide as the screen, as the leaderboard is: new widths do not resize it."""

    CSS = "DataTable { height: auto; width: 100%; }"

    def compose(self) -> ComposeResult:
        yield DataTable[Text](id="filled", cursor_type="row")


async def test_a_rebuilt_table_painted_before_it_measured_its_rows_shows_them_whole() -> None:
    app = FullWidth()
    async with app.run_test(size=(60, 20)) as pilot:
        filled = app.query_one("#filled", DataTable)
        assert not fill_table(filled, *board("rating", [("a", "1"), ("b", "2")]))
        await wait_until(pilot, lambda: filled.size.height == 3, "the table laid out")
        wider = board("rating", [("baseline:bluffing", "1000 (reference)"), ("b", "2")])
        assert not fill_table(filled, *wider), "wider cells: rebuilt"
        # A frame painted now, before the table is idle (under load the screen's timer can
        # come first): the DataTable cached the rows as drawn then, cut to the labels' widths,
        # and kept them once it had measured the cells.
        _ = lines(filled)
        measured = len(" baseline:bluffing  1000 (reference) ")
        await wait_until(pilot, lambda: filled.virtual_size.width == measured, "the table measured its rows")
        shown = lines(filled)
        assert "baseline:bluffing" in shown[1] and "1000 (reference)" in shown[1], shown
