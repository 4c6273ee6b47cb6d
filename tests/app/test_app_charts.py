"""The score charts are textual-plot line plots: the match's of the seats shown, the replay's to its step."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from textual.content import Content
from textual.widgets import TabbedContent
from textual_plot import PlotWidget

from arena.app import create_app
from arena.app.screens.match import MatchScreen
from arena.app.screens.replay import ReplayScreen
from arena.app.widgets.panels import ScoreChart
from arena.app.widgets.series_plot import SeriesPlot
from arena.engine.match import MatchConfig
from games.lemonade.game import LemonadeState
from games.lemonade.rules import STARTING_CASH
from tests.support.app_driving import bargain_form, record_episode, started, wait_until


def plotted(plot: PlotWidget) -> list[tuple[list[float], list[float]]]:
    """(x, y) of each line the plot holds: what textual-plot will draw, read from the widget itself."""
    datasets: list[Any] = plot._datasets  # no public getter; the data given to plot() are kept here
    return [(list(map(float, d.x)), list(map(float, d.y))) for d in datasets]


async def test_the_match_chart_plots_each_stand_s_cash_by_day_on_one_plot(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        config = MatchConfig(
            game="lemonade",
            seats={"a": "baseline:weather", "b": "baseline:cost-plus"},
            seed=3,
            options={"days": 8},
        )
        live = app.start_match(config)
        live.control.pause()
        for _ in range(3):
            live.control.step()
        await wait_until(pilot, lambda: live.data.steps_done == 3, "three days played")
        screen = app.screen
        assert isinstance(screen, MatchScreen)
        chart = screen.query_one(ScoreChart)
        await wait_until(pilot, lambda: len(chart.series.get("a", [])) == 4, "the chart at day 3")
        game = live.data.game
        assert isinstance(game, LemonadeState)
        cash = {
            seat: [STARTING_CASH, *(r["cash"] for r in stand.records)] for seat, stand in game.stands.items()
        }
        assert chart.series == cash and len(set(cash["a"])) > 1
        assert plotted(chart.plot) == [([0.0, 1.0, 2.0, 3.0], cash["a"]), ([0.0, 1.0, 2.0, 3.0], cash["b"])]
        assert chart.border_title == "cash by day"
        caption = chart.border_subtitle
        assert caption is not None
        assert f"a {cash['a'][-1]:,.2f}  b {cash['b'][-1]:,.2f}" == Content.from_markup(caption).plain


async def test_a_person_s_chart_plots_only_their_own_offers(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await bargain_form(pilot, app)
        screen = app.screen
        assert isinstance(screen, MatchScreen)
        chart, form_host = screen.query_one(ScoreChart), screen.query_one("#form-host")
        await wait_until(pilot, lambda: chart.border_title == "offers (asks and bids)", "the offers title")
        assert set(chart.series) == {"seller"}, "the buyer's bids are not the seller's to see"
        assert screen.match.data.human_seats == ["seller"] and form_host.display


async def test_the_replay_chart_follows_the_step_and_the_view(app_db: Path) -> None:
    episode = await record_episode(app_db, days=6, seed=3)
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        app.open_replay(episode)
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await wait_until(pilot, lambda: bool(screen.query("#replay-chart")), "the replay's chart tab")
        chart = screen.query_one("#replay-chart", SeriesPlot)
        await pilot.press("right", "right", "right")
        assert chart.series == {}, "the chart is drawn only once its tab is open"
        screen.query_one(TabbedContent).active = "tab-chart"
        await wait_until(pilot, lambda: bool(chart.series), "the chart")
        game = screen.data.game()
        assert (
            isinstance(game, LemonadeState) and screen.data.position == 3
        )  # a step is a day: both stands act
        expected = {seat: [STARTING_CASH, *(r["cash"] for r in s.records)] for seat, s in game.stands.items()}
        assert chart.series == expected and chart.border_title == "cash by day"
        await pilot.press("end")
        await wait_until(pilot, lambda: len(chart.series["a"]) == 7, "the whole episode's six days")
        assert plotted(chart.plot)[0][0] == [float(day) for day in range(7)]
        await pilot.press("v")
        await wait_until(pilot, lambda: set(chart.series) == {"a"}, "seat a's view: its own cash only")


def test_the_plot_library_loads_only_when_a_chart_is_composed() -> None:
    code = (
        "import sys\nimport arena.app.app, arena.app.screens.match, arena.app.screens.replay\n"
        "print('textual_plot' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
