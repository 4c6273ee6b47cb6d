"""The home screen keeps each game's set-up: for the session, and the last one started for the next."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, OptionList, Select

from arena.app import create_app
from arena.app.app import ArenaApp
from arena.app.screens.home import HomeScreen
from arena.app.screens.match import MatchScreen
from arena.app.setup_memory import Setup, SetupMemory, setups_path
from tests.support.app_driving import choose_seat, pick_game, started, wait_until

SIZES = ((80, 24), (160, 48))


def home(app: ArenaApp) -> HomeScreen:
    """The home screen (the bottom of the stack)."""
    screen = app.screen_stack[0]
    assert isinstance(screen, HomeScreen)
    return screen


def game_shown(app: ArenaApp) -> str:
    """The game the home screen shows."""
    definition = home(app).definition
    assert definition is not None
    return definition.name


async def type_option(pilot: Any, app: ArenaApp, name: str, value: str) -> None:
    """Replace the text of the home screen's option ``name`` with ``value`` from the keyboard."""
    screen = home(app)
    field = screen.query_one(f"#opt-{screen._option_names.index(name)}", Input)
    field.focus()
    await pilot.pause()
    await pilot.press("end", *["backspace"] * len(field.value), *value)
    await wait_until(pilot, lambda: screen.draft is not None and screen.draft.options[name] == value, name)


def shown_setup(app: ArenaApp) -> tuple[dict[str, str], dict[str, str]]:
    """The seats and options the home screen's fields show now."""
    screen = home(app)
    seats = {
        seat: str(screen.query_one(f"#seat-select-{index}", Select).value)
        for index, seat in enumerate(screen._seat_order)
    }
    options = {}
    for index, name in enumerate(screen._option_names):
        widget = screen.query_one(f"#opt-{index}")
        options[name] = str(widget.value)  # type: ignore[attr-defined]
    return seats, options


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_a_games_set_up_survives_a_visit_to_other_games(app_db: Path, size: tuple[int, int]) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=size) as pilot:
        await pick_game(pilot, app, "lemonade")
        await choose_seat(pilot, app, 0, "human")
        await type_option(pilot, app, "days", "3")
        await pick_game(pilot, app, "bargain")
        await choose_seat(pilot, app, 1, "baseline:bluffing")
        await pick_game(pilot, app, "paperclip")
        await pick_game(pilot, app, "lemonade")
        seats, options = shown_setup(app)
        assert seats["a"] == "human" and options["days"] == "3"
        draft = home(app).draft
        assert draft is not None and draft.seats["a"] == "human" and draft.options["days"] == "3"
        await pick_game(pilot, app, "bargain")
        assert shown_setup(app)[0]["buyer"] == "baseline:bluffing"
    # nothing was started: nothing is written for the next session
    assert not setups_path(app_db).exists()  # type: ignore[union-attr]


async def test_the_set_up_started_last_opens_the_next_app_on_that_database(app_db: Path) -> None:
    first = create_app(app_db, load_models=False)
    async with started(first, size=(160, 48)) as pilot:
        await pick_game(pilot, first, "lemonade")
        await choose_seat(pilot, first, 0, "baseline:random")
        await type_option(pilot, first, "days", "3")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(first.screen, MatchScreen), "the match")
        await wait_until(pilot, lambda: not first.matches.running(), "the match to end")

    second = create_app(app_db, load_models=False)
    async with started(second, size=(80, 24)) as pilot:
        assert game_shown(second) == "lemonade"
        seats, options = shown_setup(second)
        assert seats["a"] == "baseline:random" and options["days"] == "3"
        # the second app starts a bargain: the file keeps the first app's lemonade too
        await pick_game(pilot, second, "bargain")
        await choose_seat(pilot, second, 1, "baseline:pushover")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(second.screen, MatchScreen), "the bargain")
        await wait_until(pilot, lambda: not second.matches.running(), "the bargain to end")

    third = create_app(app_db, load_models=False)
    async with started(third, size=(80, 24)) as pilot:
        games = third.screen.query_one("#games", OptionList)
        assert game_shown(third) == "bargain", "the game last started is the one shown"
        assert games.get_option_at_index(games.highlighted or 0).id == "bargain"
        assert shown_setup(third)[0]["buyer"] == "baseline:pushover"
        await pick_game(pilot, third, "lemonade")
        assert shown_setup(third)[1]["days"] == "3"

    other = create_app(app_db.with_name("other.db"), load_models=False)
    async with started(other, size=(80, 24)):
        assert game_shown(other) != "bargain", "another database has its own set-ups"
        assert shown_setup(other)[1].get("days") != "3"


def test_a_kept_spec_no_list_offers_comes_back_as_typed(tmp_path: Path) -> None:
    memory = SetupMemory(setups_path(tmp_path / "arena.db"))
    served = "openai-compat:gemma@http://127.0.0.1:8093/v1"
    memory.used("bargain", Setup(seats={"seller": served, "buyer": "no such:spec:at all"}))
    app_db = tmp_path / "arena.db"
    app = create_app(app_db, load_models=False)
    try:
        kept = app.setups.recall("bargain")
    finally:
        app.store.close()
    assert kept is not None and kept.seats["seller"] == served

    from arena.app.home_data import MatchDraft, seat_options
    from arena.app.model_catalog import ModelCatalog
    from arena.plugins.games import get_game

    definition = get_game("bargain")
    draft = MatchDraft(definition)
    choices = seat_options(definition, ModelCatalog(loaded=True))
    draft.restore(kept, choices)
    assert draft.seats["seller"] == served and any(c.spec == served for c in choices)
    assert "buyer" not in draft.seats, "a spec that no longer parses is dropped"


def test_an_unreadable_file_is_no_set_up_and_a_write_keeps_other_games(tmp_path: Path) -> None:
    path = setups_path(tmp_path / "arena.db")
    assert path == tmp_path / "arena.setups.json"
    path.write_text("{not json", encoding="utf-8")
    memory = SetupMemory(path)
    assert memory.recall("lemonade") is None and memory.last_game() is None
    memory.used("lemonade", Setup(options={"days": "3"}))
    SetupMemory(path).used("bargain", Setup(seed="7", seed_given=True))
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert stored["last_game"] == "bargain"
    assert stored["games"]["lemonade"]["options"] == {"days": "3"}
    assert SetupMemory(path).recall("bargain") == Setup(seed="7", seed_given=True)
    assert list(tmp_path.glob("*.tmp")) == []
