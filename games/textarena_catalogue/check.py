"""The catalogue check: a candidate environment plays, alone and side by side, the same every time.

One function, :func:`check_candidate`, is shared by the catalogue test (every offered game, a
few seeds, short) and by ``bench/textarena_catalogue.py`` (every candidate, more seeds and
steps), which writes what passes to ``offered.json``: the listing is what passed. A game passes
when its ``random`` baseline (a listed move, or an example move where moves are not listed)
plays it without an error, the environment refuses none of the listed moves, and each seed's
episode is the same played twice alone and played interleaved with another seed's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.textarena_catalogue.listing import ListedEnv


@dataclass
class CheckResult:
    """What one candidate did under the check."""

    env_id: str
    seeds: tuple[int, ...]
    steps: dict[int, int] = field(default_factory=dict)
    """Steps played per seed (up to the cap)."""
    ended: int = 0
    """Seeds whose episode ended within the cap."""
    refused_listed: int = 0
    """Listed moves the environment refused (must be 0)."""
    alone_twice: bool = False
    side_by_side: bool = False
    error: str | None = None
    must_end: bool = False
    """Whether every seed's episode must end within the cap (the generator's rule: an episode that
    random play does not end could keep a tournament running for ever)."""
    cap: int = 0

    @property
    def passed(self) -> bool:
        """Whether the game may be offered."""
        ends = not self.must_end or self.ended == len(self.seeds)
        return (
            self.error is None
            and self.refused_listed == 0
            and self.alone_twice
            and self.side_by_side
            and ends
        )

    def reason(self) -> str:
        """Why it did not pass (one line)."""
        if self.error is not None:
            return f"fails Arena's catalogue check: {self.error}"
        if self.refused_listed:
            return f"fails Arena's catalogue check: TextArena refused {self.refused_listed} listed moves"
        if self.must_end and self.ended < len(self.seeds):
            return (
                f"fails Arena's catalogue check: random play did not end within {self.cap:,} moves on"
                f" {len(self.seeds) - self.ended} of {len(self.seeds)} seeds"
                " (TextArena sets it no move limit)"
            )
        return "fails Arena's catalogue check: the same seed did not give the same episode"


def _definition(entry: ListedEnv) -> Any:
    from games.textarena_catalogue.definition import make_definition

    return make_definition(entry)


def _trace(state: Any) -> dict[str, Any]:
    return {"json": state.to_json(), "returns": state.returns()}


def _step(state: Any, rng: random.Random) -> int:
    """One step of every pending seat with a random move; how many listed moves TextArena refused.

    Where the environment accepts no move at all (IndianPoker once a player's chips are below zero)
    nothing is listed, and the move sent then is not counted: its refusal is the environment's rule.
    """
    actions = {seat: state.sample_action(seat, rng) for seat in state.pending()}
    listed = {seat for seat, action in actions.items() if action.move in state.legal_moves(seat)}
    before = _refused(state)
    state.apply(actions)
    after = _refused(state)
    return sum(1 for seat in listed if after[seat] > before[seat])


def _refused(state: Any) -> dict[str, int]:
    """How many moves TextArena refused each seat so far."""
    return {seat: int(result.metrics.get("refused_moves", 0)) for seat, result in state.result().items()}


def _play(definition: Any, seed: int, cap: int, listed: bool) -> tuple[Any, int]:
    """An episode of ``seed`` played alone with random moves, and how many listed moves were refused."""
    state = definition.create(seed)
    rng = random.Random(seed)
    refused = 0
    while not state.over() and _steps(state) < cap:
        refused += _step(state, rng)
    return state, refused if listed else 0


def check_candidate(
    entry: ListedEnv, seeds: tuple[int, ...], cap: int, *, must_end: bool = False
) -> CheckResult:
    """Play ``entry`` on ``seeds`` (at most ``cap`` steps each) alone twice and side by side."""
    result = CheckResult(entry.env_id, seeds, must_end=must_end, cap=cap)
    try:
        definition = _definition(entry)
        listed = entry.listed_moves
        alone: dict[int, dict[str, Any]] = {}
        twice = []
        for seed in seeds:
            state, refused = _play(definition, seed, cap, listed)
            result.refused_listed += refused
            result.steps[seed] = _steps(state)
            result.ended += int(state.over())
            alone[seed] = _trace(state)
            twice.append(_trace(_play(definition, seed, cap, listed)[0]) == alone[seed])
        result.alone_twice = all(twice)
        states = {seed: definition.create(seed) for seed in seeds}
        rngs = {seed: random.Random(seed) for seed in seeds}
        while moving := [s for s in seeds if not states[s].over() and _steps(states[s]) < cap]:
            for seed in moving:  # one step of each in turn, the process's own draws in between
                _step(states[seed], rngs[seed])
                random.random()
        result.side_by_side = all(_trace(states[seed]) == alone[seed] for seed in seeds)
    except Exception as exc:  # a candidate's failure is its reason not to be offered
        text = str(exc).splitlines()[0][:120] if str(exc) else ""
        where = _library_line(exc)
        result.error = (f"{type(exc).__name__}: {text}" if text else type(exc).__name__) + where
    return result


def _steps(state: Any) -> int:
    """Steps taken so far (a race's steps, else the actions)."""
    return len(state.steps) if hasattr(state, "steps") else len(state.actions)


def _library_line(exc: BaseException) -> str:
    """`` (in TextArena's Stratego/env.py, _check_winner)``: the library frame that raised, if any."""
    import traceback

    frames = [
        f
        for f in traceback.extract_tb(exc.__traceback__)
        if "/textarena/" in f.filename and not f.name.startswith("<")
    ]
    if not frames:
        return ""
    last = frames[-1]
    short = last.filename.split("/textarena/", 1)[1]
    return f" (in TextArena's {short}, {last.name})"
