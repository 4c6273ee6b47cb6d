"""The app's set-up refuses a catalogue game the library cannot play as set, before an episode exists.

Pilot at 120x40 on a real SQLite file: goofspiel set to 5 turns of 3 cards (each value alone is
fine; the library refuses the pair when the game starts) is started with the keyboard; the
reason shows under the Start button in one line and the store holds no episode.
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from arena.app import create_app
from arena.app.screens.home import HomeScreen
from arena.store.database import Store
from tests.support.app_driving import choose_seat, pick_game, render_plain, started, wait_until

GAME = "openspiel:goofspiel"


async def test_options_the_library_refuses_are_one_line_under_start_and_nothing_is_stored(
    app_db: Path,
) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app) as pilot:
        await pick_game(pilot, app, GAME)
        home = app.screen
        assert isinstance(home, HomeScreen) and home.definition is not None and home.draft is not None
        draft = home.draft
        names = [option.name for option in home.definition.options]
        for name, value in (("num_cards", "3"), ("num_turns", "5")):
            field = home.query_one(f"#opt-{names.index(name)}", Input)
            field.focus()
            await pilot.pause()
            field.value = value
            await wait_until(pilot, lambda: draft.options[name] == value, f"{name} typed")  # noqa: B023
        await choose_seat(pilot, app, 0, "baseline:random")
        await choose_seat(pilot, app, 1, "baseline:random")
        await pilot.press("ctrl+s")
        line = app.screen.query_one("#start-error", Static)
        await wait_until(pilot, lambda: bool(line.display), "the reason under Start")
        shown = render_plain(line.render()).strip()
        assert shown == (
            "OpenSpiel cannot play goofspiel with these parameters: num_turns_ <= num_cards_"
            " (num_turns_ = 5, num_cards_ = 3)"
        )
        assert not app.matches.matches
    store = Store(app_db)
    try:
        assert store.list_episodes() == []
    finally:
        store.close()
