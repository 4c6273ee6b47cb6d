"""The person at the keyboard before the tournament: episodes on the app's loop give way to input.

A tournament of scripted players plays on the app's own event loop and never waits on
anything, so it yields every couple of milliseconds (:data:`arena.engine.runner.YIELD_EVERY`).
Answering one key takes Textual dozens of turns of the loop (the key reaches the app, the
screen, a binding, an action, a layout, a refresh), and with four episodes in play each
of those turns first waited for every episode's next slice: a key took a quarter of a
second to repaint, up to most of a second. :class:`InputPriority` is the episodes' yield
point instead: for :data:`QUIET_AFTER_INPUT` after a key or a click it holds them, so the
loop only answers the person; then they carry on where they were. Nothing here imports
Textual (the app calls :meth:`InputPriority.touch`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

QUIET_AFTER_INPUT = 0.1
"""Seconds episodes wait after the last key or click: longer than the app takes to answer one."""


class InputPriority:
    """Where the app's episodes yield: straight on, or after the user's input has been answered."""

    def __init__(
        self, quiet: float = QUIET_AFTER_INPUT, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.quiet = quiet
        self.clock = clock
        self.last_input: float | None = None
        self.held = 0
        """How many yields waited for input to be answered (read by tests and the benchmark)."""

    def touch(self) -> None:
        """A key was pressed or the mouse clicked: episodes wait a moment."""
        self.last_input = self.clock()

    def holding(self) -> float:
        """Seconds episodes must still wait (0 when nothing was pressed lately)."""
        if self.last_input is None:
            return 0.0
        return max(0.0, self.last_input + self.quiet - self.clock())

    async def yield_point(self) -> None:
        """Let the loop run once, then wait while the user's last input is being answered.

        The check comes after the loop's turn, just before the episode carries on: every
        episode in play is parked in that turn at once, and a key arriving during it would
        otherwise wait for each of them to play one more slice (four episodes: 10-25 ms).
        """
        await asyncio.sleep(0)
        left = self.holding()
        if left > 0:
            self.held += 1
        while left > 0:
            await asyncio.sleep(left)
            left = self.holding()
