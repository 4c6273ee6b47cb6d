"""Helpers for the app tests: real engine, real SQLite file, no mocks of Arena code."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.pilot import Pilot

from arena.match import MatchConfig, play_match
from arena.store import Store

WAIT_STEPS = 800
"""How many short pauses a test waits for the app before giving up (a safety net, not a timing)."""


def render_plain(renderable: object, width: int = 200) -> str:
    """What ``renderable`` shows, as plain text."""
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


async def wait_until(pilot: Pilot[Any], condition: Callable[[], bool], what: str) -> None:
    """Let the app run until ``condition`` holds."""
    for _ in range(WAIT_STEPS):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"gave up waiting for: {what}")


async def record_episode(db_path: Path, *, days: int = 6, seed: int = 3) -> int:
    """Play a real baseline lemonade episode into ``db_path``; returns its id."""
    store = Store(db_path)
    try:
        config = MatchConfig(
            game="lemonade",
            seats={"a": "baseline:weather", "b": "baseline:cost-plus"},
            seed=seed,
            options={"days": days},
        )
        outcome = await play_match(config, store)
    finally:
        store.close()
    assert outcome.episode_id is not None
    return outcome.episode_id
