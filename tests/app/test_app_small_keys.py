"""Keys a newcomer tries first: ←/→ in a yes/no question, Enter on the session's list at once."""

from __future__ import annotations

from pathlib import Path

from arena.app import create_app
from arena.app.screens.home import HomeScreen
from arena.app.screens.match import MatchScreen
from arena.app.screens.modals import ConfirmScreen
from arena.app.widgets.home_parts import SessionList
from arena.engine.match import MatchConfig
from tests.support.app_driving import started, wait_until


async def test_left_and_right_move_between_a_questions_buttons(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    answers: list[bool | None] = []
    async with started(app, size=(80, 24)) as pilot:
        app.push_screen(ConfirmScreen("quit?"), answers.append)
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("left")
        assert app.focused is not None and app.focused.id == "confirm-yes"
        await pilot.press("right", "left", "enter")
        await wait_until(pilot, lambda: bool(answers), "the answer")
    assert answers == [True]


async def test_enter_on_the_session_list_opens_the_newest_match_at_once(app_db: Path) -> None:
    app = create_app(app_db, load_models=False, step_delay=0.5)
    async with started(app, size=(80, 24)) as pilot:
        seats = {"a": "baseline:weather", "b": "baseline:cost-plus"}
        app.start_match(MatchConfig(game="lemonade", seats=seats, seed=1), show=False)
        home = app.screen
        assert isinstance(home, HomeScreen)
        session = home.query_one(SessionList)
        await wait_until(pilot, lambda: session.option_count == 1 and session.can_focus, "the match listed")
        session.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MatchScreen), "the match opened by Enter")


async def test_the_seed_field_s_secret_state_is_not_drawn_as_an_error(app_db: Path) -> None:
    from textual.widgets import Input

    from tests.support.app_driving import choose_seat, pick_game

    app = create_app(app_db, load_models=False)
    async with started(app, size=(80, 24)) as pilot:
        await pick_game(pilot, app, "bargain")
        await choose_seat(pilot, app, 0, "human")
        seed = app.screen.query_one("#opt-seed", Input)
        await wait_until(pilot, lambda: seed.placeholder.startswith("secret"), "the secret seed shown")
        seed.focus()
        await pilot.press("tab")  # leaving the field validates it
        await pilot.pause()
        assert not seed.has_class("-invalid"), "blank is the secret seed, not a mistake"
