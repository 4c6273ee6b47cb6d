"""Metric values as table cells: the same decimals across a row, '-' for a missing value."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.display.sanitize import plain_text


def format_value(value: Any, decimals: int | None = None) -> str:
    """A metric value for tables: floats with ``decimals`` (2, or 4 below 1), '-' for missing."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if decimals is None:
            decimals = 2 if abs(value) >= 1 or value == 0 else 4
        return f"{value:.{decimals}f}"
    return plain_text(str(value))


def format_row(values: Sequence[Any]) -> list[str]:
    """One metric's values with the same decimals: 4 only when every non-zero float is below 1."""
    floats = [v for v in values if isinstance(v, float) and not isinstance(v, bool) and v != 0]
    decimals = 4 if floats and all(abs(v) < 1 for v in floats) else 2
    return [format_value(value, decimals) for value in values]
