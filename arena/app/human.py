"""The human at the keyboard as a :class:`~arena.contract.player.Player`.

``HumanPlayer.decide`` opens a :class:`HumanTurn` on the match's :class:`HumanDesk` and
awaits its future; the app's form resolves the future once the entry passes every check.
Nothing here imports Textual: the desk only calls plain listeners.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import BaseModel

from arena.contract.player import Decision, DecisionRequest, Player

DeskListener = Callable[["HumanTurn"], None]


@dataclass(eq=False)
class HumanTurn:
    """One decision a person owes: the request and the future the form resolves."""

    seat: str
    request: DecisionRequest
    future: asyncio.Future[Decision]
    opened_at: float = field(default_factory=time.perf_counter)
    draft: object | None = None
    """The front end's form state for this turn, kept so leaving the screen loses nothing."""

    @property
    def done(self) -> bool:
        """True once answered or cancelled."""
        return self.future.done()

    def submit(self, action: BaseModel, reason: str, entries: dict[str, str]) -> None:
        """Answer with a checked action; ``entries`` (what was typed) is stored as the raw reply."""
        if self.future.done():
            return
        raw = json.dumps(entries, ensure_ascii=False)
        latency = time.perf_counter() - self.opened_at
        self.future.set_result(Decision(action=action, reason=reason, raw=raw, latency=latency))


class HumanDesk:
    """The decisions people owe in one match, in the order they were asked for."""

    def __init__(self) -> None:
        self.pending: list[HumanTurn] = []
        self.listeners: list[DeskListener] = []
        self.last_entries: dict[str, dict[str, str]] = {}

    def open(self, turn: HumanTurn) -> None:
        """A seat must act: remember the turn and tell the listeners."""
        self.pending.append(turn)
        for listener in list(self.listeners):
            listener(turn)

    def close(self, turn: HumanTurn) -> None:
        """The turn was answered or abandoned."""
        if turn in self.pending:
            self.pending.remove(turn)

    def active(self) -> HumanTurn | None:
        """The turn the form should show now (the oldest open one)."""
        for turn in self.pending:
            if not turn.done:
                return turn
        return None

    def cancel_all(self) -> None:
        """Abandon every open turn (the match is over or being cancelled)."""
        for turn in list(self.pending):
            if not turn.future.done():
                turn.future.cancel()
        self.pending.clear()


class HumanPlayer(Player):
    """A seat played through the app's form; ``decide`` waits for the person."""

    kind = "human"

    def __init__(self, seat: str, desk: HumanDesk) -> None:
        self.spec = "human"
        self.seat = seat
        self.desk = desk

    async def decide(self, request: DecisionRequest) -> Decision:
        """Open a turn on the desk and wait until the form answers it."""
        future: asyncio.Future[Decision] = asyncio.get_running_loop().create_future()
        turn = HumanTurn(seat=request.seat, request=request, future=future)
        self.desk.open(turn)
        try:
            return await future
        finally:
            self.desk.close(turn)
