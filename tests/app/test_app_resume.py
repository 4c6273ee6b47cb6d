"""Resuming an interrupted episode from the app's episode list (issue 24, item 13); where it is saved (12)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from arena.app import create_app
from arena.app.screens.episodes import EpisodesScreen
from arena.app.screens.match import MatchScreen
from arena.app.screens.modals import TextScreen
from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from tests.support.app_driving import episode_list_ready, render_plain, started, wait_until

SEATS = {"a": "baseline:random", "b": "baseline:weather"}


async def played(db: Path, keep_steps: int | None = None) -> int:
    """A lemonade episode of 8 days; cut back to ``keep_steps`` and aborted, as a crash leaves one."""
    store = Store(db)
    try:
        config = MatchConfig(game="lemonade", seats=SEATS, seed=4, options={"days": 8})
        outcome = await play_match(config, store)
        assert outcome.episode_id is not None
        if keep_steps is not None:
            store.conn.execute(
                "DELETE FROM turns WHERE episode_id=? AND step>=?", (outcome.episode_id, keep_steps)
            )
            store.set_status(outcome.episode_id, "aborted", "process ended while the episode was running")
        return outcome.episode_id
    finally:
        store.close()


def outcome_of(db: Path, episode_id: int) -> tuple[Any, ...]:
    store = Store(db)
    try:
        episode = store.episode(episode_id)
        assert episode is not None
        seats = [(s["seat"], s["score"], s["metrics"]) for s in store.seats(episode_id)]
        turns = [(t["step"], t["seat"], t["action"]) for t in store.raw_turns(episode_id)]
        return episode["status"], seats, turns
    finally:
        store.close()


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
async def test_r_in_the_episode_list_resumes_an_interrupted_episode(
    app_db: Path, size: tuple[int, int]
) -> None:
    whole = await played(app_db)
    cut = await played(app_db, keep_steps=3)
    app = create_app(app_db, open_replay=True, load_models=False, step_delay=0.0)
    async with app.run_test(size=size) as pilot:
        await episode_list_ready(pilot, app)
        await pilot.press("r")  # the newest, the interrupted one, is under the cursor
        await wait_until(pilot, lambda: isinstance(app.screen, MatchScreen), "the match screen")
        screen = app.screen
        assert isinstance(screen, MatchScreen)
        await wait_until(pilot, lambda: screen.match.data.over, "the end of the episode")
        data = screen.match.data
        assert data.status == "finished" and data.episode_id == cut
        assert len(data.history) == 16, "the recorded days are in the history too"
        await pilot.press("escape")
    assert outcome_of(app_db, cut) == outcome_of(app_db, whole)


async def test_an_episode_that_cannot_go_on_says_why(app_db: Path) -> None:
    await played(app_db)
    app = create_app(app_db, open_replay=True, load_models=False, step_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await episode_list_ready(pilot, app)
        await pilot.press("r")
        await wait_until(pilot, lambda: bool(app._notifications), "a notification")
        messages = [note.message for note in app._notifications]
        assert messages == ["episode 1 cannot be resumed: it has finished"]
        assert isinstance(app.screen, EpisodesScreen)


async def test_the_help_names_the_database_episodes_are_saved_in(app_db: Path) -> None:
    # Issue 24, item 12: the app says which file it writes, as every command that writes does.
    app = create_app(app_db, load_models=False)
    async with started(app, size=(80, 24)) as pilot:
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, TextScreen), "the help")
        text = " ".join(render_plain(app.screen.query_one(Static).content, width=400).split())
        assert f"Episodes are saved in {app_db} (--db or $ARENA_DB choose another file)." in text
