"""Every screen at ordinary terminal sizes: 80x24 up to 160x48, read as a person sees it.

What is asserted is the text on the screen (Textual's own compositor): a field's title and
its value on one row, the Start buttons in view, a person's choices and players' names
whole, the tournament tables without a cell cut short.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.widget import Widget
from textual.widgets import Static

from arena.app import create_app
from arena.app.app import ArenaApp
from arena.app.screens.match import MatchScreen
from arena.app.screens.tournament import TournamentScreen
from arena.app.screens.tournament_setup import TournamentSetupScreen
from arena.app.widgets.human_form import HumanForm
from arena.app.widgets.panels import SeatPane
from arena.display.tables import render_table
from arena.engine.match import MatchConfig
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import run_tournament
from arena.tournament.standings import tournament_table
from tests.support.app_driving import (
    beside,
    field_in_view,
    in_view,
    line_with,
    open_tournament_board,
    pick_game,
    record_episode,
    render_plain,
    screen_text,
    started,
    wait_until,
    wholly_visible,
)

SMALL, ORDINARY, LARGE = (80, 24), (100, 30), (160, 48)
SIZES = (SMALL, ORDINARY, LARGE)
IDS = ["80x24", "100x30", "160x48"]

LEMONADE_PLAYERS = ("baseline:weather", "baseline:cost-plus", "baseline:profit-max")


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_home_puts_each_option_beside_its_title_and_start_in_view(
    app_db: Path, size: tuple[int, int]
) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=size) as pilot:
        await pick_game(pilot, app, "lemonade")
        screen = screen_text(app)
        assert "Start match (ctrl+s)" in screen and "Tournament (ctrl+r)" in screen
        assert "seeds 10" in " ".join(line_with("Tournament (ctrl+r)", screen).split())
        for selector, title, value in (
            ("#opt-0", "days (1 to 1000)", "30"),
            ("#opt-1", "stands (1 to 8)", "2"),
            ("#opt-2", "market", "identical"),
        ):
            await field_in_view(pilot, app, selector)
            shown = screen_text(app)
            beside(title, value, shown)
            assert "Start match (ctrl+s)" in shown, "Start stays in view while the set-up scrolls"


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_the_tournament_set_up_fields_read_on_one_row_each(app_db: Path, size: tuple[int, int]) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=size) as pilot:
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: isinstance(app.screen, TournamentSetupScreen), "the set-up")
        await wait_until(pilot, lambda: bool(app.screen.query("#tf-opt-2")), "its fields")
        for selector, title, value in (
            ("#tf-seeds", "deal seeds", "10"),
            ("#tf-concurrency", "episodes at once", "4"),
            ("#tf-opt-0", "days (1 to 1000)", "30"),
            ("#tf-opt-2", "market", "identical"),
        ):
            await field_in_view(pilot, app, selector)
            shown = screen_text(app)
            beside(title, value, shown)
            assert "Start tournament (ctrl+s)" in shown


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
async def test_a_persons_promotion_choices_read_whole(app_db: Path, size: tuple[int, int]) -> None:
    app = create_app(app_db, load_models=False, step_delay=0.0)
    async with started(app, size=size) as pilot:
        seats = {"a": "human", "b": "baseline:weather"}
        app.start_match(MatchConfig(game="lemonade", seats=seats, seed=3, options={"days": 3}))
        await wait_until(pilot, lambda: bool(app.screen.query(HumanForm)), "the form")
        laid_out = "-narrow" if size[0] < 100 else "-wide"
        await wait_until(pilot, lambda: app.screen.has_class(laid_out), "the screen laid out for its width")
        await wait_until(pilot, lambda: "promotion" in screen_text(app), "the promotion field")

        def choices_whole() -> bool:
            row = " ".join(line_with("promotion", screen_text(app)).split()) + " "
            # each choice whole beside its mark (the note after them names them too: look at the marks)
            return "▌ none " in row and "▌ discount " in row and "▌ bundle " in row

        await wait_until(pilot, choices_whole, "the promotion choices whole")
        assert "Submit move (enter)" in screen_text(app)


async def test_three_seat_panes_at_80_columns_keep_each_name_on_one_line(app_db: Path) -> None:
    app = create_app(app_db, load_models=False, step_delay=0.0)
    async with started(app, size=SMALL) as pilot:
        seats = {"p1": "baseline:tracker", "p2": "baseline:set-racer", "p3": "baseline:tracker"}
        live = app.start_match(MatchConfig(game="cattle", seats=seats, seed=3, options={"players": 3}))
        live.control.pause()
        live.control.step()
        await wait_until(pilot, lambda: live.data.steps_done >= 1, "a step")
        screen = app.screen
        assert isinstance(screen, MatchScreen)
        await wait_until(pilot, lambda: bool(screen.query(SeatPane)), "the seat panes")
        names = [pane.query_one(".seat-player", Static) for pane in screen.query(SeatPane)]
        await wait_until(pilot, lambda: screen.has_class("-narrow"), "the screen laid out for 80 columns")
        await wait_until(pilot, lambda: "Pause/resume" in screen_text(app), "the screen painted")
        await wait_until(pilot, lambda: screen_text(app).count("(avg") == 3, "the panes painted")
        assert [name.size.height for name in names] == [1, 1, 1], "each name on one line"
        shown = screen_text(app)
        assert shown.count("baseline:tracker") == 2, shown


async def lemonade_tournament(db: Path) -> int:
    store = Store(db)
    try:
        config = build_config(game="lemonade", players=LEMONADE_PLAYERS, seeds=3, options={"days": "4"})
        return (await run_tournament(store, config)).tournament_id
    finally:
        store.close()


def no_cell_cut(text: str) -> None:
    """No cell ends in Rich's ellipsis and every metric and interval reads whole, in words."""
    assert "…" not in text, text
    for metric in ("final cash", "revenue", "ingredient cost", "wasted cups", "gross margin"):
        assert metric in text, f"{metric} shown whole"
    assert "_" not in text, "metric names in words (final cash), not identifiers (final_cash)"


@pytest.mark.parametrize("width", [80, 120, 160])
async def test_the_tournament_tables_at_the_console_cut_no_cell(tmp_path: Path, width: int) -> None:
    db = tmp_path / "t.db"
    tournament_id = await lemonade_tournament(db)
    store = Store(db)
    try:
        table = tournament_table(store, tournament_id)
    finally:
        store.close()
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None).print(render_table(table))
    text = buffer.getvalue()
    no_cell_cut(text)
    assert max(len(line) for line in text.splitlines()) <= width
    rows = [line for line in text.splitlines() if line.startswith("│")]
    intervals = [cell.strip() for line in rows for cell in line.split("│") if cell.strip().startswith("(")]
    assert intervals and all(cell.endswith(")") for cell in intervals), "every interval closes"


@pytest.mark.parametrize("size", [SMALL, (120, 40), LARGE], ids=["80x24", "120x40", "160x48"])
async def test_the_tournament_screens_tables_fit_its_width(app_db: Path, size: tuple[int, int]) -> None:
    tournament_id = await lemonade_tournament(app_db)
    app = create_app(app_db, load_models=False)
    async with started(app, size=size) as pilot:
        app.open_tournament(tournament_id)
        await wait_until(pilot, lambda: isinstance(app.screen, TournamentScreen), "the tournament")
        screen = app.screen
        assert isinstance(screen, TournamentScreen)
        await wait_until(pilot, lambda: screen.board is not None, "its tables")
        tables = screen.query_one("#t-tables", Static)
        await wait_until(
            pilot, lambda: "final cash" in render_plain(tables.content, 1000), "the tables drawn"
        )
        text = render_plain(tables.content, 1000)
        no_cell_cut(text)
        widest = max(len(line.rstrip()) for line in text.splitlines())
        assert widest <= size[0] - 4, f"{widest} columns of tables in a {size[0]}-column screen"


@pytest.mark.parametrize("size", [SMALL, (120, 40), LARGE], ids=["80x24", "120x40", "160x48"])
async def test_the_leaderboard_reads_whole_without_scrolling_sideways(
    app_db: Path, size: tuple[int, int]
) -> None:
    tournament_id = await lemonade_tournament(app_db)
    app = create_app(app_db, load_models=False)
    async with started(app, size=size) as pilot:
        screen, board = await open_tournament_board(pilot, app, tournament_id, rows=3)
        assert board.max_scroll_x == 0, (
            f"{board.virtual_size.width} columns of leaderboard in {board.size.width}"
        )
        shown = screen_text(app)
        rows = screen.board.rows if screen.board else []
        for row in rows:
            assert row.player in shown, f"{row.player} whole on screen"
            assert all(word in shown for word in row.rating_label.split()), row.rating_label
            assert row.interval_label in shown
        assert "…" not in line_with("#  player", shown)
        if size == LARGE:  # room for every column and the interval drawn as a bar
            assert "episodes" in line_with("#  player", shown) and "●" in shown


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
async def test_the_episode_list_at_80_columns_says_all_its_keys(app_db: Path, size: tuple[int, int]) -> None:
    await record_episode(app_db, days=2)
    app = create_app(app_db, load_models=False)
    async with started(app, size=size) as pilot:
        app.open_episodes()
        await wait_until(pilot, lambda: "ctrl+t: tournaments" in screen_text(app), "the keys line")
        assert "x: export" in " ".join(screen_text(app).split())
        assert in_view(app, "#filter-player"), "the player filter in view"


def shown_whole(app: ArenaApp, *widgets: Widget) -> Callable[[], bool]:
    """A condition: every one of ``widgets`` is wholly visible."""
    return lambda: all(wholly_visible(app, widget) for widget in widgets)


PLAYS: dict[str, tuple[dict[str, str], dict[str, Any]]] = {
    "lemonade": ({"a": "baseline:weather", "b": "baseline:cost-plus"}, {"days": 3}),
    "bargain": ({"seller": "baseline:honest", "buyer": "baseline:bluffing"}, {}),
    "paperclip": ({"a": "baseline:oracle", "b": "baseline:sloppy"}, {"mode": "batch", "puzzles": 2}),
    "cattle": (
        {"p1": "baseline:tracker", "p2": "baseline:set-racer", "p3": "baseline:tracker"},
        {"players": 3},
    ),
}


@pytest.mark.parametrize("person", [False, True], ids=["watching", "as a person"])
@pytest.mark.parametrize("game", list(PLAYS))
async def test_every_game_works_at_80x24(app_db: Path, game: str, person: bool) -> None:
    seats, options = PLAYS[game]
    if person:
        seats = {**seats, next(iter(seats)): "human"}
    app = create_app(app_db, load_models=False, step_delay=0.0)
    async with started(app, size=SMALL) as pilot:
        live = app.start_match(MatchConfig(game=game, seats=seats, seed=3, options=options))
        screen = app.screen
        assert isinstance(screen, MatchScreen)
        await wait_until(pilot, lambda: screen.has_class("-short"), "the screen laid out for 24 rows")
        board = screen.query_one("#board-scroll")
        if person:
            await wait_until(pilot, lambda: bool(screen.query(HumanForm)), "the form")
            form = screen.query_one(HumanForm)
            controls = [*form.query(".form-fields Input"), *form.query(".form-fields ChoiceSet")]
            for control in [*controls, form.query_one("#form-submit")]:
                control.focus()
                both = shown_whole(app, control, board)
                await wait_until(pilot, both, f"{control.id} in view with the board")
                assert board.size.height >= 4, "three board rows and its bar beside the form"
        else:
            live.control.pause()
            live.control.step()
            await wait_until(pilot, lambda: live.data.steps_done >= 1, "a step")
            await wait_until(pilot, lambda: screen_text(app).count("(avg") == len(seats), "the panes painted")
            panes = list(screen.query(SeatPane))
            assert panes and all(wholly_visible(app, pane) for pane in panes), "every seat's pane in view"
            assert board.size.height >= 4 and wholly_visible(app, board)
            assert wholly_visible(app, screen.query_one("#history"))
