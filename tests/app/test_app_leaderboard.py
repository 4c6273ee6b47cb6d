"""The leaderboard across tournaments in the app with Pilot: mark two in the list, press l."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Static

from arena.app import create_app
from arena.app.screens.episodes import EpisodesScreen
from arena.app.screens.leaderboard import LeaderboardScreen
from arena.app.screens.tournament_lists import TournamentsScreen
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.leaderboard import leaderboard
from arena.tournament.run import run_tournament
from arena.tournament.wording import rating_text
from tests.support.app_driving import render_plain, started, wait_until


async def test_marked_tournaments_open_one_leaderboard_with_each_games_column(app_db: Path) -> None:
    store = Store(app_db)
    plays = [
        build_config(game="bargain", players=("baseline:honest", "baseline:random"), seeds=3),
        build_config(
            game="lemonade", players=("baseline:weather", "baseline:random"), seeds=2, options={"days": 2}
        ),
        build_config(game="bargain", players=("baseline:bluffing", "baseline:pushover"), seeds=1),
    ]
    for config in plays:
        assert (await run_tournament(store, config)).status == "finished"
    expected = leaderboard(store, [1, 2])
    store.close()
    app = create_app(app_db, load_models=False, open_replay=True)
    async with started(app, size=(150, 45)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, EpisodesScreen), "the episode browser")
        await pilot.press("ctrl+t")
        await wait_until(pilot, lambda: isinstance(app.screen, TournamentsScreen), "the tournament list")
        listing = app.screen
        assert isinstance(listing, TournamentsScreen)
        await pilot.press("l")  # nothing marked yet: a hint, no screen
        assert isinstance(app.screen, TournamentsScreen)
        # newest first: 3, 2, 1; mark 2 and 1
        await pilot.press("down", "space", "down", "space")
        await wait_until(pilot, lambda: listing.marked == [2, 1], "two marked tournaments")
        table: DataTable[Any] = listing.query_one("#tournaments", DataTable)
        marks = [render_plain(table.get_row_at(i)[0]).strip() for i in range(3)]
        assert marks == ["3", "✓ 2", "✓ 1"]
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, LeaderboardScreen), "the leaderboard screen")
        screen = app.screen
        assert isinstance(screen, LeaderboardScreen) and screen.tournament_ids == (1, 2)
        await wait_until(pilot, lambda: screen.board is not None, "the leaderboard")
        board: DataTable[Any] = screen.query_one("#lb-board", DataTable)
        headers = [render_plain(column.label).strip() for column in board.columns.values()]
        assert headers == ["#", "player", "rating", "95% interval", "episodes", "bargain", "lemonade"]
        rows = [[render_plain(cell).strip() for cell in board.get_row_at(i)] for i in range(board.row_count)]
        assert [row[1] for row in rows] == [row["player"] for row in expected["players"]]
        honest = next(row for row in rows if row[1] == "baseline:honest")
        assert honest[6] == "not played" and honest[5] != "not played"
        random_row = next(row for row in rows if row[1] == "baseline:random")
        assert random_row[4] == str(
            next(r for r in expected["players"] if r["player"] == "baseline:random")["episodes"]
        )
        note = render_plain(screen.query_one("#lb-note", Static).content)
        assert "each game weighted equally" in note
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is listing, "the list again")
        # a set with no shared players says why, in one line, and the screen stays
        await pilot.press("up", "up", "space", "down", "space", "l")
        await wait_until(pilot, lambda: isinstance(app.screen, LeaderboardScreen), "the second leaderboard")
        failed = app.screen
        assert isinstance(failed, LeaderboardScreen) and failed.tournament_ids == (1, 3)
        await wait_until(pilot, lambda: failed.error != "", "the leaderboard's error")
        assert "no shared players" in render_plain(failed.query_one("#lb-note", Static).content)


@pytest.mark.parametrize(
    ("size", "per_game"), [((80, 24), "none"), ((120, 36), "ratings"), ((150, 45), "whole")], ids=str
)
async def test_a_leaderboard_fits_the_terminal_without_scrolling_sideways(
    app_db: Path, size: tuple[int, int], per_game: str
) -> None:
    store = Store(app_db)
    plays = [
        build_config(game="bargain", players=("baseline:honest", "baseline:random"), seeds=3),
        build_config(
            game="lemonade", players=("baseline:weather", "baseline:random"), seeds=2, options={"days": 2}
        ),
    ]
    for config in plays:
        assert (await run_tournament(store, config)).status == "finished"
    expected = leaderboard(store, [1, 2])
    store.close()
    own = next(row for row in expected["players"] if row["player"] == "baseline:random")["per_game"]
    app = create_app(app_db, load_models=False)
    async with started(app, size=size) as pilot:
        screen = LeaderboardScreen((1, 2))
        app.push_screen(screen)
        await wait_until(pilot, lambda: screen.board is not None, "the leaderboard")
        board: DataTable[Any] = screen.query_one("#lb-board", DataTable)
        await wait_until(
            pilot, lambda: board.size.width > 0 and board.virtual_size.width > 0, "the table laid out"
        )
        rows = [[render_plain(cell).strip() for cell in board.get_row_at(i)] for i in range(board.row_count)]
        assert board.virtual_size.width <= board.size.width, rows
        assert screen.per_game == per_game, rows
        random_row = next(row for row in rows if row[1] == "baseline:random")
        games = random_row[5:]
        assert len(games) == (0 if per_game == "none" else 2), random_row
        assert all(("(" in cell) == (per_game == "whole") for cell in games), random_row
        if games:
            for cell, game in zip(games, ("bargain", "lemonade"), strict=True):
                assert cell.startswith(rating_text(own[game])), (cell, own[game])
        note = render_plain(screen.query_one("#lb-note", Static).content)
        assert ("tables below" in note) == (per_game != "whole"), note
        tables = render_plain(screen.query_one("#lb-tables", Static).content, width=size[0])
        for game in (
            "bargain",
            "lemonade",
        ):  # every game's own rating is in the full tables, whatever the width
            assert game in tables and rating_text(own[game]) in tables, tables
