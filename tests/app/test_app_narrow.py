"""The screens widths24 left at 80x24: the OpenSpiel and TextArena games, and what was still cut.

Read as a person sees it (Textual's own compositor): each game's set-up on home, its match
watched to the end and played as a person, its replay with every tab; the typed-seat and
filter placeholders, the footer's keys, the rules box (F2). "Whole" means a text's every
line is on the screen: a widget's rendered lines all fit its height, nothing runs past the
pane it sits in, no key or title ends cut.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.widget import Widget
from textual.widgets import Input, Static, TabbedContent
from textual.widgets._footer import FooterKey

from arena.app import create_app
from arena.app.app import ArenaApp
from arena.app.home_data import MatchDraft, option_title, reflow
from arena.app.screens.episodes import EpisodesScreen
from arena.app.screens.home import HomeScreen
from arena.app.screens.match import MatchScreen
from arena.app.screens.modals import TextScreen
from arena.app.screens.replay import ReplayScreen
from arena.app.screens.tournament_setup import TournamentSetupScreen
from arena.app.widgets.human_form import HumanForm, observation_line
from arena.app.widgets.panels import ResultsTable
from arena.app.widgets.series_plot import SeriesPlot
from arena.engine.match import MatchConfig, play_match
from arena.plugins.games import get_game
from arena.store.database import Store
from tests.support.app_driving import (
    beside,
    episode_list_ready,
    field_in_view,
    line_with,
    pick_game,
    record_episode,
    render_plain,
    screen_text,
    started,
    wait_until,
    wholly_visible,
)

SMALL, ORDINARY, LARGE = (80, 24), (100, 30), (160, 48)

CATALOGUE: dict[str, dict[str, Any]] = {
    "openspiel:tic_tac_toe": {},
    "openspiel:liars_dice": {},
    "openspiel:chess": {"move_cap": 12},
    "openspiel:goofspiel": {},
    "openspiel:bargaining": {},
    "textarena:TicTacToe-v0": {},
    "textarena:Poker-v0": {"num_rounds": 2},
    "textarena:Battleship-v0": {},
}
"""The catalogue games tried, with options that keep a random game short."""


def reads_whole(app: ArenaApp, widget: Static) -> bool:
    """True if ``widget`` is wholly in view and every line of its text fits its height (none clipped)."""
    if not wholly_visible(app, widget):
        return False
    width = widget.content_size.width
    lines = render_plain(widget.content, width).rstrip("\n").splitlines() if width else [""]
    return len(lines) <= widget.content_size.height


def footer_keys_whole(app: ArenaApp) -> bool:
    """Every key the footer shows is whole on the screen (the others are left out, not cut)."""
    shown = [key for key in app.screen.query(FooterKey) if key.display]
    return bool(shown) and all(wholly_visible(app, key) for key in shown)


def seats_of(game: str, options: dict[str, Any]) -> tuple[str, ...]:
    return get_game(game).seats_for(options)


def random_match(game: str, options: dict[str, Any]) -> MatchConfig:
    """``game`` with a random baseline in every seat."""
    seats = dict.fromkeys(seats_of(game, options), "baseline:random")
    return MatchConfig(game=game, seats=seats, seed=3, options=options)


def results_shown(live: Any, screen: MatchScreen) -> bool:
    return bool(live.data.over) and bool(screen.query_one(ResultsTable).display)


@pytest.mark.parametrize("game", list(CATALOGUE))
async def test_a_catalogue_games_set_up_reads_whole_at_80x24(app_db: Path, game: str) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=SMALL) as pilot:
        await pick_game(pilot, app, game)
        screen = app.screen
        assert isinstance(screen, HomeScreen)
        definition = screen.definition
        assert definition is not None
        typed = screen.query_one("#seat-typed", Input)
        await wait_until(pilot, lambda: typed.placeholder in screen_text(app), "the typed-seat hint whole")
        assert "needs a value" not in screen_text(app), "the defaults are a set-up that can start"
        for index, option in enumerate(definition.options):
            await field_in_view(pilot, app, f"#opt-{index}")
            value = screen.draft.options[option.name] if screen.draft else ""
            shown = screen_text(app)
            if value:
                beside(option_title(option), value[:10], shown)
            else:
                assert option_title(option) in shown
            assert "Start match (ctrl+s)" in shown
        await wait_until(pilot, lambda: footer_keys_whole(app), "every key in the footer whole")


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
@pytest.mark.parametrize("game", ["lemonade", "bargain", "openspiel:liars_dice"])
async def test_the_typed_seat_hint_reads_whole(app_db: Path, game: str, size: tuple[int, int]) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=size) as pilot:
        await pick_game(pilot, app, game)
        home = app.screen
        assert isinstance(home, HomeScreen) and home.draft is not None
        typed = home.query_one("#seat-typed", Input)
        first_seat = home.draft.seat_names()[0]

        def hint_whole() -> bool:
            line = line_with("SEAT=SPEC", screen_text(app))
            return typed.placeholder in line and typed.placeholder.endswith(("(enter)", "enter", "SPEC"))

        await wait_until(pilot, hint_whole, "the typed-seat hint whole")
        if size == LARGE:
            full = f"e.g. {first_seat}=openai-compat:MODEL@URL (enter)"
            assert full in typed.placeholder, "the full example"
        else:
            hint = typed.placeholder
            assert "e.g." in hint and "(enter)" in hint, "still an example and the key"


@pytest.mark.parametrize("game", list(CATALOGUE))
async def test_a_person_plays_a_catalogue_game_at_80x24(app_db: Path, game: str) -> None:
    options = CATALOGUE[game]
    seats = seats_of(game, options)
    app = create_app(app_db, load_models=False, step_delay=0.0)
    async with started(app, size=SMALL) as pilot:
        given = {seat: "baseline:random" for seat in seats} | {seats[0]: "human"}
        app.start_match(MatchConfig(game=game, seats=given, seed=3, options=options))
        screen = app.screen
        assert isinstance(screen, MatchScreen)
        await wait_until(pilot, lambda: screen.has_class("-short"), "the screen laid out for 24 rows")
        await wait_until(pilot, lambda: bool(screen.query(HumanForm)), "the form")
        form = screen.query_one(HumanForm)
        await wait_until(pilot, lambda: bool(form.query("#field-0")), "its fields")
        board = screen.query_one("#board-scroll")
        facts = form.query_one(".form-facts", Static)
        keys = form.query_one(".form-keys", Static)
        form.query_one("#field-0").focus()
        await wait_until(pilot, lambda: reads_whole(app, facts), "the form's facts whole")
        controls = [form.query_one(f"#field-{i}") for i in range(len(form.form.fields))]
        help_line = form.query_one("#form-help", Static)
        for index, control in enumerate(controls):
            control.focus()
            note = form.query_one(f"#err-{index}", Static)

            def in_view(control: Widget = control, note: Static = note) -> bool:
                whole = wholly_visible(app, control) and wholly_visible(app, board)
                said = note.content.plain if isinstance(note.content, Text) else str(note.content)
                # the note whole beside the field, or repeated whole on the line under the fields
                shown_whole = any(
                    reads_whole(app, widget) and said in str(widget.content)
                    for widget in (note, help_line)
                    if widget.display
                )
                return whole and note.has_class("-current") and bool(said) and shown_whole

            await wait_until(pilot, in_view, f"{control.id}, its note whole, and the board")
            assert board.size.height >= 4, "three board rows and its bar beside the form"
        form.query_one("#form-submit").focus()
        await wait_until(pilot, lambda: reads_whole(app, keys), "the form's keys line whole")
        await wait_until(pilot, lambda: footer_keys_whole(app), "every key in the footer whole")


@pytest.mark.parametrize("game", list(CATALOGUE))
async def test_a_catalogue_game_watched_to_its_end_at_80x24(app_db: Path, game: str) -> None:
    options = CATALOGUE[game]
    app = create_app(app_db, load_models=False, step_delay=0.0)
    async with started(app, size=SMALL) as pilot:
        live = app.start_match(random_match(game, options))
        live.control.pause()
        screen = app.screen
        assert isinstance(screen, MatchScreen)
        await wait_until(pilot, lambda: screen.has_class("-narrow"), "the screen laid out for 80 columns")
        empty = screen.query_one(SeriesPlot).query_one(".chart-empty", Static)
        if empty.display:  # a game without a score series says so, in full
            await wait_until(pilot, lambda: reads_whole(app, empty), "the chart's note whole")
        live.control.resume()
        await wait_until(pilot, lambda: results_shown(live, screen), "the results")
        table = screen.query_one(ResultsTable)

        def every_column_in_view() -> bool:
            laid_out = table.virtual_size.width > 0 and table.row_count > 0
            return laid_out and table.max_scroll_x == 0 and wholly_visible(app, table)

        await wait_until(pilot, every_column_in_view, "every seat's column of the results in view")
        await wait_until(pilot, lambda: footer_keys_whole(app), "every key in the footer whole")


async def test_the_results_name_the_players_when_there_is_room(app_db: Path) -> None:
    app = create_app(app_db, load_models=False, step_delay=0.0)
    async with started(app, size=LARGE) as pilot:
        live = app.start_match(random_match("openspiel:liars_dice", {}))
        screen = app.screen
        assert isinstance(screen, MatchScreen)
        await wait_until(pilot, lambda: results_shown(live, screen), "the results")
        table = screen.query_one(ResultsTable)

        def headings() -> list[str]:
            return [str(column.label) for column in table.columns.values()]

        await wait_until(pilot, lambda: "p0 (baseline:random)" in headings(), "players in the headings")
        await pilot.resize_terminal(*SMALL)
        await wait_until(pilot, lambda: headings() == ["metric", "p0", "p1"], "seats alone at 80 columns")
        await wait_until(pilot, lambda: table.max_scroll_x == 0, "every column in view")


@pytest.mark.parametrize("game", list(CATALOGUE))
async def test_a_catalogue_games_replay_at_80x24_shows_every_tab(app_db: Path, game: str) -> None:
    options = CATALOGUE[game]
    store = Store(app_db)
    try:
        episode_id = (await play_match(random_match(game, options), store)).episode_id
    finally:
        store.close()
    assert episode_id is not None
    app = create_app(app_db, load_models=False)
    async with started(app, size=SMALL) as pilot:
        app.open_replay(episode_id, at_step=1)
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        await wait_until(pilot, lambda: bool(app.screen.query("#replay-turns-box")), "its boxes")
        box = app.screen.query_one("#replay-turns-box")
        await wait_until(pilot, lambda: box.border_title == "decisions", "the turns box's title fitted")
        for _ in range(5):
            shown = screen_text(app)
            tabs = line_with("raw reply", shown)
            assert all(name in tabs for name in ("prompt", "failed attempts", "changes", "chart"))
            assert "…" not in line_with("decisions", shown), "the box title whole"
            await wait_until(pilot, lambda: footer_keys_whole(app), "every key in the footer whole")
            tabs_box = app.screen.query_one(TabbedContent)
            before = tabs_box.active
            await pilot.press("t")
            await wait_until(pilot, lambda: tabs_box.active != before, "the next tab")  # noqa: B023


async def test_the_replay_keeps_its_long_title_at_160_columns(app_db: Path) -> None:
    episode_id = await record_episode(app_db, days=2)
    app = create_app(app_db, load_models=False)
    async with started(app, size=LARGE) as pilot:
        app.open_replay(episode_id)
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        await wait_until(pilot, lambda: bool(app.screen.query("#replay-turns-box")), "its boxes")
        box = app.screen.query_one("#replay-turns-box")
        await wait_until(pilot, lambda: "decisions that led here" in screen_text(app), "the full title")
        assert box.border_title == "decisions that led here"


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
async def test_the_episode_filter_and_the_tournament_spec_hints_read_whole(
    app_db: Path, size: tuple[int, int]
) -> None:
    await record_episode(app_db, days=2)
    app = create_app(app_db, load_models=False)
    async with started(app, size=size) as pilot:
        app.open_episodes()
        await wait_until(pilot, lambda: isinstance(app.screen, EpisodesScreen), "the episode list")
        await wait_until(pilot, lambda: bool(app.screen.query("#filter-player")), "its filters")
        hint = app.screen.query_one("#filter-player", Input)
        await wait_until(pilot, lambda: hint.placeholder in screen_text(app), "the filter's hint whole")
        assert ("(e.g. weather)" in hint.placeholder) == (size == LARGE)
        await wait_until(pilot, lambda: footer_keys_whole(app), "the footer's keys whole")
        await pilot.press("escape")
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: isinstance(app.screen, TournamentSetupScreen), "the set-up")
        await wait_until(pilot, lambda: bool(app.screen.query("#t-new")), "its fields")
        spec = app.screen.query_one("#t-new", Input)
        await wait_until(pilot, lambda: spec.placeholder in screen_text(app), "the spec hint whole")
        assert ("openai-compat:MODEL@URL" in spec.placeholder) == (size == LARGE)


async def test_the_rules_read_in_paragraphs_at_80x24(app_db: Path) -> None:
    app = create_app(app_db, load_models=False, step_delay=0.0)
    async with started(app, size=SMALL) as pilot:
        seats = {"seller": "baseline:honest", "buyer": "baseline:bluffing"}
        live = app.start_match(MatchConfig(game="bargain", seats=seats, seed=3))
        live.control.pause()
        await wait_until(pilot, lambda: isinstance(app.screen, MatchScreen), "the match")
        await pilot.press("f2")
        await wait_until(pilot, lambda: isinstance(app.screen, TextScreen), "the rules")
        await wait_until(pilot, lambda: "The cost is drawn" in screen_text(app), "the rules drawn")
        shown = screen_text(app)
        # the rules' hard line breaks (written for a prompt) no longer end the screen's lines
        assert "drawn from 10 to 50" in line_with("The cost is drawn", shown)


def test_a_bullets_indented_lines_join_it() -> None:
    text = get_game("bargain").rules(get_game("bargain").Options(), "seller")
    flowed = reflow(text)
    assert "The offer is binding: if the buyer accepts it on their next turn" in flowed
    assert "\nAn offer made in round 8" in flowed, "a line at the margin after a bullet starts anew"
    assert reflow("- item\n  more\nNext\nline\n  kept") == "- item more\nNext line\n  kept"


def test_the_facts_line_leaves_out_a_drawing() -> None:
    observation = {"view": "Pool: 3\nMy values: 2", "seat": "p0", "turn": 1, "fen": "8/8 w - 0 1"}
    assert observation_line(observation) == "seat p0 · turn 1 · fen 8/8 w - 0 1"


def test_a_text_option_whose_default_is_empty_may_stay_empty() -> None:
    draft = MatchDraft(get_game("openspiel:bargaining"))
    assert draft.options["instances_file"] == ""
    assert draft.option_errors() == {}
    draft.options["max_turns"] = ""
    assert draft.option_errors() == {"max_turns": "max_turns needs a value"}


async def test_the_help_keeps_a_long_description_under_itself_at_80x24(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=SMALL) as pilot:
        await pilot.press("f1")
        await wait_until(pilot, lambda: "command palette" in screen_text(app), "the help")
        shown = screen_text(app)
        column = line_with("command palette", shown).index("command palette")
        going_on = line_with("replay, watch", shown)
        assert "command palette" not in going_on, "the description goes on on the next line at 80 columns"
        inside = going_on.split("│")[1]  # the line within the box's sides
        start = going_on.index("│") + 1 + len(inside) - len(inside.lstrip())
        assert start == column, f"under its first line:\n{shown}"


def box_titles(screen: str) -> list[str]:
    """The titles written into the top rules of the screen's boxes ("╭─ games ──╮")."""
    return [title.strip() for line in screen.splitlines() for title in re.findall(r"╭─([^─╮]+)─", line)]


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
async def test_the_home_and_replay_box_titles_read_whole(app_db: Path, size: tuple[int, int]) -> None:
    await record_episode(app_db, days=3)
    app = create_app(app_db, load_models=False)
    async with started(app, size=size) as pilot:
        expected = {"games", "rules", "seats", "seed and options"}
        await wait_until(pilot, lambda: expected <= set(box_titles(screen_text(app))), "the home boxes")
        titles = box_titles(screen_text(app))
        assert not any("…" in title for title in titles), titles
        assert any(title.startswith("this session") for title in titles), titles
        assert any(title.startswith("recent") and "ctrl+o" in title for title in titles), titles
        await pilot.press("ctrl+o")
        await episode_list_ready(pilot, app)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        await wait_until(pilot, lambda: "state" in box_titles(screen_text(app)), "the replay's boxes")
        await wait_until(
            pilot,
            lambda: any(t.startswith("decisions") for t in box_titles(screen_text(app))),
            "the turns box",
        )
        titles = box_titles(screen_text(app))
        assert not any("…" in title for title in titles), titles


async def test_the_episode_list_reads_whole_at_80_columns_and_on_one_line_where_it_fits(app_db: Path) -> None:
    episode = await record_episode(app_db, days=2)
    app = create_app(app_db, load_models=False)
    async with started(app, size=LARGE) as pilot:
        app.open_episodes()
        await wait_until(pilot, lambda: isinstance(app.screen, EpisodesScreen), "the episode list")
        screen = app.screen
        assert isinstance(screen, EpisodesScreen)
        await wait_until(pilot, lambda: bool(screen.query("#episodes")), "its table")
        table = screen.table
        await wait_until(pilot, lambda: table.row_count == 1 and table.virtual_size.width > 0, "its row")
        wide = line_with(" finished ", screen_text(app))
        assert "a=baseline:weather b=baseline:cost-plus" in wide, "one line where it fits"
        assert re.search(
            rf"^ +{episode} +lemonade +3 +finished +4 +20\d\d-\d\d-\d\d \d\d:\d\d:\d\d ", wide
        ), wide
        assert table.max_scroll_x == 0

        await pilot.resize_terminal(*SMALL)
        await wait_until(pilot, lambda: table.size.width <= SMALL[0], "the list at 80 columns")
        narrow_second_line = re.compile(r"^ +\d\d:\d\d +b=baseline:cost-plus +b=", re.MULTILINE)
        await wait_until(pilot, lambda: bool(narrow_second_line.search(screen_text(app))), "a seat a line")
        await wait_until(pilot, lambda: table.max_scroll_x == 0, "every column in view")
        first = line_with(" finished ", screen_text(app))
        second = screen_text(app).splitlines()[screen_text(app).splitlines().index(first) + 1]
        assert "a=baseline:weather" in first and "b=baseline:cost-plus" in second, (first, second)
        assert re.search(rf"^ +{episode} +lemonade +3 +finished +4 +\d\d-\d\d +a=", first), first
        assert re.search(r"^ +\d\d:\d\d +b=", second), second
        assert re.search(r"a=-?\d+\.\d\d", first) and re.search(r"b=-?\d+\.\d\d", second), (first, second)
