"""Match screen panels: a seat's reasons, the conversation, the score chart and the results table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, RichLog, Static

from arena.app.match_data import ChatLine, ReasonLine, SeatStats
from arena.app.safe import one_line, safe_line, safe_text
from arena.app.widgets.series_plot import SeriesPlot
from arena.display.values import metric_rows

MAX_REASON_LINES = 400
MIN_SHOWN_LATENCY = 0.01


THINKING_SHOWN = 600
"""Characters of a decision's thinking the seat's pane shows (the replay's thinking tab shows all)."""


def reason_entry(line: ReasonLine) -> Text:
    """A reason as it arrived: step, action, flags, the reason itself and its cost."""
    text = safe_line((f"{line.step + 1:>3} ", "bold"), (one_line(line.action_text, 80), "cyan"))
    if line.flags:
        text.append_text(
            safe_text(f"  {line.flags}", "red" if line.flags.startswith("FALLBACK") else "yellow")
        )
    text.append("\n")
    text.append_text(safe_text(line.reason or "(no reason given)", "italic", limit=1200))
    if line.thinking:  # the model's own thinking, apart from the reason it states (replay: the thinking tab)
        text.append("\n")
        text.append_text(safe_text(f"thinking: {line.thinking}", "dim", limit=THINKING_SHOWN))
    usage = line.usage
    if usage.spent:
        cost = f"  [{usage.tokens_text()}, {usage.cost_text()}, {line.latency:.2f}s]"
        text.append_text(safe_text(cost, "dim"))
    elif line.timed and line.latency >= MIN_SHOWN_LATENCY:
        text.append_text(safe_text(f"  [{line.latency:.2f}s]", "dim"))
    return text


def wrap_width(log: RichLog) -> int:
    """The width a RichLog wraps what is written at now.

    The logs here keep their scroll bar's room whether or not it shows (``scrollbar-gutter:
    stable``): otherwise lines written before the bar appeared were wrapped one column wider
    than the lines after, and the same match looked different depending on when it did.
    """
    return log.scrollable_content_region.width


class SeatPane(Vertical):
    """One seat: who plays it, its running usage, and every stated reason as it arrives."""

    DEFAULT_CSS = """
    SeatPane { height: 1fr; min-height: 5; border: round $primary 50%; border-title-style: bold; }
    SeatPane .seat-stats { color: $text-muted; height: auto; }
    SeatPane RichLog {
        height: 1fr; background: $surface; scrollbar-size-vertical: 1; scrollbar-gutter: stable;
    }
    SeatPane.deciding { border: round $warning; }
    """

    def __init__(self, seat: str, player: str, index: int) -> None:
        super().__init__(id=f"seat-{index}")
        self.seat = seat
        self.border_title = f"seat {seat}"
        self.player = player
        self.shown = 0
        self.hidden = False
        self.lines: Sequence[ReasonLine] = ()
        self.wrapped_at = 0

    def compose(self) -> ComposeResult:
        """Build the widgets."""
        yield Static(safe_text(self.player, "bold"), classes="seat-player")
        yield Static(Text(""), classes="seat-stats")
        yield RichLog(wrap=True, markup=False, max_lines=MAX_REASON_LINES, auto_scroll=True, min_width=10)

    def update_pane(
        self, stats: SeatStats, lines: Sequence[ReasonLine], *, hidden: bool, deciding: bool
    ) -> None:
        """Show new reasons (or a placeholder while they must stay hidden) and the totals."""
        log = self.query_one(RichLog)
        self.set_class(deciding, "deciding")
        if hidden != self.hidden:
            self.hidden = hidden
            self.shown = 0
            log.clear()
            if hidden:
                log.write(Text("reasons are hidden from you until the match ends", style="dim italic"))
        if hidden:
            self.query_one(".seat-stats", Static).update(Text(f"{stats.decisions} decisions", style="dim"))
            return
        self.lines = lines
        for line in lines[self.shown :]:
            log.write(reason_entry(line))
        self.shown = len(lines)
        self.wrapped_at = wrap_width(log)
        self.query_one(".seat-stats", Static).update(safe_text(stats.summary()))

    def on_resize(self) -> None:
        """Wrap the reasons again at the new width (a RichLog wraps each line once, as written)."""
        log = self.query_one(RichLog)
        if self.hidden or not self.shown or wrap_width(log) == self.wrapped_at:
            return
        log.clear()
        for line in self.lines[max(0, len(self.lines) - MAX_REASON_LINES) :]:
            log.write(reason_entry(line))
        self.wrapped_at = wrap_width(log)


def chat_entry(line: ChatLine, you: bool) -> Text:
    """A move and what its seat said: ``3 seller (you) offer 70`` over the message, literally."""
    text = safe_line(
        (f"{line.step + 1:>3} ", "bold"),
        (line.seat, "bold"),
        (" (you)" if you else "", "dim"),
        ("  ", ""),
        (one_line(line.move, 60), "cyan"),
    )
    if line.message.strip():
        text.append("\n    ")
        text.append_text(safe_text(line.message, limit=1200))
    return text


class MessagesPane(RichLog):
    """The conversation of a game whose moves carry a free-text message, as it happens."""

    DEFAULT_CSS = """
    MessagesPane {
        width: 1fr; height: 1fr; border: round $primary 50%; scrollbar-size-vertical: 1;
        scrollbar-gutter: stable;
    }
    """

    def __init__(self) -> None:
        super().__init__(id="messages", wrap=True, markup=False, auto_scroll=True, min_width=10)
        self.border_title = "messages"
        self.shown = 0

    def update_chat(self, lines: Sequence[ChatLine], you: Sequence[str]) -> None:
        """Add the lines that arrived since the last call; ``you`` are the seats played here."""
        for line in lines[self.shown :]:
            self.write(chat_entry(line, line.seat in you))
        self.shown = len(lines)


class ScoreChart(SeriesPlot):
    """The score over time of each visible seat, as lines on one plot (:mod:`.series_plot`)."""

    DEFAULT_CSS = """
    ScoreChart { width: 38; }
    """

    def __init__(self) -> None:
        super().__init__(id="chart")

    async def update_series(self, series: dict[str, list[float]], title: str = "score") -> None:
        """Redraw with ``series`` under ``title`` (nothing is redrawn when neither changed)."""
        self.show_series(series, title)


class ResultsTable(DataTable[Text]):
    """The final results: one row per metric, seats side by side."""

    DEFAULT_CSS = """
    ResultsTable { height: 1fr; width: auto; max-width: 60%; border: round $success; }  /* width: show() */
    """

    def __init__(self) -> None:
        super().__init__(id="results", zebra_stripes=True, cursor_type="row", show_cursor=False)
        self.border_title = "results"
        self._shown: tuple[list[str], dict[str, str], list[list[Any]]] | None = None
        self._with_players = True

    def show(
        self, seats: list[str], players: dict[str, str], rows: list[list[Any]], *, with_players: bool = True
    ) -> None:
        """Fill the table from :meth:`arena.app.match_data.MatchData.result_rows`.

        ``with_players`` names each column "seat (player)"; without, the seat alone, for a
        narrow screen where the seat panes beside the table name the players (with them the
        second seat's column lay beyond the screen's edge at 80 columns).
        """
        self._shown = (seats, players, rows)
        self._with_players = with_players
        self.clear(columns=True)
        headings = [Text("metric")]
        headings += [
            safe_text(f"{seat} ({players.get(seat, '?')})" if with_players else seat, limit=40)
            for seat in seats
        ]
        for key, heading in zip(["metric", *seats], headings, strict=True):
            self.add_column(heading, key=key)
        lines = [
            [safe_text(shown), *(Text(cell, justify="right") for cell in cells)]
            for name, *values in rows
            for shown, cells in metric_rows(name, values)
        ]
        for line in lines:
            self.add_row(*line)
        # As wide as its columns, set here: sized "auto", the table took its width from a
        # measure it makes when idle, and a layout that came first left it 0 columns wide
        # (now and then at 80 columns when a match ended fast).
        columns = [max(cell.cell_len for cell in column) for column in zip(headings, *lines, strict=True)]
        border_and_bar = 4
        self.styles.width = sum(width + 2 * self.cell_padding for width in columns) + border_and_bar

    def fit(self, *, with_players: bool) -> None:
        """Show the players in the headings or not (the screen's width changed), if that changes them."""
        if self._shown is not None and with_players != self._with_players:
            self.show(*self._shown, with_players=with_players)
