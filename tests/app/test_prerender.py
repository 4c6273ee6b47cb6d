"""Prerendered boards: a width-free renderable is drawn without measuring it first, line for line the same."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from textual.app import App

from arena.app.safe import MAX_BOARD_WIDTH, SafeRenderable, prerender, width_free
from arena.display.board import board
from arena.engine.match import MatchConfig, prepare_runner
from arena.plugins.games import get_game

GAMES = {
    "lemonade": {"a": "baseline:weather", "b": "baseline:cost-plus"},
    "bargain": {"seller": "baseline:honest", "buyer": "baseline:bluffing"},
    "paperclip": None,
}


def measured(renderable: RenderableType, console: Console, width: int) -> Text:
    """What prerender drew before it knew width-free renderables: measure, then render at that width."""
    options = console.options.update(highlight=False, markup=False)
    natural = Measurement.get(console, options.update_width(MAX_BOARD_WIDTH), renderable).maximum
    target = max(1, min(MAX_BOARD_WIDTH, max(width, natural)))
    lines = console.render_lines(SafeRenderable(renderable), options.update_width(target), pad=False)
    text = Text(no_wrap=True, overflow="ignore", end="")
    for index, line in enumerate(lines):
        if index:
            text.append("\n")
        for segment in line:
            if not segment.control:
                text.append(segment.text, segment.style)
    return text


async def states(game: str) -> list[Any]:
    """Copies of a baseline episode of ``game`` after every step."""
    definition = get_game(game)
    seats = GAMES[game] or {
        seat: f"baseline:{next(iter(definition.baselines))}" for seat in definition.create(1).seats
    }
    runner = prepare_runner(MatchConfig(game, seats, seed=4), None, [])
    seen: list[Any] = [runner.game.clone()]
    apply = runner.game.apply

    def keep(actions: Any) -> Any:
        result = apply(actions)
        seen.append(runner.game.clone())
        return result

    runner.game.apply = keep  # type: ignore[method-assign]
    await runner.run()
    return seen


@pytest.mark.parametrize("game", list(GAMES))
async def test_every_board_of_an_episode_is_drawn_as_when_it_was_measured(game: str) -> None:
    console = App[None]().console
    boards = 0
    for state in (await states(game))[::3]:
        for viewer in (None, *state.seats):
            drawn = board(state, viewer)
            assert width_free(drawn), f"{game}'s board is a group of plain texts and tables"
            for width in (40, 116, 156, 700):
                assert prerender(drawn, console, width) == measured(drawn, console, width)
                boards += 1
    assert boards > 20


def test_what_depends_on_the_width_is_still_measured() -> None:
    assert not width_free(Panel("x"))
    assert not width_free(Text("x", justify="center"))
    assert not width_free(Text("a\tb"))
    assert not width_free(Table(expand=True))
    assert not width_free(Group(Text("x"), Panel("y")))
    assert width_free(Group(Text("x"), Table()))
    console = App[None]().console
    centred = Group(Text("title", justify="center"), Text("x" * 30))
    assert prerender(centred, console, 60) == measured(centred, console, 60)
