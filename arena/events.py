"""Typed events the episode runner emits; the recorder, the CLI and the app consume them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from arena.game import GameState, SeatResult
from arena.player import Usage


class EpisodeStatus:
    """Values of ``episodes.status``."""

    RUNNING = "running"
    FINISHED = "finished"
    ABORTED = "aborted"
    BUDGET_EXCEEDED = "budget_exceeded"
    FAILED = "failed"
    PLAYER_FAILED = "player_failed"
    """A seat's provider kept refusing its requests (see ``EpisodeRunner``): no scores."""


@dataclass(slots=True)
class SeatInfo:
    """Who holds a seat."""

    seat: str
    spec: str
    kind: str
    config: dict[str, Any] = field(default_factory=dict)
    """The player's resolved configuration (see :func:`arena.playerconfig.seat_configuration`)."""


@dataclass(slots=True)
class Attempt:
    """One try at a decision that was not used as given."""

    raw: str
    action: dict[str, Any] | None
    error: str
    detail: str
    sampling: dict[str, Any] | None = None


@dataclass(slots=True)
class TurnRecord:
    """One decision of one seat, as stored in the ``turns`` table."""

    index: int
    step: int
    seat: str
    observation: dict[str, Any]
    prompt: str | None
    raw: str
    action: dict[str, Any]
    action_text: str
    reason: str
    valid: bool
    fallback: bool
    error: str | None
    error_detail: str
    attempts: list[Attempt]
    usage: Usage
    latency: float
    state: dict[str, Any]
    sampling: dict[str, Any] | None = None
    """Sampling settings sent for the decision that was used (``None``: nothing was sent)."""


@dataclass(slots=True)
class EpisodeStarted:
    """An episode is about to take its first turn."""

    game: GameState
    seed: int
    options: dict[str, Any]
    seats: list[SeatInfo]
    tournament_id: int | None = None
    slot_key: str | None = None
    episode_id: int | None = None


@dataclass(slots=True)
class StepStarted:
    """These seats are now deciding."""

    step: int
    seats: list[str]
    game: GameState


@dataclass(slots=True)
class TurnsRecorded:
    """One step's decisions were applied; ``turns`` holds one record per deciding seat."""

    step: int
    turns: list[TurnRecord]
    game: GameState


@dataclass(slots=True)
class EpisodeEnded:
    """The episode stopped: finished, aborted, over budget or failed."""

    status: str
    results: dict[str, SeatResult]
    message: str = ""
    usage: dict[str, Usage] = field(default_factory=dict)


Event = EpisodeStarted | StepStarted | TurnsRecorded | EpisodeEnded
Observer = Callable[[Event], None]
