"""Small helpers for tests that drive a game state directly."""

from __future__ import annotations

import io
import json
from typing import Any

from rich.console import Console

from arena.contract.game import GameState
from arena.plugins.games import get_game
from arena.store.database import Store
from arena.store.turn_rows import dumps
from games.bargain import BargainState
from games.lemonade import LemonadeState
from games.paperclip import PaperclipState


def new_bargain(seed: int, **options: Any) -> BargainState:
    """A bargain state as the registry makes it."""
    state = get_game("bargain").create(seed, options)
    assert isinstance(state, BargainState)
    return state


def new_lemonade(seed: int, **options: Any) -> LemonadeState:
    """A lemonade state as the registry makes it."""
    state = get_game("lemonade").create(seed, options)
    assert isinstance(state, LemonadeState)
    return state


def new_paperclip(seed: int, **options: Any) -> PaperclipState:
    """A paperclip state as the registry makes it."""
    state = get_game("paperclip").create(seed, options)
    assert isinstance(state, PaperclipState)
    return state


def prompt_of(state: GameState, seat: str) -> str:
    """The prompt ``seat`` gets now."""
    return state.definition.prompt_for(state, seat)


def rules_of(state: GameState, seat: str) -> str:
    """The rules ``seat`` is told."""
    return state.definition.rules(state.options, seat)


def observed(state: GameState, seat: str) -> dict[str, Any]:
    """``seat``'s observation as stored (JSON data)."""
    return state.observation(seat).model_dump(mode="json")


def render_text(state: GameState, viewer: str | None, width: int = 140) -> str:
    """The game's view for ``viewer`` as plain text."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None)
    console.print(state.definition.render(state, viewer))
    return buffer.getvalue()


def replay_stored(store: Store, episode_id: int, name: str) -> int:
    """Rebuild the episode from its stored actions; assert every stored row; return turns seen."""
    episode = store.episode(episode_id)
    assert episode is not None and episode["status"] == "finished"
    game = get_game(name).create(episode["seed"], episode["config"])
    turns = store.turns(episode_id)
    assert turns, "the episode stored no turns"
    by_step: dict[int, list[dict[str, Any]]] = {}
    for turn in turns:
        by_step.setdefault(turn["step"], []).append(turn)
    for step in sorted(by_step):
        rows = by_step[step]
        assert sorted(game.pending()) == sorted(row["seat"] for row in rows)
        for row in rows:
            assert roundtrip(game.observation(row["seat"]).model_dump(mode="json")) == row["observation"]
        actions = {row["seat"]: game.action_model(row["seat"]).model_validate(row["action"]) for row in rows}
        game.apply(actions)
        for row in rows:
            assert roundtrip(game.turn_state(row["seat"])) == row["state"], f"state differs at step {step}"
    assert game.over()
    stored = {seat["seat"]: seat["score"] for seat in store.seats(episode_id)}
    assert stored == {seat: result.score for seat, result in game.result().items()}
    return len(turns)


def roundtrip(value: Any) -> Any:
    """``value`` as the store writes and reads it."""
    return json.loads(dumps(value))
