"""The recorder: opens an episode in the store, then writes every event as it happens.

A turn row is the :class:`arena.contract.records.TurnRecord` in compact form, and this module is
the one place that says how: observation and state are left out, with a digest of the
state (both rebuilt on read by :mod:`arena.store.episode_log`), a reason that the action
repeats is stored once, the usage is flattened into its columns. The column list is
derived from the record's fields.

An episode with a model or a person in any seat has each step committed before the next
decision is asked for; an episode of baselines only lets its steps be grouped (see
:mod:`arena.store.database`): nothing was paid for them.
"""

from __future__ import annotations

import operator
from typing import Any

from arena import __version__
from arena.contract.game import GameState
from arena.contract.records import (
    TURN_FIELDS,
    EpisodeEnded,
    EpisodeStatus,
    Event,
    SeatInfo,
    TurnRecord,
    TurnsRecorded,
)
from arena.contract.usage import NO_USAGE, USAGE_COLUMNS, Usage
from arena.store.database import Store
from arena.store.turn_rows import dumps, dumps_bytes, state_digest

COLUMN_NAMES = {"index": "idx"}
"""Record fields whose column has another name."""
DIGESTED = ("observation", "state")
"""Record fields stored only through the turn's ``digest`` (the column holds NULL)."""
_PLAIN = tuple(name for name in TURN_FIELDS if name not in (*DIGESTED, "usage"))
TURN_COLUMNS: tuple[str, ...] = (
    "episode_id",
    *(COLUMN_NAMES.get(name, name) for name in _PLAIN),
    *USAGE_COLUMNS,
    *DIGESTED,
    "digest",
    "reason_in_action",
)
"""The ``turns`` columns the recorder writes, in the order of :func:`turn_row`'s values."""


# Read from the records' __dict__: item lookups cost half of attribute reads on pydantic models.
_plain_values = operator.itemgetter(*_PLAIN)
_ACTION, _VALID, _FALLBACK, _ERROR, _ATTEMPTS, _SAMPLING, _SERVED, _REVISED = (
    _PLAIN.index(name)
    for name in ("action", "valid", "fallback", "error", "attempts", "sampling", "served", "revised")
)


def turn_row(episode_id: int, turn: TurnRecord) -> list[Any]:
    """``turn`` as a compact row in :data:`TURN_COLUMNS` order.

    Everything a game or a player produced is encoded here, when the turn is recorded: a
    state that the game changes afterwards is stored as it was, and a value JSON cannot hold
    fails this turn.
    """
    values = turn.__dict__
    action, reason = values["action"], values["reason"]
    reason_in_action = bool(reason) and action.get("reason") == reason
    if reason_in_action:
        action = {key: value for key, value in action.items() if key != "reason"}
    plain = list(_plain_values(values))
    plain[_ACTION] = dumps(action)
    plain[_VALID] = int(values["valid"])
    plain[_FALLBACK] = int(values["fallback"])
    plain[_REVISED] = int(values["revised"])
    if values["error"] is not None:
        plain[_ERROR] = str(values["error"])
    attempts = values["attempts"]
    plain[_ATTEMPTS] = dumps([attempt.__dict__ for attempt in attempts]) if attempts else "[]"
    if values["sampling"] is not None:
        plain[_SAMPLING] = dumps(values["sampling"])
    if values["served"] is not None:
        plain[_SERVED] = dumps(values["served"])
    digest = state_digest(dumps_bytes(values["state"]))
    usage: Usage = values["usage"]
    return [episode_id, *plain, *usage.columns(), None, None, digest, int(reason_in_action)]


_BOOLEAN = frozenset(name for name, info in TurnRecord.model_fields.items() if info.annotation is bool)


def stored_turn(row: dict[str, Any]) -> dict[str, Any]:
    """A stored turn row (as :meth:`arena.store.database.Store.turns` returns it) keyed by :class:`TurnRecord`
    field, in field order: the inverse of :func:`turn_row` (usage a dict, flags booleans).

    Rows of older databases are read as they are (no validation), so they export unchanged.
    """
    turn: dict[str, Any] = {}
    for name in TURN_FIELDS:
        if name == "usage":
            turn["usage"] = {column: row[column] for column in USAGE_COLUMNS}
        else:
            value = row[COLUMN_NAMES.get(name, name)]
            turn[name] = bool(value) if name in _BOOLEAN else value
    return turn


class Recorder:
    """Writes an episode to a :class:`Store`, a step at a time.

    The runner calls :meth:`open` before its first event, so the episode id exists
    before the first turn and observers may come in any order.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.episode_id: int | None = None
        self.scripted = False
        """Every seat is a baseline: the episode's steps may be grouped into fewer commits."""

    def open(
        self,
        game: GameState,
        seats: tuple[SeatInfo, ...],
        options: dict[str, Any],
        *,
        tournament_id: int | None = None,
        slot_key: str | None = None,
    ) -> int:
        """Create the running episode and its seats (committed at once); returns its id."""
        definition = game.definition
        self.episode_id = self.store.create_episode(
            game=definition.name,
            game_version=definition.version,
            prompt_version=definition.prompt_version,
            arena_version=__version__,
            seed=game.seed,
            options=options,
            seats=[(s.seat, s.spec, s.kind) for s in seats],
            tournament_id=tournament_id,
            slot_key=slot_key,
            configs={s.seat: s.config for s in seats if s.config},
        )
        # A model's calls cost money and a person's time: their turns are never left waiting.
        self.scripted = all(s.kind == "baseline" for s in seats)
        return self.episode_id

    def reopen(self, episode_id: int, seats: tuple[SeatInfo, ...]) -> int:
        """Take up a stored, interrupted episode again: ``running`` under this process (committed at once)."""
        self.store.reopen_episode(episode_id)
        self.episode_id = episode_id
        self.scripted = all(s.kind == "baseline" for s in seats)
        return episode_id

    def __call__(self, event: Event) -> None:
        episode_id = self.episode_id
        if episode_id is None:
            return
        if isinstance(event, TurnsRecorded):
            rows = [turn_row(episode_id, turn) for turn in event.turns]
            self.store.add_turns(TURN_COLUMNS, rows, group=self.scripted)
        elif isinstance(event, EpisodeEnded):
            seats: dict[str, dict[str, Any]] = {}
            # A seat that could not play leaves no score for anyone (metrics stay, for the record).
            scored = event.status != EpisodeStatus.PLAYER_FAILED
            for seat, result in event.results.items():
                seats[seat] = {
                    "score": result.score if scored else None,
                    "metrics": result.metrics,
                    "usage": event.usage.get(seat, NO_USAGE),
                }
            self.store.finish_episode(episode_id, event.status, event.message, seats)
