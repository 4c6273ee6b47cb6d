"""Test players that answer from a script: they stand in for misbehaving models."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from arena.contract.player import Decision, DecisionRequest, Player

Script = Callable[[DecisionRequest], Decision]


class ScriptedPlayer(Player):
    """Answers each request with the next decision from ``answers`` (the last repeats)."""

    def __init__(
        self, answers: list[Decision | Script], spec: str = "test:scripted", delay: float = 0.0
    ) -> None:
        self.answers = answers
        self.spec = spec
        self.kind = "model"
        self.delay = delay
        self.requests: list[DecisionRequest] = []

    async def decide(self, request: DecisionRequest) -> Decision:
        self.requests.append(request)
        if self.delay:
            await asyncio.sleep(self.delay)
        answer = self.answers[min(len(self.requests) - 1, len(self.answers) - 1)]
        return answer(request) if callable(answer) else answer


class CrashingPlayer(Player):
    """Raises from decide: a player bug the runner must survive."""

    spec = "test:crash"

    async def decide(self, request: DecisionRequest) -> Decision:
        raise RuntimeError("boom")


def decision(action: dict[str, Any] | None, **kwargs: Any) -> Decision:
    """Shorthand for a Decision."""
    return Decision(action=action, **kwargs)
