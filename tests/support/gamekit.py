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
from games.bargain import DEFINITION as BARGAIN
from games.bargain import BargainState
from games.lemonade import DEFINITION as LEMONADE
from games.lemonade import LemonadeState
from games.paperclip import DEFINITION as PAPERCLIP
from games.paperclip import PaperclipState


def new_bargain(seed: int, **options: Any) -> BargainState:
    """A bargain state made by its (registered) definition."""
    return BARGAIN.create(seed, options)


def new_lemonade(seed: int, **options: Any) -> LemonadeState:
    """A lemonade state made by its (registered) definition."""
    return LEMONADE.create(seed, options)


def new_paperclip(seed: int, **options: Any) -> PaperclipState:
    """A paperclip state made by its (registered) definition."""
    return PAPERCLIP.create(seed, options)


def prompt_of(state: GameState, seat: str) -> str:
    """The prompt ``seat`` gets now."""
    return state.definition.prompt_for(state, seat)


def rules_of(state: GameState, seat: str) -> str:
    """The rules ``seat`` is told."""
    return state.definition.rules(state.options, seat)


def observed(state: GameState, seat: str) -> dict[str, Any]:
    """``seat``'s observation as stored (JSON data)."""
    dumped: dict[str, Any] = state.observation(seat).model_dump(mode="json")
    return dumped


def render_text(state: GameState, viewer: str | None, width: int = 140) -> str:
    """The game's view for ``viewer`` as plain text."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None)
    console.print(state.definition.view.render(state, viewer))
    return buffer.getvalue()


def replay_stored(store: Store, episode_id: int, name: str) -> int:
    """Rebuild the episode from its stored actions; assert every stored row; return turns seen."""
    episode = store.episode(episode_id)
    assert episode is not None and episode["status"] == "finished"
    definition = get_game(name)
    game = definition.create(episode["seed"], episode["options"])
    turns = store.turns(episode_id, definition)
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
