"""Issue 24 item 14: the app's tournament widgets and the episode lists show players' short names.

A model served by llama-server under its GGUF file's path plays as
``openai-compat:/home/me/models/gemma-3-270m-it-Q8_0.gguf@http://127.0.0.1:PORT/v1``; the CLI's
tournament tables already show it as ``gemma-3-270m-it-Q8_0.gguf``. Here the app's leaderboard,
win matrix, scores, result line, tournament list and a player's episodes, and ``arena episodes``
and the app's episode list, show it so too; ``--json`` keeps the full id.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Static

from arena.app import create_app
from arena.app.screens.episodes import EpisodesScreen
from arena.app.screens.tournament import TournamentScreen
from arena.app.screens.tournament_lists import PlayerEpisodesScreen, TournamentsScreen
from arena.cli.main import main
from arena.display.names import seat_cells
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import run_tournament
from tests.support import model_listings as shapes
from tests.support.app_driving import open_tournament_board, render_plain, started, wait_until
from tests.support.wire_server import WireServer, reply

SIZES = ((80, 24), (160, 48))
SHORT = "gemma-3-270m-it-Q8_0.gguf"
LEMONADE = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady at the base price"}


@pytest.fixture
def wire() -> Iterator[WireServer]:
    """A llama-server's wire: one model listed under its GGUF file's path."""
    with WireServer() as server:
        server.models_reply = shapes.llama_server()
        yield server


async def model_tournament(db: Path, wire: WireServer) -> tuple[int, str]:
    """A finished lemonade tournament of the served model against a baseline; its id and the model's spec."""
    wire.script(*(reply(LEMONADE, served_model=shapes.GGUF_PATH) for _ in range(6)))
    spec = f"openai-compat:{shapes.GGUF_PATH}@{wire.openai_url}"
    config = build_config(
        game="lemonade",
        players=(spec, "baseline:weather"),
        seeds=1,
        seed=4,
        options={"days": 3},
        concurrency=1,
        retries=0,
    )
    store = Store(db)
    try:
        done = await run_tournament(store, config)
    finally:
        store.close()
    assert done.status == "finished"
    return done.tournament_id, spec


def table_cells(table: DataTable[Any]) -> list[list[str]]:
    """Every row of ``table`` as plain cell texts."""
    return [[render_plain(cell).strip() for cell in table.get_row_at(i)] for i in range(table.row_count)]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_the_tournament_screens_widgets_show_short_names(
    app_db: Path, wire: WireServer, size: tuple[int, int]
) -> None:
    tournament_id, spec = await model_tournament(app_db, wire)
    app = create_app(app_db, load_models=False)
    async with started(app, size=size) as pilot:
        screen, board = await open_tournament_board(pilot, app, tournament_id, rows=2)
        players = [row[1] for row in table_cells(board)]
        assert sorted(players) == sorted([SHORT, "baseline:weather"])
        note = render_plain(screen.query_one("#t-board-note", Static).content, 1000)
        assert SHORT in note and wire.openai_url not in note, "the result line names the short name"
        for selector in ("#t-heat", "#t-hist"):
            shown = render_plain(screen.query_one(selector, Static).content, 1000)
            assert SHORT in shown and spec not in shown and wire.openai_url not in shown, selector
        # Its episodes (the details) name the player in full; the opponents by their short names.
        board.move_cursor(row=players.index("baseline:weather"))
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, PlayerEpisodesScreen), "the player's episodes")
        await wait_until(pilot, lambda: bool(app.screen.query("#player-episodes")), "its table")
        episodes: DataTable[Any] = app.screen.query_one("#player-episodes", DataTable)
        await wait_until(pilot, lambda: episodes.row_count == 2, "its episodes")
        assert all(row[5] in (f"a={SHORT}", f"b={SHORT}") for row in table_cells(episodes))
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, TournamentScreen), "back")
        app.open_tournaments()
        await wait_until(pilot, lambda: isinstance(app.screen, TournamentsScreen), "the tournament list")
        await wait_until(pilot, lambda: bool(app.screen.query("#tournaments")), "its table")
        listed: DataTable[Any] = app.screen.query_one("#tournaments", DataTable)
        await wait_until(pilot, lambda: listed.row_count == 1, "the tournament listed")
        assert table_cells(listed)[0][3] == f"{SHORT} vs baseline:weather"


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_the_episode_list_shows_short_names(
    app_db: Path, wire: WireServer, size: tuple[int, int]
) -> None:
    await model_tournament(app_db, wire)
    app = create_app(app_db, load_models=False)
    async with started(app, size=size) as pilot:
        app.open_episodes()
        await wait_until(pilot, lambda: isinstance(app.screen, EpisodesScreen), "the episode list")
        await wait_until(pilot, lambda: bool(app.screen.query("#episodes")), "its table")
        table: DataTable[Any] = app.screen.query_one("#episodes", DataTable)
        await wait_until(pilot, lambda: table.row_count == 2, "both episodes")
        # one seat a line where the row does not fit the width on one line (80 columns)
        cells = {row[6].replace("\n", " ") for row in table_cells(table)}
        assert cells == {f"a={SHORT} b=baseline:weather", f"a=baseline:weather b={SHORT}"}


async def test_arena_episodes_and_tournaments_show_short_names_and_their_json_the_full_ids(
    tmp_path: Path, wire: WireServer, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "arena.db"
    _, spec = await model_tournament(db, wire)
    assert main(["--db", str(db), "episodes"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split("\t")[6] == "players"
    assert {line.split("\t")[6] for line in lines[1:]} == {
        f"a={SHORT} b=baseline:weather",
        f"a=baseline:weather b={SHORT}",
    }
    assert main(["--db", str(db), "episodes", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {row["players"] for row in rows} == {
        f"a={spec} b=baseline:weather",
        f"a=baseline:weather b={spec}",
    }
    assert main(["--db", str(db), "tournaments"]) == 0
    (listed,) = capsys.readouterr().out.splitlines()[1:]
    assert listed.split("\t")[3] == f"{SHORT} baseline:weather"
    assert main(["--db", str(db), "tournaments", "--json"]) == 0
    (tournament,) = json.loads(capsys.readouterr().out)
    assert tournament["config"]["players"] == [spec, "baseline:weather"]


def test_names_that_would_look_alike_keep_their_full_ids() -> None:
    one, two = "openai-compat:gemma@http://127.0.0.1:8093/v1", "openai-compat:gemma@http://10.0.0.2:8080/v1"
    seats = {
        1: [("a", one, ""), ("b", "baseline:weather", "")],
        2: [("a", two, "#1a2b"), ("b", "openai-compat:q@http://127.0.0.1:8093/v1", "")],
    }
    assert seat_cells(seats) == {1: f"a={one} b=baseline:weather", 2: f"a={two}#1a2b b=q"}
