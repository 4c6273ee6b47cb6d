"""Metric values as table cells: the same decimals across a row, '-' for a missing value.

A metric's name is shown as words (``in_zone`` is "in zone"), and a metric that holds a
table of its own (paperclip's ``accuracy_by_tier``, ``{"entry": 0.5}``) is shown as rows,
one per key, never as a Python dict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.contract.labels import label
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
    if isinstance(value, Mapping):  # a value outside a table (rows are split by metric_rows)
        return ", ".join(f"{label(str(key))} {format_value(item)}" for key, item in value.items()) or "none"
    if isinstance(value, list | tuple):
        return ", ".join(format_value(item) for item in value) or "none"
    return plain_text(str(value))


def format_row(values: Sequence[Any]) -> list[str]:
    """One metric's values with the same decimals: 4 only when every non-zero float is below 1."""
    floats = [v for v in values if isinstance(v, float) and not isinstance(v, bool) and v != 0]
    decimals = 4 if floats and all(abs(v) < 1 for v in floats) else 2
    return [format_value(value, decimals) for value in values]


def metric_rows(name: str, values: Sequence[Any]) -> list[tuple[str, list[str]]]:
    """One metric as a table's rows: ``(label, cells)``, the seats' values side by side.

    A metric whose values are dicts is a small table: one row per key (``accuracy by tier:
    entry``), a seat without that key showing '-', and "none" where a seat's dict is empty.
    """
    if not any(isinstance(value, Mapping) for value in values):
        return [(label(name), format_row(values))]
    keys: list[Any] = []
    for value in values:
        if isinstance(value, Mapping):
            keys += [key for key in value if key not in keys]
    if not keys:
        return [(label(name), ["none" if isinstance(v, Mapping) else format_value(v) for v in values])]
    return [
        (
            f"{label(name)}: {label(str(key))}",
            format_row([value.get(key) if isinstance(value, Mapping) else _blank(value) for value in values]),
        )
        for key in keys
    ]


def _blank(value: Any) -> Any:
    """A non-dict value beside dicts: a blank cell stays blank (an episode's metric shown once), else '-'."""
    return "" if value == "" else None
