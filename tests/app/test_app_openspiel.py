"""OpenSpiel's liar's dice in the app (Pilot, 100x30): a person picks each move from the legal ones.

The home screen sets up the person against a random baseline; every move is chosen in the real
form with the keys a person would press. Before each move the board shows the library's
information-state string for the person's player, their own moves and the legal moves; it
never shows the other player's roll.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.widgets import Select, Static

from arena.app import create_app
from arena.app.screens.replay import ReplayScreen
from arena.app.widgets.choice_set import ChoiceSet
from arena.app.widgets.human_form import HumanForm
from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from games.openspiel_catalogue.models import OpenSpielObservation
from games.openspiel_catalogue.state import OpenSpielState
from tests.support.app_driving import (
    choose_seat,
    pick_game,
    pick_option,
    render_plain,
    screen_text,
    started,
    wait_until,
)
from tests.support.episodes import stored_turns

GAME = "openspiel:liars_dice"


async def choose_move(pilot: Any, form: HumanForm, move: str) -> None:
    """Choose ``move`` in the form's move field: a row of choices by arrows, a list by :func:`pick_option`."""
    index = next(i for i, spec in enumerate(form.form.fields) if spec.name == "move")
    control = form.query_one(f"#field-{index}")
    form.screen.set_focus(control)
    await pilot.pause()
    if isinstance(control, ChoiceSet):
        while form.form.entries.get("move") != move:
            await pilot.press("right")
    else:
        assert isinstance(control, Select)
        await pick_option(pilot, control, move)
    await wait_until(pilot, lambda: form.form.entries.get("move") == move, f"move chosen as {move}")


def plan(observation: OpenSpielObservation) -> str:
    """Call 'Liar' once a bid claims two or more dice; otherwise make the lowest legal bid."""
    bids = observation.view.split()[1:]  # the own roll, then the bids
    last_quantity = int(bids[-1].split("-")[0]) if bids else 0
    return "Liar" if "Liar" in observation.legal_moves and last_quantity >= 2 else observation.legal_moves[0]


def form_or_end(app: Any, after: object) -> Callable[[], bool]:
    """True once a form for a turn other than ``after`` is open, or the match is over."""

    def ready() -> bool:
        forms = app.screen.query(HumanForm)
        if forms and forms.first().turn is not after and not forms.first().turn.done:
            return True
        return bool(app.matches.matches) and bool(app.matches.matches[0].data.over)

    return ready


def handed_over(form: HumanForm) -> Callable[[], bool]:
    """True once the form's move has gone to the runner."""
    turn = form.turn
    return lambda: bool(turn.done)


async def test_a_person_plays_liars_dice_in_the_app(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    chosen: list[str] = []
    async with started(app, size=(100, 30)) as pilot:
        await pick_game(pilot, app, GAME)
        await choose_seat(pilot, app, 0, "human")
        await choose_seat(pilot, app, 1, "baseline:random")
        await pilot.press("ctrl+s")
        match = None
        after: object = None
        while True:
            await wait_until(pilot, form_or_end(app, after), "the person's next form or the end")
            match = app.matches.matches[0]
            if match.data.over:
                break
            form = app.screen.query_one(HumanForm)
            observation = form.turn.request.observation
            assert isinstance(observation, OpenSpielObservation)
            shown = screen_text(app)
            assert "the library's information state string:" in shown
            for line in observation.view.splitlines():
                assert line in shown, line
            assert "legal moves: " + ", ".join(observation.legal_moves) in shown
            state = match.data.game
            assert isinstance(state, OpenSpielState)
            assert str(state.spiel) not in shown, "the whole state holds the other player's roll"
            move = plan(observation)
            await choose_move(pilot, form, move)
            after = form.turn
            chosen.append(move)
            await pilot.press("ctrl+s")
            await wait_until(pilot, handed_over(form), "the move handed over")
        episode_id = match.data.episode_id
    store = Store(app_db)
    try:
        turns = stored_turns(store, episode_id or 0)
        episode = store.episode(episode_id or 0)
    finally:
        store.close()
    assert episode is not None and episode["status"] == "finished"
    mine = [turn for turn in turns if turn["seat"] == "p0"]
    assert [turn["action"]["move"] for turn in mine] == chosen and chosen
    assert all(turn["action"]["move"] in turn["observation"]["legal_moves"] for turn in mine)


def says(read: Callable[[], str], text: str) -> Callable[[], bool]:
    """True once ``read()`` holds ``text``."""
    return lambda: text in read()


async def test_a_kuhn_poker_replay_shows_each_seat_only_its_own_card(app_db: Path) -> None:
    store = Store(app_db)
    seats = {"p0": "baseline:random", "p1": "baseline:random", "p2": "baseline:random"}
    outcome = await play_match(
        MatchConfig("openspiel:kuhn_poker", seats, seed=2, options={"players": 3}), store
    )
    episode_id = outcome.episode_id
    assert episode_id is not None
    turns = stored_turns(store, episode_id)
    store.close()
    first = turns[0]["state"]["state"]  # the library's whole state after step 1: every card dealt
    app = create_app(app_db, replay=episode_id, load_models=False)
    async with started(app, size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay screen")
        screen = app.screen

        def board() -> str:
            return render_plain(screen.query_one("#replay-board", Static).content, width=96)

        def head() -> str:
            return render_plain(screen.query_one("#replay-head", Static).content, width=200)

        await pilot.press("right")
        await wait_until(pilot, lambda: "after step 1/" in head(), "step 1")
        assert first.split()[0] in board() and "full view" in head()
        for seat in ("p0", "p1", "p2"):
            await pilot.press("v")
            await wait_until(pilot, says(head, f"seat {seat}'s view"), seat)
            seen = board()
            view = turns[0]["observation"]["view"] if turns[0]["seat"] == seat else None
            assert f"{seat} (player {seat[1]}), the library's information state string:" in seen
            if view is not None:
                assert view in seen
            cards = first.split()[:3]
            assert " ".join(cards) not in seen, "the deal of every seat stays out of a seat's view"
