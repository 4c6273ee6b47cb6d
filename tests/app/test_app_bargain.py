"""Bargaining with a person in the app: own number only, messages pane, ladder, replay views."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.widgets import DataTable, RichLog, Static

import games.bargain.game as bargain_game
from arena.app import create_app
from arena.app.app import ArenaApp
from arena.app.screens.match import MatchScreen
from arena.app.screens.replay import ReplayScreen
from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from games.bargain.world import Deal, draw_deal
from tests.support.app_driving import (
    bargain_form,
    burst,
    choose_seat,
    next_form,
    pick_game,
    render_plain,
    screen_text,
    started,
    wait_until,
)
from tests.support.episodes import stored_turns

MARKUP_MESSAGE = "[bold]x[/] [@click=app.quit]"
SENTINEL = 987_654
"""The other side's private number in the audit: no price (at most 200), round or message holds it."""


def log_text(log: RichLog) -> str:
    """Everything a RichLog holds, one line per written line."""
    return "\n".join(strip.text for strip in log.lines)


class Witness:
    """Everything a person at the seller's seat could read, collected at each look."""

    def __init__(self, app: ArenaApp) -> None:
        self.app = app
        self.seen: list[str] = []

    def look(self) -> str:
        """The screen as shown, plus the whole board, messages and history (scrolled or not)."""
        screen = self.app.screen
        board = render_plain(screen.query_one("#board", Static).content)
        parts = [screen_text(self.app), self.app.export_screenshot(), board]
        parts.append(log_text(screen.query_one("#messages", RichLog)))
        history: DataTable[Text] = screen.query_one("#history", DataTable)
        parts += [" ".join(cell.plain for cell in history.get_row_at(i)) for i in range(history.row_count)]
        self.seen += parts
        return board


async def test_a_person_bargains_through_the_form_and_sees_only_their_number(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await bargain_form(pilot, app, "baseline:bluffing")
        match = app.matches.matches[0]
        game: Any = match.data.game
        cost, value = game.deal.cost, game.deal.value
        witness = Witness(app)
        board = witness.look()
        assert "what seat seller sees" in board and f"your cost is {cost}" in board
        await pilot.press("tab", "6", "1", "tab", *MARKUP_MESSAGE, "enter")
        await next_form(pilot, app, 2)
        board = witness.look()
        first_bid = game.moves[1].price
        assert "61" in board and str(first_bid) in board, "the ladder shows both offers so far"
        messages = log_text(app.screen.query_one("#messages", RichLog))
        assert MARKUP_MESSAGE in messages, "the message is shown literally, markup and all"
        assert "seller (you)  offer 61" in messages and f"buyer  offer {first_bid}" in messages
        app.open_replay(match.data.episode_id or 0)
        await pilot.pause()
        assert isinstance(app.screen, MatchScreen), "no replay (full view) while the person still plays"
        assert not app.screen.check_action("replay", ())
        await pilot.press("tab", "5", "5", "tab", *"second try", "enter")
        await next_form(pilot, app, 4)
        board = witness.look()
        assert "55" in board and str(game.moves[3].price) in board, "the ladder moved on"
        assert "second try" in log_text(app.screen.query_one("#messages", RichLog))
        during = "\n".join(witness.seen)
        burst(app, "right", "enter")  # the cursor starts on the action
        await wait_until(pilot, lambda: match.data.over, "the deal")
        assert app.is_running and app.return_code is None
        await wait_until(
            pilot, lambda: f"buyer value {value}" in witness.look(), "both numbers once it is over"
        )
    store = Store(app_db)
    episode = store.list_episodes()[0]
    turns = stored_turns(store, episode["id"])
    store.close()
    assert episode["status"] == "finished"
    assert [t["action"]["action"] for t in turns if t["seat"] == "seller"] == ["offer", "offer", "accept"]
    assert turns[0]["action"]["message"] == MARKUP_MESSAGE and turns[2]["action"]["price"] == 55
    state = turns[-1]["state"]
    assert (state["cost"], state["value"]) == (cost, value)
    buyer_reasons = {t["reason"] for t in turns if t["seat"] == "buyer" and t["reason"]}
    assert buyer_reasons, "the bluffing buyer states its reasons"
    for reason in buyer_reasons:
        assert reason not in during, "the other side's private reason never reached the seller"
    assert f"value {value}" not in during and "buyer value" not in during and "zone" not in during


async def test_replay_shows_both_numbers_and_each_seats_view(app_db: Path) -> None:
    store = Store(app_db)
    config = MatchConfig(
        game="bargain", seats={"seller": "baseline:honest", "buyer": "baseline:bluffing"}, seed=5
    )
    outcome = await play_match(config, store)
    episode_id = outcome.episode_id
    assert episode_id is not None
    state = stored_turns(store, episode_id)[-1]["state"]
    store.close()
    cost, value = state["cost"], state["value"]
    app = create_app(app_db, replay=episode_id, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay screen")
        screen = app.screen
        await pilot.press("end")

        def board() -> str:
            return render_plain(screen.query_one("#replay-board", Static).content)

        assert f"seller cost {cost}" in board() and f"buyer value {value}" in board()
        await pilot.press("v")
        assert "seat seller's view" in render_plain(screen.query_one("#replay-head", Static).content)
        assert f"your cost is {cost}" in board() and "buyer value" not in board()
        await pilot.press("v")
        assert f"your value is {value}" in board() and "seller cost" not in board()
        await pilot.press("v")
        assert f"buyer value {value}" in board()


async def test_the_screen_never_shows_a_person_the_other_number_or_reasons(
    app_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The secret auditor on the app: the seller's cost is a sentinel, a person plays the buyer.
    monkeypatch.setattr(bargain_game, "draw_deal", lambda seed: Deal(SENTINEL, draw_deal(seed).value))
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await pick_game(pilot, app, "bargain")
        await choose_seat(pilot, app, 0, "baseline:bluffing")
        await choose_seat(pilot, app, 1, "human")
        await pilot.press("ctrl+s")
        match = app.matches.matches[0]
        witness = Witness(app)
        for step in (1, 3, 5, 7):
            await next_form(pilot, app, step)
            assert "your value is" in witness.look()
            await pilot.press("tab", "5", "tab", *"low", "enter")
        await wait_until(pilot, lambda: match.data.over, "no deal after eight rounds")
        during = "\n".join(witness.seen)
        await wait_until(pilot, lambda: f"seller cost {SENTINEL}" in witness.look(), "the full view")
    store = Store(app_db)
    turns = stored_turns(store, store.list_episodes()[0]["id"])
    store.close()
    assert str(SENTINEL) not in during
    seller_reasons = {t["reason"] for t in turns if t["seat"] == "seller" and t["reason"]}
    assert seller_reasons and len(turns) == 8
    for reason in seller_reasons:
        assert reason not in during, "the other side's private reason reached the buyer"
    assert "offer 200" in during, "the seller's public moves are shown"
