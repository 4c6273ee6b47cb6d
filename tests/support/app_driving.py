"""Helpers for the app tests: real engine, real SQLite file, no mocks of Arena code."""

from __future__ import annotations

import io
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from textual import events
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import OptionList, Select
from textual.widgets._select import SelectOverlay

from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store

WAIT_STEPS = 800
"""How many repaints a test compares before taking the screen as it is (``test_screens``)."""

GIVE_UP_SECONDS = 600.0
"""When a test stops waiting for the app: a guard against a hang, not a timing. Ten minutes is
far beyond any step on a loaded machine (a count of 800 short pauses, used before, came to
about 16 s when the app was quick and could run out on a machine busy with other work)."""


def _pilot_waits_as_long_as_our_guard() -> None:
    """Give Textual's own wait for pending messages the suite's guard instead of its 30 s.

    ``Pilot.press`` and ``Pilot.pause`` first wait until every widget has handled what was
    queued before them, and fail with ``WaitForScreenTimeout`` after 30 s: a wall-clock limit
    that a machine loaded by other work can pass with nothing wrong (a paperclip form test at
    80x24 failed so at load 20). The tests wait for states, with one guard against a hang.
    """
    original = Pilot._wait_for_screen
    if getattr(original, "guard", None) == GIVE_UP_SECONDS:
        return

    async def patient(self: Pilot[Any], timeout: float = GIVE_UP_SECONDS) -> bool:
        return await original(self, max(timeout, GIVE_UP_SECONDS))

    patient.guard = GIVE_UP_SECONDS  # type: ignore[attr-defined]
    Pilot._wait_for_screen = patient  # type: ignore[method-assign]


_pilot_waits_as_long_as_our_guard()


def render_plain(renderable: object, width: int = 200) -> str:
    """What ``renderable`` shows, as plain text."""
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


async def wait_until(pilot: Pilot[Any], condition: Callable[[], bool], what: str) -> None:
    """Let the app run until ``condition`` holds (failing only after :data:`GIVE_UP_SECONDS`)."""
    give_up = time.monotonic() + GIVE_UP_SECONDS
    while not condition():
        if time.monotonic() > give_up:
            raise AssertionError(f"gave up waiting for: {what}")
        await pilot.pause(0.02)


async def episode_list_ready(pilot: Pilot[Any], app: Any) -> Any:
    """Wait for the episode list with its rows and the cursor in its table; return the screen.

    The screen is on top before it has mounted and filled its table: a key pressed then (``r``,
    enter) finds no episode under the cursor and is lost, and the test waits for nothing.
    """
    from arena.app.screens.episodes import EpisodesScreen

    await wait_until(pilot, lambda: isinstance(app.screen, EpisodesScreen), "the episode list")
    screen = app.screen
    await wait_until(
        pilot, lambda: screen.table.row_count > 0 and screen.focused is screen.table, "the listed episodes"
    )
    return screen


def home_set_up(app: Any) -> bool:
    """True once the home screen (wherever it is in the stack) shows a game's seats and options."""
    from arena.app.screens.home import HomeScreen

    home = app.screen_stack[0] if app.screen_stack else None
    return isinstance(home, HomeScreen) and home.definition is not None and bool(home.query("#seats Select"))


@asynccontextmanager
async def started(app: Any, size: tuple[int, int] = (120, 40)) -> AsyncIterator[Pilot[Any]]:
    """Run ``app`` headless; yields once its home screen has set up the first game.

    The app paints the home screen's frame first and loads the games after it, so a test
    that goes on at once would find no seats yet.
    """
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: home_set_up(app), "the home screen's set-up")
        yield pilot


async def record_episode(db_path: Path, *, days: int = 6, seed: int = 3) -> int:
    """Play a real baseline lemonade episode into ``db_path``; returns its id."""
    store = Store(db_path)
    try:
        config = MatchConfig(
            game="lemonade",
            seats={"a": "baseline:weather", "b": "baseline:cost-plus"},
            seed=seed,
            options={"days": days},
        )
        outcome = await play_match(config, store)
    finally:
        store.close()
    assert outcome.episode_id is not None
    return outcome.episode_id


async def pick_game(pilot: Pilot[Any], app: Any, name: str) -> None:
    """Highlight game ``name`` in the home screen's list (keyboard only) and wait for its seats.

    The arrow keys go in at once, as a held key repeats them: the screen sets up the game the
    highlight stops on, not each one passed (one set-up is ~0.1 s of a core, a TextArena
    game's rules start an episode).
    """
    games = app.screen.query_one("#games", OptionList)
    games.focus()
    await pilot.pause()
    names = [games.get_option_at_index(index).id for index in range(games.option_count)]
    steps = names.index(name) - (games.highlighted or 0)
    burst(app, *["down" if steps > 0 else "up"] * abs(steps))
    await wait_until(pilot, lambda: game_set_up(app, name), f"game {name}")


def game_set_up(app: Any, name: str) -> bool:
    """True once the home screen on top shows game ``name``'s whole set-up, its seats included.

    The name changes before the seats are rebuilt, and the old game's Selects stay until
    then: the set-up must have settled too.
    """
    screen = app.screen
    definition = screen.definition
    return (
        definition is not None
        and definition.name == name
        and not screen._settling()
        and bool(screen.query(Select))
    )


async def pick_option(pilot: Pilot[Any], control: Select[Any], value: object) -> None:
    """Open the focused list ``control`` and walk it with the arrow keys to ``value``, then take it.

    Not by typing its name: Textual's list forgets typed letters 0.7 s after the last one,
    which a loaded machine can take between two keys, and then "dog" finds what "g" starts.
    """
    await pilot.press("down")  # opens the list (Enter in a person's form submits what it shows)
    overlay = control.query_one(SelectOverlay)
    await wait_until(pilot, lambda: control.expanded and overlay.highlighted is not None, "the list open")
    values = [option_value for _, option_value in control._options]  # the list's rows, in order
    if value not in values:
        raise AssertionError(f"{value!r} is not in the list")
    while overlay.highlighted != values.index(value):
        await pilot.press("down" if (overlay.highlighted or 0) < values.index(value) else "up")
    await pilot.press("enter")


async def choose_seat(pilot: Pilot[Any], app: Any, seat_index: int, spec: str) -> None:
    """Give seat ``seat_index`` to ``spec`` with the keyboard (:func:`pick_option`)."""
    select = app.screen.query_one(f"#seat-select-{seat_index}", Select)
    select.focus()
    await pilot.pause()
    await pick_option(pilot, select, spec)
    await wait_until(pilot, lambda: select.value == spec, f"seat {seat_index} set to {spec}")


def burst(app: Any, *keys: str) -> None:
    """Queue ``keys`` at once, as a fast typist or a paste delivers them.

    ``Pilot.press`` waits for the app to go idle after every key, which hides any work
    the app defers; here the keys are all in the queue before the first is handled.
    """
    for key in keys:
        char = {"tab": "\t", "enter": "\r", "space": " "}.get(key, key if len(key) == 1 else None)
        event = events.Key(key, char)
        event.set_sender(app)
        app.post_message(event)


def screen_text(app: Any) -> str:
    """Every character the terminal shows now, as plain lines (Textual's own compositor)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def bargain_form(pilot: Pilot[Any], app: Any, buyer: str = "baseline:bluffing") -> Any:
    """Start a bargain from the home screen with a person as the seller; returns the first form."""
    from arena.app.widgets.human_form import HumanForm

    await pick_game(pilot, app, "bargain")
    await choose_seat(pilot, app, 0, "human")
    await choose_seat(pilot, app, 1, buyer)
    # A person's deal is secret unless a seed is typed: type 0, the deal these tests know.
    app.screen.query_one("#opt-seed").focus()
    await pilot.press("0")
    await wait_until(pilot, lambda: app.screen.draft.seed_value() == 0, "seed 0 typed")
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: bool(app.screen.query(HumanForm)), "the seller's form")
    return app.screen.query_one(HumanForm)


async def next_form(pilot: Pilot[Any], app: Any, steps: int) -> Any:
    """Wait until the first match has played ``steps`` steps and a person's new form is open."""
    from arena.app.widgets.human_form import HumanForm

    match = app.matches.matches[0]

    def ready() -> bool:
        forms = app.screen.query(HumanForm)
        return match.data.steps_done == steps and bool(forms) and not forms.first().turn.done

    await wait_until(pilot, ready, f"a new form after step {steps}")
    return await mounted_form(pilot, app)


async def mounted_form(pilot: Pilot[Any], app: Any) -> Any:
    """The open form once its fields are mounted (the form is in the DOM a moment before them)."""
    from arena.app.widgets.human_form import HumanForm

    await wait_until(
        pilot,
        lambda: bool(forms := app.screen.query(HumanForm)) and bool(forms.first().query("#field-0")),
        "the form's fields",
    )
    return app.screen.query_one(HumanForm)


def line_with(text: str, screen: str) -> str:
    """The one screen line that holds ``text`` (failing if none or several do)."""
    lines = [line for line in screen.splitlines() if text in line]
    assert len(lines) == 1, f"{text!r} on {len(lines)} lines of:\n{screen}"
    return lines[0]


def beside(title: str, value: str, screen: str) -> None:
    """``value`` follows ``title`` on one screen line: the field reads on its title's row."""
    pattern = re.compile(re.escape(title) + r" +" + re.escape(value))
    assert any(pattern.search(line) for line in screen.splitlines()), f"{title} {value} apart in:\n{screen}"


async def field_in_view(pilot: Any, app: Any, selector: str) -> None:
    """Focus the field ``selector`` (its screen scrolls it into view) and let the screen settle."""
    app.screen.query_one(selector).focus()
    await pilot.pause()
    await wait_until(pilot, lambda: in_view(app, selector), selector)


def in_view(app: Any, selector: str) -> bool:
    """True if the widget ``selector`` is wholly shown: on the screen, not clipped by a scrolled parent."""
    return wholly_visible(app, app.screen.query_one(selector))


def wholly_visible(app: Any, widget: Widget) -> bool:
    """True if ``widget`` is laid out, on the screen and not clipped by a scrolled parent."""
    placed = app.screen._compositor.visible_widgets.get(widget)
    if placed is None:
        return False
    region, clip = placed
    on_screen: bool = app.screen.region.contains_region(region)
    return region.area > 0 and clip.contains_region(region) and on_screen


async def open_tournament_board(
    pilot: Pilot[Any], app: Any, tournament_id: int, rows: int
) -> tuple[Any, Any]:
    """Open tournament ``tournament_id``'s screen; wait for its leaderboard's ``rows`` rows, laid out.

    Returns the screen and its leaderboard (``#t-board``).
    """
    from arena.app.screens.tournament import TournamentScreen

    app.open_tournament(tournament_id)
    await wait_until(pilot, lambda: isinstance(app.screen, TournamentScreen), "the tournament")
    screen = app.screen
    await wait_until(pilot, lambda: bool(screen.query("#t-board")), "its widgets")
    board = screen.query_one("#t-board")
    await wait_until(pilot, lambda: board.row_count == rows and board.size.width > 0, "the leaderboard")
    await pilot.pause()
    return screen, board
