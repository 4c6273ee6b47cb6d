"""Keys that must work everywhere do, whatever has focus; letters typed into a form stay text."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import Button, Input, OptionList, RichLog, Select, Static

from arena.app import create_app
from arena.app.screens.episodes import EpisodesScreen
from arena.app.screens.home import HomeScreen
from arena.app.screens.match import MatchScreen
from arena.app.screens.modals import ConfirmScreen, TextScreen
from arena.app.screens.tournament_setup import TournamentSetupScreen
from arena.app.widgets.choice_set import ChoiceSet
from arena.app.widgets.human_form import HumanForm
from arena.app.widgets.panels import ScoreChart, SeatPane
from arena.contract.player import Decision, DecisionRequest, Player
from arena.engine.match import MatchConfig
from arena.plugins.games import get_game
from games.bargain import BargainState
from games.bargain.rules import PRICE_MAX, BargainAction
from tests.support.app_driving import (
    bargain_form,
    burst,
    game_set_up,
    render_plain,
    screen_text,
    started,
    wait_until,
)
from tests.support.gamekit import new_lemonade


async def test_a_held_key_down_the_game_list_sets_up_where_it_stops_not_each_one_passed(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        home = app.screen
        assert isinstance(home, HomeScreen)
        games = home.query_one("#games", OptionList)
        names = [games.get_option_at_index(index).id for index in range(games.option_count)]
        games.focus()
        await pilot.pause()
        burst(app, *["down"] * 7, "up")  # as a held key repeats, and one back: all queued at once
        target = names[6]
        assert target is not None
        await wait_until(pilot, lambda: game_set_up(app, target), f"{target} set up")
        await pilot.pause()
        assert games.highlighted == 6 and home.draft is not None
        assert [row.id for row in home.query("#seats Select")] == [
            f"seat-select-{index}" for index in range(len(home.draft.seat_names()))
        ]
        assert home.draft.seat_names() == get_game(target).seats_for({})
        passed = names[1:6] + names[7:8]
        # A game the list passed on the way was set up only if the screen got to it before the
        # highlight moved on; the set-ups of all of them took ~0.1 s each.
        set_up = [name for name in passed if name is not None and app.setups.recall(name) is not None]
        assert len(set_up) < len(passed), set_up


async def test_home_keys_work_while_a_text_field_has_focus(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        seed = app.screen.query_one("#opt-seed", Input)
        seed.focus()
        await pilot.pause()
        before = seed.value
        await pilot.press("ctrl+t")
        assert isinstance(app.screen, HomeScreen), "no match yet: watching says so and stays home"
        assert seed.value == before, "the key was not typed into the field"
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: isinstance(app.screen, EpisodesScreen), "the episodes")


@pytest.mark.parametrize("key", ["ctrl+s", "ctrl+r"])
async def test_a_start_pressed_while_the_chosen_game_is_being_set_up_is_kept(app_db: Path, key: str) -> None:
    """Ctrl+S (or Ctrl+R) as soon as the new game's rules show, before its seats are mounted.

    The key used to find the seats unchosen and was dropped without a word (the browser
    test's second tab hit it); it now waits for the set-up and starts the game chosen.
    """
    app = create_app(app_db, load_models=False)
    async with started(app, size=(142, 44)) as pilot:
        app.screen.query_one("#games").focus()
        await pilot.pause()
        burst(app, "down")  # Lemonade stand -> Bargain
        while "seat seller" not in screen_text(app):  # a person sees the rules: the seats follow
            await asyncio.sleep(0.001)
        burst(app, key)
        if key == "ctrl+s":
            await wait_until(pilot, lambda: bool(app.matches.matches), "the match to start")
            assert [match.config.game for match in app.matches.matches] == ["bargain"]
            [match] = app.matches.matches
            shown = lambda: isinstance(app.screen, MatchScreen) and match.data.over  # noqa: E731
            await wait_until(pilot, shown, "its end")
        else:
            await wait_until(pilot, lambda: isinstance(app.screen, TournamentSetupScreen), "the set-up")
            await wait_until(pilot, lambda: bool(app.screen.query("#tf-error-seeds")), "its fields")
            setup, home = app.screen, app.screen_stack[0]
            assert isinstance(setup, TournamentSetupScreen) and isinstance(home, HomeScreen)
            draft = setup.draft
            assert draft is not None and home.draft is not None and draft.definition.name == "bargain"
            seated = list(dict.fromkeys(home.draft.seats.values()))
            assert seated and draft.players == seated, "the seats' players, not the first baselines"


async def test_letters_typed_with_the_submit_button_focused_open_nothing(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        form = await bargain_form(pilot, app)
        form.query_one("#form-submit", Button).focus()
        await pilot.pause()
        await pilot.press("i", "r", "n")
        assert isinstance(app.screen, MatchScreen), "no rules modal, no replay from letters"
        await pilot.press("f2")
        await wait_until(pilot, lambda: isinstance(app.screen, TextScreen), "the rules")
        rules = render_plain(app.screen.query_one(Static).content, width=400)
        assert "wins, draws and losses in tournaments" in rules and "higher gain than the other side" in rules
        await pilot.press("escape")
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, TextScreen), "the help")
        help_text = render_plain(app.screen.query_one(Static).content)
        assert "f2" in help_text.lower() and "Rules" in help_text
        assert "\ni " not in help_text, "the help lists only the keys that work"
        assert "Rematch" not in help_text, "rematch works only once the match is over"


async def test_the_home_rules_follow_the_options_typed(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        rules = app.screen.query_one("#game-rules", Static)
        assert "for 30 days" in render_plain(rules.content)
        days = app.screen.query_one("#opt-0", Input)
        days.focus()
        await pilot.pause()
        await pilot.press("end", *["backspace"] * len(days.value), "5")
        await wait_until(pilot, lambda: "for 5 days" in render_plain(rules.content), "the rules for 5 days")
        assert "30 days" not in render_plain(rules.content)


class GreedySeller(Player):
    """Always asks the highest price (more than any buyer's value)."""

    kind = "baseline"
    instant = True

    def __init__(self) -> None:
        self.spec = "test:greedy"

    async def decide(self, request: DecisionRequest) -> Decision:
        return Decision(action=BargainAction(action="offer", price=PRICE_MAX), reason="greedy")


async def test_accepting_a_losing_price_in_the_app_asks_first(app_db: Path) -> None:
    app = create_app(app_db, load_models=False, extra_players={"test:greedy": lambda seat: GreedySeller()})
    async with started(app, size=(120, 40)) as pilot:
        config = MatchConfig(game="bargain", seats={"seller": "test:greedy", "buyer": "human"}, seed=1)
        match = app.start_match(config)
        await wait_until(pilot, lambda: bool(app.screen.query(HumanForm)), "the buyer's form")
        game = match.runner.game
        assert isinstance(game, BargainState)
        value = game.secret("buyer")
        form = app.screen.query_one(HumanForm)
        form.query_one("#field-0", ChoiceSet).choose(1)  # accept
        await pilot.pause()
        form.action_submit()
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, ConfirmScreen) and bool(app.screen.query("#confirm-question")),
            "the question",
        )
        question = render_plain(app.screen.query_one("#confirm-question", Static).content)
        assert f"accepting {PRICE_MAX} loses you {PRICE_MAX - value}; go ahead?" in question
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, MatchScreen), "back to the form")
        assert match.data.steps_done == 1 and not match.data.over, "nothing was sent"
        form.action_submit()
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question again")
        await pilot.press("y")
        await wait_until(pilot, lambda: match.data.over, "the deal")
        assert match.data.results is not None


async def test_the_chart_is_titled_for_what_it_plots(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await bargain_form(pilot, app)
        chart = app.screen.query_one(ScoreChart)
        await wait_until(pilot, lambda: chart.border_title == "offers (asks and bids)", "the offers title")
        assert new_lemonade(0).definition.view.score_series_title == "cash by day"


async def test_seat_panes_wrap_their_reasons_again_when_the_terminal_narrows(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(160, 48)) as pilot:
        config = MatchConfig(
            game="lemonade",
            seats={"a": "baseline:weather", "b": "baseline:cost-plus"},
            seed=3,
            options={"days": 3},
        )
        match = app.start_match(config)
        await wait_until(pilot, lambda: match.data.over, "the match")
        await pilot.pause()
        log = app.screen.query_one(SeatPane).query_one(RichLog)
        wide = log.size.width
        await pilot.resize_terminal(100, 30)
        await wait_until(pilot, lambda: log.size.width < wide, "the narrower pane")
        await pilot.pause()
        widths = [strip.cell_length for strip in log.lines]
        assert widths and max(widths) <= log.scrollable_content_region.width, (widths, log.size)


async def test_rematch_and_swap_seats_from_the_results(app_db: Path) -> None:
    app = create_app(app_db, load_models=False, step_delay=0.0)
    async with started(app, size=(120, 40)) as pilot:
        seats = {"a": "baseline:weather", "b": "baseline:cost-plus"}
        first = app.start_match(MatchConfig(game="lemonade", seats=seats, seed=5, options={"days": 2}))
        await wait_until(pilot, lambda: first.data.over, "the first match")
        await pilot.press("m")
        await wait_until(pilot, lambda: len(app.matches.matches) == 2, "the rematch")
        again = app.matches.matches[1]
        assert (again.config.seats, again.config.seed, again.config.options) == (seats, 5, {"days": 2})
        await wait_until(pilot, lambda: again.data.over, "the rematch to end")
        assert again.data.results is not None and first.data.results is not None
        assert {s: r.score for s, r in again.data.results.items()} == {
            s: r.score for s, r in first.data.results.items()
        }, "same seed, same players: same result"
        await pilot.press("w")
        await wait_until(pilot, lambda: len(app.matches.matches) == 3, "the swapped match")
        swapped = app.matches.matches[2]
        assert swapped.config.seats == {"a": "baseline:cost-plus", "b": "baseline:weather"}
        assert swapped.config.seed == 5


async def test_a_seat_takes_a_typed_spec_not_in_the_list(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: bool(app.screen.query("#seat-typed")), "the typed-spec field")
        typed = app.screen.query_one("#seat-typed", Input)
        typed.focus()
        await pilot.press(*"c=openai:gpt-x", "enter")
        error = app.screen.query_one("#seat-typed-error", Static)
        assert "no seat 'c'" in render_plain(error.content)
        typed = app.screen.query_one("#seat-typed", Input)
        typed.value = "b=openai-compat:tiny@http://127.0.0.1:9/v1"
        typed.focus()
        await pilot.press("enter")
        screen = app.screen
        assert isinstance(screen, HomeScreen) and screen.draft is not None
        draft = screen.draft
        await wait_until(pilot, lambda: draft.seats["b"].startswith("openai-compat:"), "seat b typed")
        select = screen.query_one("#seat-select-1", Select)
        assert select.value == draft.seats["b"] == "openai-compat:tiny@http://127.0.0.1:9/v1"


async def test_a_held_write_the_database_refuses_is_reported_at_quit(
    app_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.engine.recorder import TURN_COLUMNS
    from arena.store import database
    from tests.support.episodes import turn_rows

    monkeypatch.setattr(database, "GROUP_SECONDS", 3600.0)  # held until the store closes
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await pilot.pause()
        app.store.add_turns(TURN_COLUMNS, turn_rows(episode_id=999, step=0), group=True)  # no such episode
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert "FOREIGN KEY" in app.close_error
