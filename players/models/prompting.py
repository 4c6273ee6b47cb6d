"""The fixed parts of what a model seat is sent: the system and re-ask templates and the sampling seed.

The templates' hash is recorded in every model seat's configuration, so a change to the
wording shows in the stored episodes; the seed makes a seeded match replay identically on
providers that accept one.
"""

from __future__ import annotations

import hashlib

SYSTEM_TEMPLATE = (
    "You are a player in a game. Each turn you get the rules and the current state. "
    "Reply with a single JSON object that matches this JSON schema, and nothing else:\n{schema}"
)
FEEDBACK_TEMPLATE = (
    "Your previous reply could not be used: {feedback}\n"
    "Reply again with a single JSON object that matches the schema."
)


def templates_sha256() -> str:
    """The full SHA-256 of the system and re-ask templates (joined by a newline)."""
    return hashlib.sha256(f"{SYSTEM_TEMPLATE}\n{FEEDBACK_TEMPLATE}".encode()).hexdigest()


SYSTEM_PROMPT_VERSION = templates_sha256()[:12]
"""Hash of the system and re-ask templates, recorded in every model seat's configuration."""


def decision_seed(episode_seed: int, seat: str, step: int, attempt: int) -> int:
    """The sampling seed of one decision: a stable 31-bit function of episode, seat, step, attempt."""
    digest = hashlib.sha256(f"arena-decision:{episode_seed}:{seat}:{step}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF
