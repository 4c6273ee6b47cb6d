"""The messages a player received, and how TextArena's LLM wrapper writes them as one string."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Message:
    """One message a player received: who sent it, its text and TextArena's kind for it."""

    sender_id: int
    sender: str
    text: str
    kind: str


def conversation(messages: list[Message]) -> str:
    """Messages as TextArena's ``LLMObservationWrapper`` writes them (``\\n[GAME] ...``)."""
    return "".join(f"\n[{m.sender}] {m.text}" for m in messages)
