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
"""The re-ask after a failure of any other class (a refusal, a player's own error)."""
FEEDBACK_BY_CLASS: dict[str, str] = {
    "unparsable": (
        "Your previous reply could not be read as JSON: {feedback}\n"
        "Reply again with exactly one JSON object that matches the schema, and no other text."
    ),
    "schema": (
        "Your previous reply did not match the schema: {feedback}\n"
        "Reply again with one JSON object whose fields and values match the schema."
    ),
    "illegal": (
        "Your previous move is not allowed by the rules: {feedback}\n"
        "Choose a legal move and reply again with one JSON object that matches the schema."
    ),
    "truncated": (
        "Your previous reply was cut off: {feedback}\n"
        "Answer shorter: reply with only the JSON object, keeping any free text to one short sentence."
    ),
    "oversized": (
        "Your previous reply was far too long to be read: {feedback}\n"
        "Answer shorter: reply with only the JSON object, keeping any free text to one short sentence."
    ),
}
"""The re-ask names what went wrong, so it asks something the first ask did not."""


def feedback_note(feedback: str, error: str | None) -> str:
    """The re-ask's note for a failure of class ``error`` (``None``: unknown) with ``feedback``'s detail."""
    return FEEDBACK_BY_CLASS.get(error or "", FEEDBACK_TEMPLATE).format(feedback=feedback)


def templates_sha256() -> str:
    """The full SHA-256 of the system and re-ask templates (joined by a newline)."""
    texts = [SYSTEM_TEMPLATE, FEEDBACK_TEMPLATE, *FEEDBACK_BY_CLASS.values()]
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()


SYSTEM_PROMPT_VERSION = templates_sha256()[:12]
"""Hash of the system and re-ask templates, recorded in every model seat's configuration."""


def decision_seed(episode_seed: int, seat: str, step: int, attempt: int) -> int:
    """The sampling seed of one decision: a stable 31-bit function of episode, seat, step, attempt."""
    digest = hashlib.sha256(f"arena-decision:{episode_seed}:{seat}:{step}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF
