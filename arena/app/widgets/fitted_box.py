"""Border titles that say as much as the box has room for: the fullest of a few wordings."""

from __future__ import annotations

from textual import events
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

TITLE_FRAME = 6
"""Columns a border title cannot use: the two corners, the rules beside it and its spaces."""


class FittedTitle(Widget):
    """A widget whose border title is the longest of its :attr:`titles` that fits its width.

    Worded on every resize of the widget itself, not of the screen: a box gets its width in
    a layout that can come after the screen's last resize (the replay's turns box at 80
    columns kept "decisions that led h…" once a step no longer laid the screen out again).
    Mixed in after the widget's own class (``class Box(VerticalScroll, FittedTitle)``): Textual
    reads a widget's CSS and component classes along its first bases.
    """

    titles: tuple[str, ...] = ()
    """The wordings, fullest first; the last is shown when none fits."""

    def word_title(self, *titles: str) -> None:
        """Title the box with the fullest of ``titles`` that fits it now (and at every resize)."""
        self.titles = titles
        self.border_title = self.fitted_title(self.size.width) if self.size.width else titles[0]

    def fitted_title(self, width: int) -> str:
        """The fullest title that fits a box ``width`` columns wide (the shortest if none does)."""
        room = width - TITLE_FRAME
        return next((title for title in self.titles if len(title) <= room), self.titles[-1])

    def on_resize(self, event: events.Resize) -> None:
        """Word the title for the new width."""
        if self.titles:
            title = self.fitted_title(event.size.width)
            if self.border_title != title:
                self.border_title = title


class FittedTitleBox(VerticalScroll, FittedTitle):
    """A scrolling box with a fitted title."""


class FittedTitleStatic(Static, FittedTitle):
    """A text with a fitted border title."""
