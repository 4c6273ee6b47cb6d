"""A decision in the making, and the frozen turn record it becomes once its step is applied."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from arena.contract.game import GameState
from arena.contract.player import Decision, DecisionRequest, Usage
from arena.contract.records import Attempt, TurnRecord, TurnUsage
from arena.contract.unvalidated import unvalidated
from arena.store.observation_dump import ObservationDumper

NO_USAGE = TurnUsage()
_TURN_FIELD_NAMES = set(TurnRecord.model_fields)


def turn_usage(usage: Usage) -> TurnUsage:
    """The frozen record of a running usage total (the stored columns only)."""
    if not (
        usage.input_tokens
        or usage.output_tokens
        or usage.cached_tokens
        or usage.cache_write_tokens
        or usage.reasoning_tokens
        or usage.cost_usd
    ):
        return NO_USAGE  # scripted players and people: one shared frozen record
    return TurnUsage.trusted(
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cached_tokens=usage.cached_tokens,
        cache_write_tokens=usage.cache_write_tokens,
        reasoning_tokens=usage.reasoning_tokens,
        cost_usd=usage.cost_usd,
    )


@dataclass(slots=True)
class PendingTurn:
    """A decision in the making: attempts so far and the action finally used."""

    seat: str
    step: int
    request: DecisionRequest
    attempts: list[Attempt] = field(default_factory=list)
    usage: TurnUsage = NO_USAGE
    latency: float = 0.0
    raw: str = ""
    reason: str = ""
    prompt: str | None = None
    sampling: dict[str, Any] | None = None
    served: dict[str, Any] | None = None
    """What the provider last said served this decision; the runner clears it when unchanged."""
    fallback: bool = False
    action_model: BaseModel = field(default=None)  # type: ignore[assignment]

    def absorb(self, decision: Decision, request: DecisionRequest) -> bool:
        """Account for one attempt's cost, time, raw text and prompt; whether it cost anything."""
        spent = turn_usage(decision.usage)
        if spent is not NO_USAGE:
            self.usage = spent if self.usage is NO_USAGE else _added(self.usage, spent)
        self.latency += decision.latency
        self.raw = decision.raw
        self.reason = decision.reason
        self.sampling = decision.sampling
        if decision.served is not None:
            self.served = decision.served
        prompt = request.prompt_if_rendered()
        if prompt is not None and self.prompt is None:
            self.prompt = prompt
        return spent is not NO_USAGE

    def accept(self, action: BaseModel, decision: Decision | None) -> None:
        """Use ``action``; ``decision`` is ``None`` when it is the game's fallback."""
        self.action_model = action
        if decision is None:
            self.fallback = True
            self.reason = str(getattr(action, "reason", "") or "fallback")
        elif not self.reason:
            self.reason = str(getattr(action, "reason", "") or "")

    def record(self, index: int, game: GameState, dumper: ObservationDumper) -> TurnRecord:
        """The turn's record, the ``index``-th of its episode; ``game`` has applied its step."""
        seat, action, request = self.seat, self.action_model, self.request
        prompt, attempts = self.prompt, self.attempts
        # A dict in field order handed to unvalidated() directly: building it costs half of
        # Record.trusted's keywords, and this runs for every turn (tests/contract/test_records.py checks
        # the order against the model's fields).
        values = {
            "index": index,
            "step": self.step,
            "seat": seat,
            "observation": dumper.dump(request.observation),
            "prompt": prompt,
            "prompt_version": request.prompt_version if prompt is not None else None,
            "action": _action_dump(action),
            "reason": self.reason,
            "raw": self.raw,
            "valid": not attempts,
            "fallback": self.fallback,
            "error": attempts[0].error if attempts else None,
            "error_detail": attempts[0].detail if attempts else "",
            "attempts": tuple(attempts),
            "usage": self.usage,
            "latency": self.latency,
            "state": game.turn_state(seat),
            "sampling": self.sampling,
            "served": self.served,
            "action_text": game.definition.view.describe_action(game, seat, action),
        }
        return unvalidated(TurnRecord, values, _TURN_FIELD_NAMES)


def _action_dump(action: BaseModel) -> dict[str, Any]:
    """``action.model_dump()``: straight from pydantic's serializer unless the class has its own
    ``model_dump`` (``model_dump`` itself spends most of its time sorting out its arguments)."""
    if type(action).model_dump is BaseModel.model_dump:
        dumped: dict[str, Any] = action.__pydantic_serializer__.to_python(action)
        return dumped
    return action.model_dump()


def _added(first: TurnUsage, second: TurnUsage) -> TurnUsage:
    """The usage of two attempts at one decision."""
    return TurnUsage.trusted(
        input_tokens=first.input_tokens + second.input_tokens,
        output_tokens=first.output_tokens + second.output_tokens,
        cached_tokens=first.cached_tokens + second.cached_tokens,
        cache_write_tokens=first.cache_write_tokens + second.cache_write_tokens,
        reasoning_tokens=first.reasoning_tokens + second.reasoning_tokens,
        cost_usd=first.cost_usd + second.cost_usd,
    )
