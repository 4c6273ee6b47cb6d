"""The app's episode list hides a running person's seed (played in another process) and refuses its replay."""

from __future__ import annotations

from pathlib import Path

from arena.app import create_app
from arena.app.app import ArenaApp
from arena.app.browse_data import COLUMNS
from arena.app.screens.episodes import EpisodesScreen
from arena.app.screens.replay import ReplayScreen
from tests.support.app_driving import started, wait_until
from tests.support.person_at_console import person_playing


def seed_cell(app: ArenaApp, episode_id: int) -> str:
    """The seed column of the episodes table's row for ``episode_id``."""
    screen = app.screen
    assert isinstance(screen, EpisodesScreen)
    table = screen.table
    return str(table.get_row(str(episode_id))[COLUMNS.index("seed")])  # rows are keyed by episode id


def rows(app: ArenaApp) -> int:
    """Rows in the episode list (0 until it is built)."""
    screen = app.screen
    return screen.table.row_count if isinstance(screen, EpisodesScreen) and screen.is_mounted else 0


async def test_the_episode_list_hides_a_running_person_s_seed_until_it_ends(app_db: Path) -> None:
    with person_playing(app_db) as person:
        app = create_app(app_db, load_models=False)
        async with started(app, size=(140, 40)) as pilot:
            app.open_episodes()
            await wait_until(pilot, lambda: isinstance(app.screen, EpisodesScreen), "the episode list")
            await wait_until(pilot, lambda: rows(app) == 1, "the person's episode listed")
            assert seed_cell(app, person.episode_id) == "secret"
            app.open_replay(person.episode_id)
            said = f"episode {person.episode_id} has a person's seat and has not ended (running)"
            await wait_until(pilot, lambda: any(said in n.message for n in app._notifications), "the refusal")
            assert not isinstance(app.screen, ReplayScreen), "its replay shows every seat's numbers"
        person.finish()
    app = create_app(app_db, load_models=False)
    async with started(app, size=(140, 40)) as pilot:
        app.open_episodes()
        await wait_until(pilot, lambda: isinstance(app.screen, EpisodesScreen), "the episode list")
        await wait_until(pilot, lambda: rows(app) == 1, "the finished episode listed")
        assert seed_cell(app, person.episode_id) == str(person.seed)
