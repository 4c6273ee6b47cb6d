"""Neutralising untrusted text (model replies, reasons, human input) for display.

Storage keeps the raw text; only what is shown passes through here. Control characters
(escape sequences, OSC 8 links, bidi overrides, zero-width tricks) are replaced by
visible placeholders; markup is never interpreted because callers build ``Text`` objects
from the result, never markup strings.
"""

from __future__ import annotations

import unicodedata

INVISIBLE = frozenset(
    "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2060\ufeff"
)


def plain_text(text: str, *, limit: int | None = None, keep_newlines: bool = False) -> str:
    """``text`` with every control and bidi character made visible and harmless."""
    out = []
    for char in text:
        if char == "\n" and keep_newlines:
            out.append(char)
        elif char in ("\n", "\r", "\t"):
            out.append(" ")
        elif char in INVISIBLE:
            out.append(f"<U+{ord(char):04X}>")
        elif unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co"):
            out.append(f"<U+{ord(char):04X}>" if ord(char) > 0x7F else f"^{chr((ord(char) + 64) % 128)}")
        else:
            out.append(char)
    cleaned = "".join(out)
    if limit is not None and len(cleaned) > limit:
        cleaned = cleaned[: limit - 1] + "…"
    return cleaned
