"""Limits and controls an episode runs under: a spending budget, and pause/step/pace."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from arena.contract.usage import Usage


@dataclass(frozen=True, slots=True)
class Budget:
    """Optional per-episode spending limit; crossing it stops the episode cleanly."""

    max_cost_usd: float | None = None
    max_tokens: int | None = None

    def exceeded(self, usage: Usage) -> str | None:
        """Why ``usage`` crosses this budget, or ``None``."""
        if self.max_cost_usd is not None and usage.cost_usd > self.max_cost_usd:
            return f"cost ${usage.cost_usd:.4f} crossed the budget of ${self.max_cost_usd:.4f}"
        if self.max_tokens is not None and usage.total_tokens > self.max_tokens:
            return f"{usage.total_tokens} tokens crossed the budget of {self.max_tokens}"
        return None


class RunControl:
    """Pause, single-step and pace an episode from outside (the app's controls)."""

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self._running = asyncio.Event()
        self._running.set()
        self._steps_allowed = 0

    @property
    def paused(self) -> bool:
        """True while the episode waits for resume or step."""
        return not self._running.is_set()

    def pause(self) -> None:
        """Stop before the next step."""
        self._running.clear()

    def resume(self) -> None:
        """Run freely again."""
        self._running.set()

    def step(self) -> None:
        """Let exactly one more step run while paused."""
        self._steps_allowed += 1
        self._running.set()

    async def before_step(self) -> None:
        """Wait as the controls say, then return to let one step run.

        Always yields to the event loop at least once: scripted players answer without
        awaiting anything, and a front end must get a turn between steps.
        """
        await asyncio.sleep(max(0.0, self.delay))
        await self._running.wait()
        if self._steps_allowed:
            self._steps_allowed -= 1
            if self._steps_allowed == 0:
                self._running.clear()
