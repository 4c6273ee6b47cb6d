"""Many random Cattle Trade games with the conservation rules checked after every step.

Shared by the test suite (a few hundred games) and ``bench/cattle_random.py`` (10,000).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from games.cattle.definition import DEFINITION

MODES = ("canonical", "sealed", "sequential")


@dataclass
class SweepResult:
    """What a sweep of random games came to."""

    games: int = 0
    steps: int = 0
    decisions: int = 0
    end_reasons: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


def sweep(players: int, auction: str, seeds: range, *, checked: bool = True) -> SweepResult:
    """Play one random game per seed; with ``checked`` the invariants are checked at every step."""
    result = SweepResult()
    for seed in seeds:
        state = DEFINITION.create(seed, {"players": players, "auction": auction})
        rng = random.Random(f"sweep:{seed}")
        steps = 0
        while not state.over():
            pending = state.pending()
            if not pending:
                result.problems.append(f"seed {seed}: not over, but nobody to move")
                break
            state.apply({seat: state.sample_action(seat, rng) for seat in pending})
            steps += 1
            result.decisions += len(pending)
            if checked:
                problem = state.table.invariant_problem()
                if problem:
                    result.problems.append(f"seed {seed} step {steps}: {problem}")
                    break
        result.games += 1
        result.steps += steps
        result.end_reasons[state.table.end_reason or "unfinished"] += 1
    return result
