"""Checks of the numbers a person types, shared by the CLI and the app: seeds, budgets, ids.

Seeds and ids are stored as SQLite INTEGER, a signed 64-bit number, so anything outside
that range is refused up front with a one-line message instead of failing in the store.
Every game takes any such seed (each seeds its own ``random.Random`` with it).
"""

from __future__ import annotations

import math

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


def seed_problem(seed: int) -> str | None:
    """Why ``seed`` cannot be used (outside signed 64 bits), or ``None``."""
    if INT64_MIN <= seed <= INT64_MAX:
        return None
    return f"seed must fit in a signed 64-bit integer ({INT64_MIN} to {INT64_MAX}), got {seed}"


def parse_seed(text: str) -> int:
    """The seed in ``text``; ``ValueError`` with a one-line message if it is not a usable one."""
    try:
        seed = int(text.strip())
    except ValueError:
        raise ValueError(f"seed must be an integer, got {text.strip()!r}") from None
    problem = seed_problem(seed)
    if problem:
        raise ValueError(problem)
    return seed


def in_int64(value: int) -> bool:
    """True if ``value`` can be an SQLite INTEGER (an episode id, a limit)."""
    return INT64_MIN <= value <= INT64_MAX


def budget_problem(max_cost_usd: float | None, max_tokens: int | None) -> str | None:
    """Why a budget cannot be used, or ``None``.

    Negative limits and a cost that is not a finite number are refused. Zero is allowed
    and means what it says: the episode stops after the first step that spends any
    dollars (or tokens); baselines and people spend nothing, so they play on.
    """
    if max_cost_usd is not None and (not math.isfinite(max_cost_usd) or max_cost_usd < 0):
        return f"--budget-usd must be a number of dollars, 0 or more, got {max_cost_usd:g}"
    if max_tokens is not None and max_tokens < 0:
        return f"--budget-tokens must be a whole number of tokens, 0 or more, got {max_tokens}"
    return None
