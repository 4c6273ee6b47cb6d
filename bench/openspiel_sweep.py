"""The OpenSpiel sweep, printed: every registered game with each yes/no and choice option at each value.

Each configuration is ``played`` (an episode and its rebuild from the stored JSON agree step
for step), ``refused`` with the one line Arena says, or ``bug`` (anything else). Prints the
counts, every line that is not ``played``, the sweep's CPU time, and what the replay check
that ``parse_options`` runs before an episode is stored costs per configuration (the
slowest ones named). The sweep is :func:`tests.support.openspiel_sweep.sweep`, the one
``tests/games/test_openspiel_sweep.py`` asserts on. Asserts nothing.

Usage: ``.venv/bin/python bench/openspiel_sweep.py``
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pydantic import BaseModel

from games.openspiel_catalogue import replay_check
from games.openspiel_catalogue.definition import OpenSpielDefinition
from tests.support.openspiel_sweep import registered, sweep


def main() -> None:
    names = registered()
    started = time.process_time()
    check_before = _check_seconds()
    outcomes = sweep(names)
    spent = time.process_time() - started
    counts = Counter(outcome.kind for outcome in outcomes)
    games = Counter(outcome.game for outcome in outcomes if outcome.kind == "played")
    print(f"open-spiel registered games: {len(names)}; configurations swept: {len(outcomes)}")
    print(
        f"played and replay-identical: {counts['played']} configurations of {len(games)} games;"
        f" refused: {counts['refused']}; bug: {counts['bug']}"
    )
    for outcome in outcomes:
        if outcome.kind != "played":
            print(f"  {outcome.kind}: {outcome.label}: {outcome.line}")
    checks = _check_seconds() - check_before
    print(f"sweep CPU: {spent:.2f} s (of which the adapter's replay checks {checks:.2f} s)")
    slowest = sorted(_TIMES.items(), key=lambda item: -item[1])[:5]
    print(
        "slowest replay checks: "
        + ", ".join(f"{label} {seconds * 1000:.0f} ms" for label, seconds in slowest)
    )
    median = sorted(_TIMES.values())[len(_TIMES) // 2] if _TIMES else 0.0
    print(f"replay checks: {len(_TIMES)}, median {median * 1000:.1f} ms CPU each")


_TIMES: dict[str, float] = {}
_checked = replay_check._checked


def _timed_check(definition: OpenSpielDefinition, options: BaseModel) -> str | None:
    started = time.process_time()
    try:
        return _checked(definition, options)
    finally:
        label = f"{definition.name} {definition.library_parameters(options)}"
        _TIMES[label] = time.process_time() - started


def _check_seconds() -> float:
    return sum(_TIMES.values())


replay_check._checked = _timed_check  # timing only: the same function runs


if __name__ == "__main__":
    main()
