"""Replaying saved episodes, browsing them, help and the command palette, with Pilot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, ClassVar

import pytest
from textual.command import CommandPalette
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import DataTable, Select, Static, TabbedContent

from arena.app import create_app
from arena.app.screens.episodes import EpisodesScreen
from arena.app.screens.home import HomeScreen
from arena.app.screens.modals import JumpScreen, TextScreen
from arena.app.screens.replay import ReplayScreen
from arena.contract.player import Decision, DecisionRequest, Player
from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from games.lemonade.rules import LemonadeDecision
from tests.support.app_driving import record_episode, render_plain, screen_text, started, wait_until


def shown(screen: ReplayScreen, widget_id: str) -> str:
    """The plain text of one of the replay screen's panels."""
    return render_plain(screen.query_one(widget_id, Static).content)


@asynccontextmanager
async def replay_of_12_days(
    app_db: Path, size: tuple[int, int]
) -> AsyncIterator[tuple[Pilot[Any], Any, ReplayScreen]]:
    """The app opened on the replay of a recorded 12-day lemonade episode: pilot, app and screen."""
    episode_id = await record_episode(app_db, days=12)
    app = create_app(app_db, replay=episode_id, load_models=False)
    async with started(app, size=size) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay screen")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        yield pilot, app, screen


async def test_step_through_a_saved_episode(app_db: Path) -> None:
    async with replay_of_12_days(app_db, (120, 40)) as (pilot, app, screen):
        assert "step 0/12" in shown(screen, "#replay-head")
        assert "Day 1/12" in shown(screen, "#replay-board")
        await pilot.press("right", "right", "right")
        assert screen.data.position == 3
        assert "step 3/12" in shown(screen, "#replay-head")
        assert "Day 4/12" in shown(screen, "#replay-board")
        decisions = shown(screen, "#replay-turns")
        assert "seat a baseline:weather" in decisions and "seat b baseline:cost-plus" in decisions
        assert "reason:" in decisions
        await pilot.press("left")
        assert screen.data.position == 2
        await pilot.press("end")
        assert "Finished after 12 days" in shown(screen, "#replay-board")
        await pilot.press("home")
        assert screen.data.position == 0
        await pilot.press("g")
        await wait_until(pilot, lambda: isinstance(app.screen, JumpScreen), "the jump box")
        await pilot.press("9", "enter")
        await wait_until(pilot, lambda: app.screen is screen, "back to the replay")
        assert screen.data.position == 9
        await pilot.press("v")
        assert "seat a's view" in shown(screen, "#replay-head")
        board = shown(screen, "#replay-board")
        assert "a price" in board and "b price" not in board
        assert "seat b" not in shown(screen, "#replay-turns")
        await pilot.press("v", "v")
        assert "full view" in shown(screen, "#replay-head")
        await pilot.press("t")
        assert screen.query_one(TabbedContent).active == "tab-raw"
        await pilot.press("escape")  # arena replay ID: back to the episode list, not home
        await wait_until(pilot, lambda: isinstance(app.screen, EpisodesScreen), "the episode list")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "home")


async def test_browse_filter_and_open_an_episode(app_db: Path) -> None:
    await record_episode(app_db, days=2, seed=1)
    second = await record_episode(app_db, days=3, seed=2)
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: isinstance(app.screen, EpisodesScreen), "the episodes")
        table = app.screen.query_one("#episodes", DataTable)
        assert table.row_count == 2
        await pilot.press("slash", "z", "z")
        assert table.row_count == 0
        await pilot.press("backspace", "backspace", "c", "o", "s", "t", "enter")
        assert table.row_count == 2
        assert app.focused is table
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.data.episode["id"] == second
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, EpisodesScreen), "back to the list")


async def test_missing_episode_opens_the_list(app_db: Path) -> None:
    app = create_app(app_db, replay=42, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, EpisodesScreen), "the episode list")


async def test_help_and_command_palette(app_db: Path) -> None:
    await record_episode(app_db, days=2)
    app = create_app(app_db, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, TextScreen), "the help")
        text = render_plain(app.screen.query_one(Static).content)
        assert "Start match" in text and "ctrl+q" in text
        assert text.startswith("To play: pick a game in the games list"), (
            "how to pick a game and seat players"
        )
        assert "Give each seat a player" in text
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        await pilot.press(*"replay episode 1")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay from the palette")


async def test_replay_at_start_up_with_a_models_file_then_home_offers_the_models(
    app_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The models arrive while the home screen under the replay is still building its seats.
    models = tmp_path / "models.toml"
    models.write_text('[models.house-gemma]\nprovider = "local"\nmodel = "gemma3-270m"\n')
    monkeypatch.setenv("ARENA_MODELS", str(models))
    episode_id = await record_episode(app_db, days=2)
    app = create_app(app_db, replay=episode_id)
    async with started(app, size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.catalog.loaded, "the models file")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay screen")
        await pilot.pause()
        assert app.is_running and app.return_code is None
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, EpisodesScreen), "the episode list")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "home")
        select = app.screen.query_one("#seat-select-0", Select)
        await wait_until(
            pilot,
            lambda: "house-gemma" in {str(value) for _, value in select._options},
            "the model in the seat list",
        )


async def test_steps_are_labelled_by_what_they_show_and_the_last_shows_the_results(app_db: Path) -> None:
    episode_id = await record_episode(app_db, days=3)
    app = create_app(app_db, replay=episode_id, load_models=False)
    async with started(app, size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay screen")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert shown(screen, "#replay-head").startswith("start · step 0/3")
        await pilot.press("right")
        assert shown(screen, "#replay-head").startswith("after step 1/3")
        assert "results" not in shown(screen, "#replay-turns")
        await pilot.press("end")
        results = shown(screen, "#replay-turns")
        assert "results" in results and "score" in results and "final cash" in results
        assert "bankrupt" in results


async def replay_against_weather(app_db: Path, player: Player, *, days: int) -> Any:
    """The app opening on the replay of ``player`` (seat a) against the weather baseline."""
    store = Store(app_db)
    try:
        seats = {"a": player.spec, "b": "baseline:weather"}
        config = MatchConfig(game="lemonade", seats=seats, options={"days": days})
        await play_match(config, store, players={"a": player})
    finally:
        store.close()
    return create_app(app_db, replay=1, load_models=False)


class PromptReader(Player):
    """Reads its prompt (so the turn stores it) and makes no cups."""

    seen: ClassVar[list[str]] = []

    def __init__(self) -> None:
        self.spec = "test:reader"

    async def decide(self, request: DecisionRequest) -> Decision:
        PromptReader.seen.append(request.prompt)
        return Decision(action=LemonadeDecision(price=3.0, produce=0), reason="reads")


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
async def test_the_prompt_tab_wraps_every_prompt_line_at_the_panes_width(
    app_db: Path, size: tuple[int, int]
) -> None:
    app = await replay_against_weather(app_db, PromptReader(), days=1)
    async with started(app, size=size) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay screen")
        await pilot.press("right")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        prompt = screen.query_one("#replay-prompt", Static)
        await pilot.press("t", "t", "t", "t", "t")  # back round to the prompt tab (five tabs)
        pane = screen.query_one("#replay-prompt-scroll")
        await wait_until(pilot, lambda: pane.size.width > 0 and prompt.size.height > 1, "the prompt laid out")
        source = PromptReader.seen[-1]
        longest = max(len(line) for line in source.splitlines())
        assert longest > pane.size.width, "the test needs a prompt line wider than the pane"
        assert prompt.size.width <= pane.size.width and pane.max_scroll_x == 0, "nothing off to the side"
        drawn = prompt.render_lines(Region(0, 0, prompt.size.width, prompt.size.height))
        shown = "".join(strip.text for strip in drawn)
        assert "".join(source.split()) in "".join(shown.split()), "every character of the prompt is shown"


async def test_a_tab_stepped_past_while_hidden_shows_its_text_whole_when_opened(app_db: Path) -> None:
    # The hidden changes tab is updated without a layout while the replay steps; opening it
    # again must give its text the height it has now, not the one measured when last shown.
    async with replay_of_12_days(app_db, (120, 60)) as (pilot, app, screen):
        changes = screen.query_one("#replay-changes", Static)
        tabs = screen.query_one(TabbedContent)

        def lines() -> list[str]:
            return render_plain(changes.content).rstrip("\n").split("\n")

        async def open_changes() -> None:
            while tabs.active != "tab-changes":
                await pilot.press("t")
            expected = lines()
            await wait_until(
                pilot, lambda: changes.region.height >= len(expected), "the changes as tall as their text"
            )
            shown_now = screen_text(app)
            assert all(line[:20] in shown_now for line in expected), shown_now

        await open_changes()  # the start: one line
        assert len(lines()) == 1
        await pilot.press("t")
        assert tabs.active != "tab-changes"
        await pilot.press("right", "right", "right")
        assert screen.data.position == 3 and len(lines()) > 1
        await open_changes()


class Thinker(Player):
    """Returns thinking beside its reason, as a reasoning model's player does."""

    def __init__(self) -> None:
        self.spec = "test:thinker"

    async def decide(self, request: DecisionRequest) -> Decision:
        thought = f"Day {request.step + 1}: rain likely, so I make nothing and keep the cash."
        return Decision(action=LemonadeDecision(price=3.0, produce=0), reason="saving", thinking=thought)


async def test_the_raw_reply_tab_shows_a_seats_thinking_apart_from_its_reason(app_db: Path) -> None:
    app = await replay_against_weather(app_db, Thinker(), days=2)
    async with started(app, size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay screen")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("right", "t")
        assert screen.query_one(TabbedContent).active == "tab-raw"
        raw = shown(screen, "#replay-raw")
        assert "thinking:\nDay 1: rain likely, so I make nothing and keep the cash.\nreply:" in raw
        assert raw.count("thinking:") == 1  # the baseline in seat b thought nothing
        assert "rain likely" not in shown(screen, "#replay-turns")  # the reason panel keeps the reason
        await wait_until(pilot, lambda: "rain likely" in screen_text(app), "the thinking drawn")
        while "seat b's view" not in shown(screen, "#replay-head"):
            await pilot.press("v")
        assert "rain likely" not in shown(screen, "#replay-raw")  # not in another seat's view
