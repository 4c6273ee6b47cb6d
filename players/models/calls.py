"""One provider call as every model player sees it, and the cap on concurrent calls per model.

A provider's :meth:`players.models.base.ModelPlayer._complete` returns a :class:`Completion`;
:func:`concurrency_gate` is the semaphore that every player of one (provider, model, base
URL) shares in an event loop, so ``max_concurrency`` holds across the episodes of a run.
"""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from arena.contract.usage import NO_USAGE, Usage

Finish = Literal["stop", "truncated", "refusal"]


class ClosableClient(Protocol):
    """What :meth:`ModelPlayer.close` needs of an SDK client."""

    async def close(self) -> None:
        """Release the client's connections."""
        ...


@dataclass(slots=True)
class Completion:
    """What one provider call produced: the reply text, how it ended, its usage, and what served it.

    ``served`` is what the reply says answered the call: the model id the provider returned
    (often a dated snapshot of the alias asked for) and its ``system_fingerprint`` when it
    sends one; an offline model's file name and digest. ``None``: nothing was said.
    """

    text: str
    usage: Usage = NO_USAGE
    finish: Finish = "stop"
    refusal: str = ""
    served: dict[str, Any] | None = None
    thinking: str = ""
    """The thinking the provider returned beside the reply (a reasoning summary, thinking blocks,
    ``reasoning_content``); ``""``: none returned."""
    thinking_hidden: bool = False
    """The provider thought but sent its thinking encrypted or redacted: recorded as such."""

    def thinking_record(self) -> str | None:
        """What a turn stores as this call's thinking: the text, a note for thinking the provider
        kept hidden (with its reasoning token count), or ``None`` when nothing was thought aloud."""
        if self.thinking:
            return self.thinking
        if self.thinking_hidden:
            return hidden_thinking(self.usage.reasoning_tokens)
        return None


def hidden_thinking(tokens: int) -> str:
    """The note stored for thinking a provider sent encrypted or redacted."""
    counted = f"{tokens:,} reasoning tokens" if tokens else "reasoning tokens not reported"
    return f"[thinking encrypted or redacted by the provider: {counted}]"


def served_by(**facts: Any) -> dict[str, Any] | None:
    """The ``served`` facts that were given (``None`` and empty values dropped), or ``None``."""
    given = {name: value for name, value in facts.items() if value not in (None, "")}
    return given or None


_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[str, str, str], asyncio.Semaphore]]
_gates = weakref.WeakKeyDictionary()


def concurrency_gate(key: tuple[str, str, str], limit: int) -> asyncio.Semaphore:
    """The semaphore shared by every player of one (provider, model, base URL) in this loop."""
    loop = asyncio.get_running_loop()
    per_loop = _gates.setdefault(loop, {})
    gate = per_loop.get(key)
    if gate is None:
        gate = per_loop[key] = asyncio.Semaphore(limit)
    return gate
