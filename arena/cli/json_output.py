"""JSON on stdout for every ``--json`` flag: one format, terminal-safe.

JSON already escapes control characters such as ESC; bidi overrides and invisible
characters would still reach a terminal raw and reorder or hide what it shows, so they are
written as ``\\uXXXX`` escapes too. The text decodes to the same values.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from arena.display.sanitize import INVISIBLE

_ESCAPES = {ord(char): f"\\u{ord(char):04x}" for char in INVISIBLE}


def escape_invisible(text: str) -> str:
    """JSON text with bidi overrides and invisible characters written as ``\\uXXXX`` escapes."""
    return text.translate(_ESCAPES)


def print_json(value: Any) -> int:
    """Write ``value`` as indented JSON and a newline to stdout; exit code 0."""
    sys.stdout.write(escape_invisible(json.dumps(value, ensure_ascii=False, indent=1, default=str)))
    sys.stdout.write("\n")
    return 0
