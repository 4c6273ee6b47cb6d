"""Rebuilding what a compact turn row leaves out, from the episode's own log.

Every turn row stores the action that was used; the game is deterministic given its seed,
options and those actions. So the recorder stores a turn's observation (what the seat saw
when it decided) and state (the seat's view of the game after the step) as nothing but a
64-bit ``digest`` of the state, and this module rebuilds both by replaying the episode
exactly as the runner played it: for each step, every deciding seat's observation before
the step, then the step's actions applied together, then each seat's turn state. A rebuilt
state whose digest differs from the stored one is not trusted: the episode's rows get
``observation``/``state`` ``None`` and a ``rebuild_error`` (this happens only if the game's
rules changed without a version bump, which the golden playthroughs guard against).

Why the digest covers the state and not the observation: an observation is a function of
the state before its step and the seat, so replaying the very states that were played
gives the very observations, as long as that function is unchanged, which the committed
golden playthroughs (every pending seat's observation at every step) check for each game
version. Hashing the observation too cost a third of recording a scripted turn. The first
compact rows (schema 5-6) hold a digest of observation and state, and are checked as
such. Rows stored whole (older still) pass unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson

from arena.contract.game import GameDefinition
from arena.store.turn_rows import dumps_bytes, state_digest, turn_digest


def restore_action(row: dict[str, Any]) -> dict[str, Any]:
    """The action as the player chose it: a reason stored once comes back into the action."""
    action = dict(row["action"])
    if row.get("reason_in_action"):
        action["reason"] = row["reason"]
    return action


def hydrate(
    episode: dict[str, Any],
    rows: list[dict[str, Any]],
    definition: GameDefinition | None,
    *,
    observations: bool = True,
) -> list[dict[str, Any]]:
    """``rows`` with observation and state filled in wherever they were left out.

    ``definition`` is the episode's game as its caller found it (``None``: not installed); the
    log is replayed by it and by nothing looked up here. ``observations=False`` rebuilds the
    states only (observations stay ``None``; a third of the cost in bargain), unless the rows'
    digests cover the observation too (schema 5-6): then both are rebuilt.
    """
    for row in rows:
        row["action"] = restore_action(row)
    missing = [row for row in rows if row["observation"] is None or row["state"] is None]
    if not missing:
        return rows
    problem = _rebuild(episode, rows, definition, observations)
    if problem is _NEEDS_OBSERVATIONS:
        problem = _rebuild(episode, rows, definition, True)
    if problem:
        for row in missing:
            row["rebuild_error"] = problem
    return rows


def steps_of(rows: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """Stored turn rows (in order) grouped by step."""
    step: list[dict[str, Any]] = []
    for row in rows:
        if step and row["step"] != step[0]["step"]:
            yield step
            step = []
        step.append(row)
    if step:
        yield step


_NEEDS_OBSERVATIONS = "a digest covers the observation too"
"""What :func:`_rebuild` without observations returns for rows of the older digest scheme."""


def _rebuild(
    episode: dict[str, Any], rows: list[dict[str, Any]], definition: GameDefinition | None, observations: bool
) -> str:
    """Fill rows in place by replaying; returns what went wrong, or ``""``."""
    if definition is None:
        return f"cannot rebuild observations: game {episode['game']!r} is not installed"
    if definition.name != episode["game"]:
        return f"cannot rebuild observations: a {episode['game']} episode, given the game {definition.name}"
    installed = definition.version
    if episode["game_version"] != installed:
        return (
            f"cannot rebuild observations: recorded with {episode['game']} {episode['game_version']},"
            f" installed is {installed}"
        )
    try:
        game = definition.create(int(episode["seed"]), dict(episode["options"] or {}))
        for step in steps_of(rows):
            seen = {
                row["seat"]: dumps_bytes(game.observation(row["seat"]).model_dump(mode="json"))
                for row in step
                if observations
            }
            game.apply(
                {row["seat"]: game.action_model(row["seat"]).model_validate(row["action"]) for row in step}
            )
            for row in step:
                state = dumps_bytes(game.turn_state(row["seat"]))
                if row["observation"] is not None and row["state"] is not None:
                    continue
                if not observations:
                    if row["digest"] is not None and row["digest"] != state_digest(state):
                        return _NEEDS_OBSERVATIONS
                    row["state"] = orjson.loads(state)
                    continue
                observation = seen[row["seat"]]
                if row["digest"] is not None and not _proves(row["digest"], observation, state):
                    return f"rebuilt turn {row['idx']} does not match its digest; the rules changed"
                row["observation"] = orjson.loads(observation)
                row["state"] = orjson.loads(state)
    except Exception as exc:  # a log that no longer replays must not take the reader down
        return f"cannot rebuild observations: {type(exc).__name__}: {exc}"
    return ""


def _proves(digest: int, observation: bytes, state: bytes) -> bool:
    """Whether ``digest`` is the stored digest of this rebuilt turn (either scheme)."""
    return digest == state_digest(state) or digest == turn_digest(observation, state)
