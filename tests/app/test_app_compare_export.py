"""The episode browser's compare view and export key, and replay's changes tab, with Pilot."""

from __future__ import annotations

import asyncio
import json
from functools import partial
from pathlib import Path
from typing import Any

from textual.widgets import DataTable, Input, Select, Static, TabbedContent

from arena.app import create_app
from arena.app.replay_data import ReplayData
from arena.app.screens.compare import CELL_LIMIT, CompareScreen
from arena.app.screens.episodes import EpisodesScreen
from arena.app.screens.modals import ConfirmScreen, ExportScreen
from arena.app.screens.replay import ReplayScreen
from arena.display.sanitize import plain_text
from arena.engine import bulk_export, json_patch
from arena.engine.compare import compare_episodes
from arena.engine.export_formats import read_rows
from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from tests.support.app_driving import render_plain, started, wait_until


async def record(db: Path, seats: dict[str, str], *, seed: int = 5, days: int = 4) -> int:
    store = Store(db)
    try:
        outcome = await play_match(
            MatchConfig(game="lemonade", seats=seats, seed=seed, options={"days": days}), store
        )
    finally:
        store.close()
    assert outcome.episode_id is not None
    return outcome.episode_id


async def open_episodes(pilot: Any, app: Any, rows: int) -> EpisodesScreen:
    await pilot.press("ctrl+o")
    await wait_until(pilot, lambda: isinstance(app.screen, EpisodesScreen), "the episodes")
    screen = app.screen
    assert isinstance(screen, EpisodesScreen)
    table = screen.query_one("#episodes", DataTable)
    await wait_until(pilot, lambda: table.row_count == rows, f"{rows} episodes listed")
    return screen


async def test_mark_two_episodes_of_one_deal_and_compare_them(app_db: Path) -> None:
    first = await record(app_db, {"a": "baseline:weather", "b": "baseline:cost-plus"})
    second = await record(app_db, {"a": "baseline:weather", "b": "baseline:profit-max"})
    app = create_app(app_db, load_models=False)
    async with started(app, size=(140, 40)) as pilot:
        screen = await open_episodes(pilot, app, 2)
        await pilot.press("space", "down", "space")  # newest first: the second, then the first
        assert screen.marked == [second, first]
        assert "marked: " in render_plain(screen.query_one("#episode-count", Static).content)
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, CompareScreen), "the compare screen")
        compare = app.screen
        assert isinstance(compare, CompareScreen)
        expected = compare_episodes(app.store, second, first)
        assert compare.comparison.first_divergence == expected.first_divergence is not None
        head = render_plain(compare.query_one("#compare-head", Static).content)
        assert f"A: episode {second} · a=baseline:weather b=baseline:profit-max" in head
        assert f"first divergence: step {expected.first_divergence}, seat b:" in head
        table = compare.query_one("#compare-table", DataTable)
        assert table.row_count == 2 * 4  # two seats, four days
        # The cursor starts on the first decision that differs, each side's reason beside its move.
        assert compare.current_step == expected.first_divergence
        row = [render_plain(cell).strip() for cell in table.get_row_at(table.cursor_row)]
        assert row[1] == "b" and row[2] == "≠"
        pair = next(p for p in expected.steps[compare.current_step - 1].seats if p.seat == "b")
        assert pair.a is not None and pair.b is not None
        for shown_cell, decision in ((row[3], pair.a), (row[4], pair.b)):  # each move over its reason
            wanted = [
                plain_text(text, limit=CELL_LIMIT).rstrip()
                for text in (decision.action_text, decision.reason)
            ]
            assert [line.rstrip() for line in shown_cell.splitlines()] == wanted
        await pilot.press("b")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "B's replay")
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert replay.data.episode["id"] == first and replay.data.position == expected.first_divergence
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is compare, "back to the comparison")


async def test_comparing_two_deals_is_refused_with_a_line(app_db: Path) -> None:
    await record(app_db, {"a": "baseline:weather", "b": "baseline:cost-plus"}, seed=1)
    await record(app_db, {"a": "baseline:weather", "b": "baseline:cost-plus"}, seed=2)
    app = create_app(app_db, load_models=False)
    async with started(app, size=(140, 40)) as pilot:
        screen = await open_episodes(pilot, app, 2)
        await pilot.press("space", "down", "c")  # the marked one and the one under the cursor
        await wait_until(pilot, lambda: bool(app._notifications), "a notification")
        (note,) = list(app._notifications)
        assert "not the same world: deal seeds differ (2, 1)" in note.message
        assert app.screen is screen


async def test_the_export_key_writes_the_listed_episodes(app_db: Path, tmp_path: Path) -> None:
    ids = [
        await record(app_db, {"a": "baseline:weather", "b": "baseline:cost-plus"}, seed=seed, days=2)
        for seed in (1, 2, 3)
    ]
    target = tmp_path / "out" / "episodes.csv"
    target.parent.mkdir()
    app = create_app(app_db, load_models=False)
    async with started(app, size=(140, 40)) as pilot:
        screen = await open_episodes(pilot, app, 3)
        await pilot.press("x")
        await wait_until(pilot, lambda: isinstance(app.screen, ExportScreen), "the export box")
        assert app.screen.query_one("#export-folder", Input).value == str(app_db.parent)
        box = app.screen.query_one("#export-path", Input)
        assert box.value.endswith(".jsonl")
        app.screen.query_one("#export-folder", Input).value = str(target.parent)
        box.value = target.name
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(screen.last_export), "the export to end")
        assert screen.last_export == f"wrote 12 rows of 3 episodes to {target}"
        rows = list(read_rows(target, "csv", bulk_export.columns("turns")))
        assert sorted({row["episode_id"] for row in rows}) == ids
        # Marked episodes only, one row per seat.
        await pilot.press("space", "x")
        await wait_until(pilot, lambda: isinstance(app.screen, ExportScreen), "the export box")
        app.screen.query_one("#export-folder", Input).value = str(tmp_path)
        app.screen.query_one("#export-path", Input).value = "seats.jsonl"
        app.screen.query_one("#export-rows", Select).value = "seats"
        screen.last_export = ""
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(screen.last_export), "the second export")
        seats = list(read_rows(tmp_path / "seats.jsonl", "jsonl", bulk_export.columns("seats")))
        assert [(row["episode_id"], row["seat"]) for row in seats] == [(ids[-1], "a"), (ids[-1], "b")]


def shows(widget: Static, text: str) -> bool:
    """Whether ``widget`` shows ``text`` now."""
    return text in render_plain(widget.content)


async def test_the_export_box_writes_only_inside_its_folder_and_asks_before_replacing(
    app_db: Path, tmp_path: Path
) -> None:
    await record(app_db, {"a": "baseline:weather", "b": "baseline:cost-plus"}, days=2)
    folder = tmp_path / "exports"
    folder.mkdir()
    kept = folder / "kept.jsonl"
    kept.write_text("the old file\n")
    outside = tmp_path / "outside.jsonl"
    (folder / "link.jsonl").symlink_to(outside)
    app = create_app(app_db, load_models=False)
    async with started(app, size=(140, 40)) as pilot:
        screen = await open_episodes(pilot, app, 1)
        await pilot.press("x")
        await wait_until(pilot, lambda: isinstance(app.screen, ExportScreen), "the export box")
        box = app.screen
        box.query_one("#export-folder", Input).value = str(folder)
        error = box.query_one("#export-error", Static)
        for name, said in [
            ("../outside.jsonl", "not a plain file name"),
            (str(outside), "not a plain file name"),
            ("link.jsonl", "leads outside"),
        ]:
            box.query_one("#export-path", Input).value = name
            await pilot.press("enter")
            await wait_until(pilot, partial(shows, error, said), said)
            assert app.screen is box and not outside.exists()
        box.query_one("#export-path", Input).value = "kept.jsonl"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "are you sure")
        confirm = app.screen
        assert isinstance(confirm, ConfirmScreen) and "kept.jsonl exists. Replace it?" in confirm.question
        await pilot.press("n")
        await wait_until(pilot, lambda: "is kept" in render_plain(error.content), "kept")
        assert kept.read_text() == "the old file\n" and app.screen is box
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "are you sure, again")
        await pilot.press("y")
        await wait_until(pilot, lambda: bool(screen.last_export), "the export to end")
        assert screen.last_export == f"wrote 4 rows of 1 episodes to {kept}"
        assert [row["step"] for row in read_rows(kept, "jsonl", bulk_export.columns("turns"))] == [0, 0, 1, 1]


async def test_replay_shows_what_each_step_changed(app_db: Path) -> None:
    episode = await record(app_db, {"a": "baseline:weather", "b": "baseline:cost-plus"}, days=3)
    app = create_app(app_db, replay=episode, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay screen")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("right", "t", "t", "t")
        assert screen.query_one(TabbedContent).active == "tab-changes"
        changes = render_plain(screen.query_one("#replay-changes", Static).content)
        assert "step 1 changed" in changes and "of the full state" in changes
        assert "~ /day: 2" in changes and "/stands/a/cash" in changes
        await pilot.press("v")
        changes = render_plain(screen.query_one("#replay-changes", Static).content)
        assert "of seat a's view" in changes and "/stands/b" not in changes


def test_each_steps_changes_turn_one_state_into_the_next(app_db: Path) -> None:
    episode = asyncio.run(record(app_db, {"a": "baseline:weather", "b": "baseline:cost-plus"}, days=4))
    store = Store(app_db)
    try:
        data = ReplayData.load(store, episode, snapshot_every=2)
    finally:
        store.close()
    for view in data.views():
        data.view = view
        data.go(0)
        what = "the full state" if view is None else f"seat {view}'s view"
        assert data.changes() == (f"{what} at the start", [])
        states = []
        for position in range(data.total + 1):
            data.go(position)
            game = data.game()
            assert game is not None
            state = game.to_json() if view is None else game.observation(view).model_dump(mode="json")
            states.append(json.loads(json.dumps(state)))
        for position in range(1, data.total + 1):
            data.go(position)
            heading, lines = data.changes()
            patch = json_patch.diff(states[position - 1], states[position])
            assert json_patch.apply(states[position - 1], patch) == states[position]
            assert lines == json_patch.describe(patch) and lines
            assert heading.startswith(f"step {position} changed {len(patch)} value")
        data.go(1)  # back again, past the snapshots: the same answer
        assert data.changes()[1] == json_patch.describe(json_patch.diff(states[0], states[1]))
        for position in range(data.total - 1, 0, -1):  # step by step back, prepared ahead as the screen does
            data.go(position)
            data.prepare_changes()
            data.go(position + 1)
            data.go(position)
            patch = json_patch.diff(states[position - 1], states[position])
            assert data.changes()[1] == json_patch.describe(patch)
