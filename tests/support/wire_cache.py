"""A provider-like prompt cache for the wire server: which input tokens repeat a seen prefix."""

from __future__ import annotations

import json
import threading
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.support.wire_server import Behaviour


OPENAI_MIN_CACHED = 1024
"""OpenAI caches prompts of at least 1,024 tokens, in steps of 128 tokens."""
OPENAI_CACHE_STEP = 128
ANTHROPIC_MIN_CACHED = 1024
"""Anthropic's smallest cacheable prefix (Sonnet/Opus; Haiku needs 2,048)."""
ANTHROPIC_LOOKBACK = 20


def _tokens(chars: int) -> int:
    return -(-chars // 4)


def _text_of(content: Any) -> list[tuple[str, bool]]:
    """``(text, breakpoint)`` pieces of a message content (a string or content blocks)."""
    if isinstance(content, str):
        return [(content, False)]
    if isinstance(content, list):
        pieces = []
        for block in content:
            text = block.get("text")
            plain = text if isinstance(text, str) else json.dumps(block, sort_keys=True)
            pieces.append((plain, "cache_control" in block))
        return pieces
    return [(json.dumps(content, sort_keys=True), False)]


class PromptCache:
    """A provider-like prompt cache over the requests a :class:`WireServer` answered.

    The prompt is flattened to text in the order providers cache it (Anthropic: tools,
    system, messages; OpenAI: instructions and schema, then messages). OpenAI: the longest
    prefix shared with an earlier request under the same ``prompt_cache_key``, rounded down
    to a multiple of 128 tokens, at least 1,024. Anthropic: the longest prefix ending at a
    ``cache_control`` breakpoint, or at one of the 20 block boundaries before one, that an
    earlier request wrote (read), and the tokens up
    to the last breakpoint not yet written (created); prefixes under 1,024 tokens are not
    cached. ``input_tokens`` becomes the prompt's size (Anthropic: minus reads and writes).
    """

    def __init__(self) -> None:
        self.openai_min = OPENAI_MIN_CACHED
        self.anthropic_min = ANTHROPIC_MIN_CACHED
        self.seen: dict[str, list[str]] = {}
        self.written: set[str] = set()
        self._lock = threading.Lock()

    def account(self, behaviour: Behaviour, path: str, body: dict[str, Any]) -> Behaviour:
        """A copy of ``behaviour`` with input, cached and cache-write tokens for ``body``."""
        with self._lock:
            if path.split("?")[0].rstrip("/").endswith("/messages"):
                return self._anthropic(behaviour, body)
            return self._openai(behaviour, body)

    def _openai(self, behaviour: Behaviour, body: dict[str, Any]) -> Behaviour:
        parts = [
            json.dumps(body.get("instructions", "")),
            json.dumps(body.get("text", body.get("response_format"))),
        ]
        for message in body.get("input") or body.get("messages") or []:
            parts += [message.get("role", "")] + [text for text, _ in _text_of(message.get("content"))]
        text = "\n".join(parts)
        seen = self.seen.setdefault(str(body.get("prompt_cache_key", "")), [])
        shared = max((_common_prefix(text, earlier) for earlier in seen), default=0)
        seen.append(text)
        cached = _tokens(shared) // OPENAI_CACHE_STEP * OPENAI_CACHE_STEP
        cached = cached if cached >= self.openai_min else 0
        return replace(behaviour, input_tokens=_tokens(len(text)), cached_tokens=cached)

    def _anthropic(self, behaviour: Behaviour, body: dict[str, Any]) -> Behaviour:
        pieces: list[tuple[str, bool]] = [(json.dumps(body.get("tools", []), sort_keys=True), False)]
        pieces += _text_of(body.get("system", ""))
        for message in body.get("messages", []):
            pieces += [(message.get("role", ""), False), *_text_of(message.get("content"))]
        text, breakpoints, boundaries = "", [], []
        for piece, mark in pieces:
            text += piece + "\n"
            boundaries.append(len(text))
            if mark and _tokens(len(text)) >= self.anthropic_min:
                breakpoints.append(text)
        # A breakpoint also finds an earlier cached prefix ending at any of the 20 block
        # boundaries before it, as Anthropic's lookback does.
        candidates = {
            text[:end]
            for prefix in breakpoints
            for end in boundaries[max(0, boundaries.index(len(prefix)) - ANTHROPIC_LOOKBACK) :]
            if end <= len(prefix)
        }
        read = max((len(prefix) for prefix in candidates if prefix in self.written), default=0)
        created = max((len(prefix) for prefix in breakpoints if prefix not in self.written), default=0)
        created = max(0, created - read)
        self.written.update(breakpoints)
        total = _tokens(len(text))
        read_tokens, created_tokens = _tokens(read), _tokens(created)
        fresh = max(0, total - read_tokens - created_tokens)
        return replace(
            behaviour, input_tokens=fresh, cached_tokens=read_tokens, cache_write_tokens=created_tokens
        )


def _common_prefix(a: str, b: str) -> int:
    size = min(len(a), len(b))
    index = 0
    while index < size and a[index] == b[index]:
        index += 1
    return index
