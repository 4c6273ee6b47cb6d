"""What the list screens share: a header, a line saying what is listed, one table of rows.

A list screen names its table, its head line and its columns; it fills the table in
``action_reload``, which runs when the screen mounts (and, by default, when it comes back
on top). ``action_back`` returns to where the list was opened from. Bindings stay with each
screen, in the order its footer shows them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from rich.text import Text
from textual.widget import Widget
from textual.widgets import DataTable, Header, Static

from arena.app.screens.base import ArenaScreen
from arena.app.widgets.steady_footer import SteadyFooter

STATUS_STYLES = {"finished": "green", "running": "cyan", "aborted": "yellow"}
"""Style of an episode or tournament status; any other status (a failure) is red."""


class ListScreen(ArenaScreen):
    """Base of the screens that are one table of stored rows; subclasses fill ``action_reload``."""

    TABLE_ID: ClassVar[str]
    HEAD_ID: ClassVar[str]
    COLUMNS: ClassVar[tuple[str, ...]]
    RELOAD_ON_RESUME: ClassVar[bool] = True

    def compose(self) -> Iterator[Widget]:
        """Build the widgets."""
        yield Header()
        yield from self.compose_filters()
        yield Static(Text(""), id=self.HEAD_ID)
        yield DataTable[Text](id=self.TABLE_ID, cursor_type="row", zebra_stripes=True)
        yield SteadyFooter()

    def compose_filters(self) -> Iterator[Widget]:
        """Widgets between the header and the head line (none unless a list filters)."""
        yield from ()

    @property
    def table(self) -> DataTable[Text]:
        """The list's table."""
        table: DataTable[Text] = self.query_one(f"#{self.TABLE_ID}", DataTable)
        return table

    def show_head(self, text: Text) -> None:
        """Put ``text`` in the line above the table."""
        self.query_one(f"#{self.HEAD_ID}", Static).update(text)

    def on_mount(self) -> None:
        """Set up once the widgets exist."""
        table = self.table
        for column in self.COLUMNS:
            table.add_column(column, key=column)
        self.action_reload()
        table.focus()

    def on_screen_resume(self) -> None:
        """Refresh when this screen comes back on top."""
        if self.RELOAD_ON_RESUME:
            self.action_reload()

    def action_reload(self) -> None:
        """Read the rows again."""
        raise NotImplementedError

    def action_back(self) -> None:
        """Back to where you came from."""
        self.arena.pop_or_home()
