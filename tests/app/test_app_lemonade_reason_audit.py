"""The replay screen shows the lemonade reason audit in the full view, the claim text literally."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from arena.app import create_app
from arena.app.screens.replay import ReplayScreen
from arena.contract.player import Decision
from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from games.lemonade.rules import LemonadeDecision
from tests.support.app_driving import render_plain, started, wait_until
from tests.support.scripted import ScriptedPlayer

REASON = "[bold red]Yesterday I sold 999 cups[/bold red]"


async def test_the_replay_board_shows_false_claims_and_their_text_literally(app_db: Path) -> None:
    liar = ScriptedPlayer([Decision(LemonadeDecision(price=3.0, produce=20, reason=REASON), REASON)])
    store = Store(app_db)
    try:
        config = MatchConfig("lemonade", {"a": "test:scripted", "b": "baseline:weather"}, options={"days": 3})
        outcome = await play_match(config, store, players={"a": liar})
    finally:
        store.close()
    app = create_app(app_db, replay=outcome.episode_id, load_models=False)
    async with started(app, size=(160, 50)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay screen")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("right", "right")
        board = render_plain(screen.query_one("#replay-board", Static).content)
        assert "a: 2 figures checked, 2 false" in board
        assert "FALSE: sold yesterday (day 1): said 999, was" in board
        assert f'"{REASON}"' in board  # the markup is shown, not applied
        assert "earlier: day 1 FALSE: sold yesterday (before day 1)" in board
        await pilot.press("v")
        assert "reason audit" not in render_plain(screen.query_one("#replay-board", Static).content)
