"""The home screen gives a person a secret deal unless a seed is typed, and says so in the seed field."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from arena.app import create_app
from arena.app.app import ArenaApp
from arena.app.home_data import MatchDraft
from arena.app.screens.home import HomeScreen
from arena.plugins.games import get_game
from tests.support.app_driving import choose_seat, pick_game, screen_text, started, wait_until


def home_draft(app: ArenaApp) -> MatchDraft:
    screen = app.screen
    assert isinstance(screen, HomeScreen) and screen.draft is not None
    return screen.draft


def bargain_draft(seller: str, seed: str = "0", *, typed: bool = False) -> MatchDraft:
    draft = MatchDraft(get_game("bargain"), seed=seed, seed_given=typed)
    draft.seats = {"seller": seller, "buyer": "baseline:honest"}
    return draft


def test_a_person_seated_with_the_seed_left_alone_plays_a_secret_deal() -> None:
    assert (
        bargain_draft("human").config().seed is None
    )  # the engine draws it (tests/engine/test_deal_seed.py)
    assert bargain_draft("human", "").config().seed is None
    assert bargain_draft("human").secret_deal()


def test_a_typed_seed_is_played_as_typed_and_machines_alone_keep_their_seed() -> None:
    assert bargain_draft("human", "0", typed=True).config().seed == 0
    assert bargain_draft("human", "42", typed=True).config().seed == 42
    assert bargain_draft("baseline:bluffing").config().seed == 0
    assert not bargain_draft("baseline:bluffing").secret_deal()
    assert "seed" in bargain_draft("human", "x", typed=True).errors([])


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (142, 46), (160, 48)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_seed_field_reads_secret_while_a_person_is_seated_and_keeps_a_typed_seed(
    app_db: Path, size: tuple[int, int]
) -> None:
    app = create_app(app_db, load_models=False)
    async with started(app, size=size) as pilot:
        await pick_game(pilot, app, "bargain")
        field = app.screen.query_one("#opt-seed", Input)
        assert field.value == "0"
        await choose_seat(pilot, app, 0, "human")
        await wait_until(pilot, lambda: field.value == "", "the seed field to empty")
        assert field.placeholder == "secret (a person plays)"
        await wait_until(pilot, lambda: "secret (a person plays)" in screen_text(app), "the words in full")
        assert home_draft(app).config().seed is None
        await choose_seat(pilot, app, 0, "baseline:bluffing")
        await wait_until(pilot, lambda: field.value == "0", "the default seed back")
        field.focus()
        await pilot.press("backspace", "7")
        await choose_seat(pilot, app, 0, "human")
        await pilot.pause()
        assert field.value == "7" and home_draft(app).config().seed == 7, (
            "a typed seed is the person's choice"
        )
