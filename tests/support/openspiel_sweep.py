"""The OpenSpiel sweep: every registered game, each yes/no and choice option at each value: played or refused.

Each configuration ends one of three ways: ``refused`` with the one line Arena gives (an
unloadable game, a combination the library refuses, moves it cannot list, chance the seed
does not decide), ``played`` when an episode played through the game's contract (``create``,
``sample_action``, ``apply``) and the same episode rebuilt from its stored JSON (as a
resume, an export and the replay screen rebuild it) show every seat the same and store the
same history, or ``bug``
with what went wrong: anything else. Replays are short (:data:`STEPS`); the test and
``bench/openspiel_sweep.py`` both read :func:`sweep`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from arena.plugins.games import UnknownGameError, get_game

STEPS = 12
"""Steps the episode plays (fewer if the game ends first)."""
SEED = 7
"""The episode seed the sweep plays (not the adapter's own check seed)."""
BASE: dict[str, dict[str, Any]] = {"bridge_uncontested_bidding": {"num_redeals": 1}}
"""Whole-number options the sweep sets below their defaults, why measured: the end of an uncontested
bidding auction solves its ``num_redeals`` deals double dummy, ~0.75 s CPU each here, so the
default 10 made this one game ~50 of the sweep's ~55 CPU seconds."""


@dataclass(frozen=True)
class Outcome:
    """One configuration's end: ``played``, ``refused`` or ``bug``, with the line said (empty when played)."""

    game: str
    options: tuple[tuple[str, Any], ...]
    kind: str
    line: str = ""

    @property
    def label(self) -> str:
        """``game`` or ``game name=value`` (the configuration)."""
        settings = " ".join(f"{name}={value}" for name, value in self.options)
        return f"{self.game} {settings}".strip()


def registered() -> list[str]:
    """Every game the installed library registers (loadable or not)."""
    import pyspiel

    return sorted(game_type.short_name for game_type in pyspiel.registered_games())


def configurations(definition: Any, base: dict[str, Any]) -> list[dict[str, Any]]:
    """``base`` (the defaults unless :data:`BASE` says), then each yes/no and choice option's other values."""
    found: list[dict[str, Any]] = [dict(base)]
    for option in definition.options:
        if isinstance(option.default, bool):
            values: tuple[Any, ...] = (not option.default,)
        else:
            values = tuple(value for value in option.choices if value != option.default)
        found += [{**base, option.name: value} for value in values]
    return found


def sweep(names: list[str] | None = None) -> list[Outcome]:
    """The outcome of every configuration of every game in ``names`` (all registered ones by default)."""
    outcomes = []
    for name in names if names is not None else registered():
        try:
            definition = get_game(f"openspiel:{name}")
        except UnknownGameError as exc:
            outcomes.append(Outcome(name, (), "refused", str(exc)))
            continue
        for options in configurations(definition, BASE.get(name, {})):
            outcomes.append(_outcome(definition, name, options))
    return outcomes


def _outcome(definition: Any, name: str, options: dict[str, Any]) -> Outcome:
    settings = tuple(options.items())
    try:
        definition.parse_options(options)
    except ValueError as exc:
        return Outcome(name, settings, "refused", str(exc))
    try:
        played, final = _episode(definition, options)
        again = definition.state_from_json(final.to_json())  # a resume's, an export's and a replay's path
    except Exception as exc:
        return Outcome(name, settings, "bug", f"{type(exc).__name__}: {exc}".splitlines()[0])
    if _position(again) != played[-1] or again.to_json() != final.to_json():
        return Outcome(name, settings, "bug", f"the stored episode of seed {SEED} rebuilds another position")
    return Outcome(name, settings, "played")


def _episode(definition: Any, options: dict[str, Any]) -> tuple[list[Any], Any]:
    """Every seat's observation and the stored state at each step of a random episode, and its last state."""
    state = definition.create(SEED, options)
    moves = random.Random(SEED)
    seen = [_position(state)]
    for _ in range(STEPS):
        if state.over():
            break
        state.apply({seat: state.sample_action(seat, moves) for seat in state.pending()})
        seen.append(_position(state))
    return seen, state


def _position(state: Any) -> tuple[Any, ...]:
    views = tuple(state.observation(seat).model_dump_json() for seat in state.seats)
    stored = state.to_json()
    return (
        views,
        stored["history"],
        str(state.spiel),
        tuple(state.returns().values()) if state.over() else (),
    )
