"""A decision in the making, and the frozen turn record it becomes once its step is applied."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from arena.contract.game import GameState
from arena.contract.player import Decision, DecisionRequest
from arena.contract.records import Attempt, TurnRecord
from arena.contract.unvalidated import unvalidated
from arena.contract.usage import NO_USAGE, Usage
from arena.store.observation_dump import ObservationDumper

_TURN_FIELD_NAMES = set(TurnRecord.model_fields)
RE_ASK_BREAK = "--- re-asked ---"
"""Between the thinking of a decision's attempts, in a turn's ``thinking``."""


@dataclass(slots=True)
class PendingTurn:
    """A decision in the making: attempts so far and the action finally used."""

    seat: str
    step: int
    request: DecisionRequest
    attempts: list[Attempt] = field(default_factory=list)
    usage: Usage = NO_USAGE
    latency: float = 0.0
    raw: str = ""
    reason: str = ""
    prompt: str | None = None
    sampling: dict[str, Any] | None = None
    served: dict[str, Any] | None = None
    """What the provider last said served this decision; the runner clears it when unchanged."""
    fallback: bool = False
    revised: bool = False
    """The decision used was the last of several different answers in its reply."""
    forfeit: str = ""
    """Why the seat forfeits the episode with this decision (``on_invalid="forfeit"``), else empty."""
    system: str | None = None
    """The system message the decision was sent with; the runner clears it when unchanged."""
    thinking: str | None = None
    """The thinking of every attempt of the decision, a re-ask's after a marked break."""
    action_model: BaseModel = field(default=None)  # type: ignore[assignment]

    def absorb(self, decision: Decision, request: DecisionRequest) -> bool:
        """Account for one attempt's cost, time, raw text and prompt; whether it cost anything."""
        usage = decision.usage
        spent = usage is not NO_USAGE and usage.spent  # a scripted player's is NO_USAGE: one look
        if spent:
            self.usage += usage
        self.latency += decision.latency
        self.raw = decision.raw
        self.reason = decision.reason
        self.sampling = decision.sampling
        if decision.served is not None:
            self.served = decision.served
        if decision.system is not None:
            self.system = decision.system
        if decision.thinking:
            before = f"{self.thinking}\n\n{RE_ASK_BREAK}\n\n" if self.thinking else ""
            self.thinking = before + decision.thinking
        prompt = request.prompt_if_rendered()
        if prompt is not None and self.prompt is None:
            self.prompt = prompt
        return spent

    def accept(self, action: BaseModel, decision: Decision | None) -> None:
        """Use ``action``; ``decision`` is ``None`` when it is the game's fallback."""
        self.action_model = action
        if decision is None:
            self.fallback = True
            self.reason = str(getattr(action, "reason", "") or "fallback")
        else:
            self.revised = decision.revised
            if not self.reason:
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
            "revised": self.revised,
            "system": self.system,
            "thinking": self.thinking,
        }
        return unvalidated(TurnRecord, values, _TURN_FIELD_NAMES)


def stored_record(row: dict[str, Any], observation: BaseModel, game: GameState, usage: Usage) -> TurnRecord:
    """A recorded turn's row (as :meth:`arena.store.database.Store.raw_turns` reads it, its action
    restored) as the record it was made from: ``observation`` is what the seat saw, ``game`` has
    applied the turn's step and ``usage`` is what the turn cost (a resumed episode's earlier turns)."""
    seat = row["seat"]
    attempts = tuple(Attempt(**attempt) for attempt in row["attempts"] or ())
    values = {
        "index": row["idx"],
        "step": row["step"],
        "seat": seat,
        "observation": observation.model_dump(mode="json"),
        "prompt": row["prompt"],
        "prompt_version": row["prompt_version"],
        "action": dict(row["action"]),
        "reason": row["reason"] or "",
        "raw": row["raw"] or "",
        "valid": bool(row["valid"]),
        "fallback": bool(row["fallback"]),
        "error": row["error"],
        "error_detail": row["error_detail"] or "",
        "attempts": attempts,
        "usage": usage,
        "latency": row["latency"] or 0.0,
        "state": game.turn_state(seat),
        "sampling": row["sampling"],
        "served": row["served"],
        "action_text": row["action_text"] or "",
        "revised": bool(row.get("revised")),
        "system": row.get("system"),
        "thinking": row.get("thinking"),
    }
    return unvalidated(TurnRecord, values, _TURN_FIELD_NAMES)


def _action_dump(action: BaseModel) -> dict[str, Any]:
    """``action.model_dump()``: straight from pydantic's serializer unless the class has its own
    ``model_dump`` (``model_dump`` itself spends most of its time sorting out its arguments)."""
    if type(action).model_dump is BaseModel.model_dump:
        dumped: dict[str, Any] = action.__pydantic_serializer__.to_python(action)
        return dumped
    return action.model_dump()
