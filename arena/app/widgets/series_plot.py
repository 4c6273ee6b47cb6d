"""A game's score over time (lemonade's cash by day, bargain's asks and bids) as a line plot.

Drawn with ``textual-plot``'s :class:`PlotWidget` (braille lines on labelled axes), which
reads better than one block sparkline per seat: every seat shares one scale, so a stand
that earns more is higher, not just a taller sparkline on its own scale. ``textual_plot``
brings numpy along, so it is imported when a chart is first composed, never at the app's
start (the match and replay screens are imported when first opened).

Each seat's last value goes in the border's subtitle, in the seat's line colour:
the plot's own legend would be drawn over the lines in a box this small. Seat names are the
game's (trusted), yet they are shown through :func:`arena.app.safe.safe_text` like
everything else; the plot's axis labels are markup in ``textual-plot``, so none is set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label

from arena.app.safe import safe_text

if TYPE_CHECKING:
    from textual_plot import PlotWidget

SEAT_COLOURS = ("green", "cyan", "yellow", "magenta", "blue", "red")
"""One colour per seat, in seat order, for its line and its figures in the subtitle."""


def seat_colour(index: int) -> str:
    """The colour of the ``index``-th seat's line."""
    return SEAT_COLOURS[index % len(SEAT_COLOURS)]


def series_caption(series: Mapping[str, Sequence[float]]) -> Text:
    """``a 415.60  b 310.10``: each seat's last value, in its line's colour (the axis gives the range)."""
    caption = Text()
    for index, (seat, values) in enumerate(series.items()):
        if index:
            caption.append("  ")
        caption.append_text(safe_text(seat, f"bold {seat_colour(index)}", limit=20))
        if values:
            caption.append(f" {values[-1]:,.2f}", seat_colour(index))
        else:
            caption.append(" -", "dim")
    return caption


class SeriesPlot(Vertical):
    """Per-seat series on one plot, x the position in the series (a day, an offer), y the value."""

    DEFAULT_CSS = """
    SeriesPlot { height: 1fr; border: round $primary 50%; padding: 0 1 0 0; }
    SeriesPlot PlotWidget { height: 1fr; }
    SeriesPlot .chart-empty { color: $text-muted; padding: 0 1; width: 100%; }  /* wraps in a narrow pane */
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "score"
        self.series: dict[str, list[float]] = {}
        """What the plot shows now, by seat (tests read it; the plot is redrawn only when it changes)."""

    def compose(self) -> ComposeResult:
        """The plot (textual-plot imported here, when a screen first shows a chart) and an empty note."""
        from textual_plot import PlotWidget

        yield PlotWidget(allow_pan_and_zoom=False)
        yield Label(Text("no score series for this game"), classes="chart-empty")

    def on_mount(self) -> None:
        """Set the plot's margins (once it has its parts) and show the empty note until a series arrives."""
        plot = self.plot
        # Tick labels below, none above: the box is small and the title is on its border.
        plot.margin_top, plot.margin_bottom, plot.margin_left = 0, 2, 8
        self._show_empty(True)

    def _show_empty(self, empty: bool) -> None:
        self.query_one(".chart-empty", Label).display = empty
        self.plot.display = not empty

    @property
    def plot(self) -> PlotWidget:
        """The plot widget itself."""
        from textual_plot import PlotWidget

        return self.query_one(PlotWidget)

    def show_series(self, series: Mapping[str, Sequence[float]], title: str) -> None:
        """Plot ``series`` under ``title``; nothing is redrawn if neither changed."""
        self.border_title = title
        wanted = {seat: [float(v) for v in values] for seat, values in series.items()}
        if wanted == self.series or not self.is_attached:
            return
        self.series = wanted
        from textual_plot import HiResMode

        plot = self.plot
        plot.clear()
        self._show_empty(not any(wanted.values()))
        longest = max((len(values) for values in wanted.values()), default=0)
        for index, values in enumerate(wanted.values()):
            if values:
                plot.plot(
                    list(range(len(values))),
                    values,
                    line_style=seat_colour(index),
                    hires_mode=HiResMode.BRAILLE,
                )
        # Whole steps on the x axis (a day or an offer, never 2.5 of them), from the first to the last.
        last = max(longest - 1, 1)
        plot.set_xlimits(0, last)
        plot.set_xticks(list(range(0, last + 1, max(1, -(-last // 4)))))
        self.border_subtitle = series_caption(wanted)
