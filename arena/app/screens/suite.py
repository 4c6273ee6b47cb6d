"""The suite screen: progress of a suite the app runs, then its results table.

The screen only reads its :class:`~arena.app.suite_job.SuiteJob`; a timer redraws the
progress a few times a second. Leaving the screen leaves the suite running.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer
from textual.widgets import Footer, Header, ProgressBar, Static

from arena.app.safe import prerender, safe_line, safe_text
from arena.app.screens.base import ArenaScreen
from arena.app.suite_job import SuiteJob
from arena.registry import get_game
from arena.suite import SuiteReport
from arena.suite_view import suite_table

if TYPE_CHECKING:
    pass

REFRESH_SECONDS = 0.1


def suite_heading(job: SuiteJob) -> Text:
    """What is being played: game, line-up, deals and seed."""
    config = job.config
    return safe_line(
        (f"{job.title}: ", "bold"),
        (config.lineup, "cyan"),
        (f"  ·  {config.n} deals from seed {config.seed}, seats swapped for each deal", ""),
    )


def report_summary(report: SuiteReport) -> Text:
    """Episodes by status, the no-deal rate when the game has deals, failures and time."""
    failures = report.failures()
    by_status = ", ".join(f"{count} {status}" for status, count in failures["episodes_by_status"].items())
    parts = [f"{len(report.episodes)} episodes ({by_status})"]
    if "no_deal_rate" in failures:
        parts.append(f"no-deal rate {failures['no_deal_rate']:.2f}")
    parts.append(f"{failures['invalid_replies']} invalid replies, {failures['fallbacks']} fallbacks")
    parts.append(f"{report.seconds:.2f} s")
    return Text(" · ".join(parts))


def metric_columns(report: SuiteReport) -> list[str]:
    """The metrics :func:`arena.suite_view.suite_table` shows by default, in its order."""
    try:
        columns = list(get_game(report.game).summary_metrics)
    except Exception:  # a game no longer registered: every metric reported
        columns = []
    if not columns:
        aggregates = report.per_player.values()
        columns = list(dict.fromkeys(key for agg in aggregates for key in agg.metrics))
    return columns


def compact(table: Table) -> Table:
    """``table`` with light rules and no outer padding, to fit more columns on a screen."""
    table.box = box.SIMPLE_HEAD
    table.pad_edge = False
    return table


def suite_tables(report: SuiteReport, console: Console, width: int) -> list[Table]:
    """:func:`arena.suite_view.suite_table`, split by metric columns into tables ``width`` wide.

    Every part repeats the player, seat, episode and score columns, so nothing needs
    sideways scrolling on a normal terminal (a single part still may on a tiny one).
    """
    columns = metric_columns(report)
    parts = 1
    while True:
        size = -(-len(columns) // parts) if columns else 0
        chunks = [columns[i : i + size] for i in range(0, len(columns), size)] if size else [[]]
        tables = [compact(suite_table(report, chunk)) for chunk in chunks]
        for table in tables[1:]:
            table.title = None
        widest = max(Measurement.get(console, console.options, table).maximum for table in tables)
        if widest <= width or size <= 1:
            return tables
        parts += 1


class SuiteScreen(ArenaScreen):
    """Watch one suite's progress and read its results."""

    HELP_NAME = "suite"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "stop", "Stop suite"),
        Binding("r", "episodes", "Recent episodes"),
        Binding("escape", "home", "Home"),
    ]

    def __init__(self, job: SuiteJob) -> None:
        super().__init__()
        self.job = job
        self.sub_title = job.title
        self._shown: tuple[str, int, int] | None = None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Stopping only while the suite runs."""
        if action == "stop":
            return self.job.running
        return True

    def compose(self) -> ComposeResult:
        """Build the widgets."""
        yield Header()
        yield Static(suite_heading(self.job), id="suite-head")
        yield ProgressBar(total=None, show_eta=False, id="suite-progress")
        yield Static(Text(""), id="suite-status")
        with ScrollableContainer(id="suite-results-box"):
            yield Static(
                Text("the results appear when every deal has been played", style="dim"), id="suite-results"
            )
        yield Footer()

    def on_mount(self) -> None:
        """Set up once the widgets exist."""
        self.query_one("#suite-results-box").border_title = "results"
        self.set_interval(REFRESH_SECONDS, self.sync)
        self.sync()

    def on_screen_resume(self) -> None:
        """Refresh when this screen comes back on top."""
        self.sync()

    def sync(self) -> None:
        """Redraw the progress, and the results once the suite has ended."""
        job = self.job
        state = (job.status, job.done, job.total)
        if state == self._shown or not self.is_attached:
            return
        self._shown = state
        self.refresh_bindings()
        self.query_one(ProgressBar).update(total=job.total or None, progress=job.done)
        status = Text(job.status_line(), style="bold")
        if job.running:
            status.append("  ·  s: stop · esc: home (the suite keeps running)", style="dim")
        if job.tournament_id is not None:
            status.append(f"  ·  stored as tournament {job.tournament_id}")
        if job.error:
            status.append("  ·  ")
            status.append_text(safe_text(job.error, "red", limit=400))
        self.query_one("#suite-status", Static).update(status)
        if job.report is not None:
            self._show_report(job.report)
        elif not job.running:
            message = "stopped: the tournament keeps the episodes played so far (r: recent episodes)"
            self.query_one("#suite-results", Static).update(Text(message if job.status == "aborted" else ""))

    def _show_report(self, report: SuiteReport) -> None:
        box = self.query_one("#suite-results-box")
        width = box.scrollable_content_region.width or self.app.size.width - 4
        # Player specs are untrusted text: rendered once with markup off, like a game's board.
        console = self.app.console
        parts = [prerender(table, console, width) for table in suite_tables(report, console, width)]
        table = Text("\n").join(parts)
        where = f"stored in {self.job.db_path} as tournament {report.tournament_id} · r: recent episodes"
        results = Text("\n").join([table, report_summary(report), Text(""), safe_text(where, "dim")])
        self.query_one("#suite-results", Static).update(results)

    def action_stop(self) -> None:
        """Stop after the episode in play (recorded as aborted)."""
        if self.job.running:
            self.job.stop()
            self.notify(f"{self.job.title}: stopping after the episode in play", markup=False)

    def action_episodes(self) -> None:
        """Browse saved episodes (the suite's are among them)."""
        self.arena.open_episodes()

    def action_home(self) -> None:
        """Back to the home screen; the suite keeps running."""
        self.arena.go_home()
