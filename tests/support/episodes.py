"""Minimal stored episodes and turn rows for storage tests, and reading an episode's turns."""

from __future__ import annotations

from typing import Any

from arena.engine.recorder import TURN_COLUMNS
from arena.plugins.games import installed_game
from arena.store.database import Store


def running_episode(store: Store) -> int:
    """Insert a running one-seat episode."""
    return store.create_episode(
        game="lemonade",
        game_version="1.0",
        prompt_version="p",
        arena_version="0",
        seed=1,
        options={},
        seats=[("a", "baseline:weather", "baseline")],
    )


def turn_rows(episode_id: int, step: int) -> list[list[object]]:
    """Two minimal turn rows of one step, in ``TURN_COLUMNS`` order."""
    rows = []
    for offset, seat in enumerate("ab"):
        row: dict[str, object] = dict.fromkeys(TURN_COLUMNS)
        row.update(
            episode_id=episode_id, idx=2 * step + offset, step=step, seat=seat, action="{}", attempts="[]"
        )
        row.update(raw="", action_text="", reason="", error_detail="")
        row.update(valid=1, fallback=0, reason_in_action=0, latency=0.0)
        row.update(input_tokens=0, output_tokens=0, cached_tokens=0, cache_write_tokens=0, reasoning_tokens=0)
        row.update(cost_usd=0.0)
        rows.append([row[column] for column in TURN_COLUMNS])
    return rows


def stored_turns(store: Store, episode_id: int) -> list[dict[str, Any]]:
    """An episode's turns, rebuilt with its game looked up once, as the front ends do."""
    episode = store.episode(episode_id)
    return store.turns(episode_id, installed_game(episode["game"]) if episode is not None else None)
