"""The one record type: a turn and the episode events, as frozen pydantic models.

The runner builds these; the recorder's row, ``arena export``, the CLI's lines and the
app's views read them (or, for stored episodes, the field lists declared here). Events
carry no live game: a seat's view is its typed observation (an immutable snapshot), and
whoever owns the runner reads its state for the spectator's view.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Protocol, Self

from pydantic import BaseModel, ConfigDict, Field

from arena.contract.game import GameState, SeatResult
from arena.contract.unvalidated import unvalidated
from arena.contract.usage import Usage


class EpisodeStatus:
    """Values of ``episodes.status``."""

    RUNNING = "running"
    FINISHED = "finished"
    ABORTED = "aborted"
    BUDGET_EXCEEDED = "budget_exceeded"
    FAILED = "failed"
    PLAYER_FAILED = "player_failed"
    """A seat's provider kept refusing its requests (see ``EpisodeRunner``): no scores."""
    LOST = "lost"
    """A seat's player was lost with its cluster worker mid-episode: its tournament plays it again."""


_FIELD_ORDER: dict[type[BaseModel], tuple[tuple[str, ...], set[str]]] = {}


class Record(BaseModel):
    """Base of every record: frozen, no extra fields, any Python value allowed."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    @classmethod
    def trusted(cls, **values: Any) -> Self:
        """A record from every field's value, given in field order and already of its type.

        The runner's hot path: it builds records from typed values, and validating them again
        (or ``model_construct``) would cost more than writing the row. Tests validate the
        records it builds (``tests/contract/test_records.py``).
        """
        known = _FIELD_ORDER.get(cls)
        if known is None:
            known = _FIELD_ORDER[cls] = (tuple(cls.model_fields), set(cls.model_fields))
        order, names = known
        if tuple(values) != order:
            raise TypeError(f"{cls.__name__}.trusted needs every field in order: {', '.join(order)}")
        return unvalidated(cls, values, names)


class SeatInfo(Record):
    """Who holds a seat."""

    seat: str
    spec: str
    kind: str
    config: dict[str, Any] = Field(default_factory=dict)
    """The player's resolved configuration (see :func:`arena.contract.playerconfig.seat_configuration`)."""


class Attempt(Record):
    """One try at a decision that was not used as given."""

    raw: str
    action: dict[str, Any] | None
    error: str
    detail: str
    sampling: dict[str, Any] | None = None


class TurnRecord(Record):
    """One decision of one seat. Field order is the order ``arena export`` writes a turn in.

    ``action_text`` is stored but not exported; ``observation`` and ``state`` are stored as
    a digest and rebuilt on read (:mod:`arena.store.episode_log`).
    """

    index: int
    step: int
    seat: str
    observation: dict[str, Any]
    prompt: str | None
    prompt_version: str | None
    """The prompt template's version when a prompt was rendered (``None`` otherwise)."""
    action: dict[str, Any]
    reason: str
    raw: str
    valid: bool
    fallback: bool
    error: str | None
    error_detail: str
    attempts: tuple[Attempt, ...]
    usage: Usage
    """What the decision cost, its attempts added (stored as :data:`arena.contract.usage.USAGE_COLUMNS`)."""
    latency: float
    state: dict[str, Any]
    sampling: dict[str, Any] | None = None
    """Sampling settings sent for the decision that was used (``None``: nothing was sent)."""
    served: dict[str, Any] | None = None
    """What the provider said served the call (model id, ``system_fingerprint``, model file), stored
    only on a seat's first turn that reports it and when it changes (``None``: as before, or unknown)."""
    action_text: str = ""
    revised: bool = False
    """The reply used held several different answers and its last one was played (models only)."""
    system: str | None = None
    """The system message the model was sent, verbatim: stored on a seat's first model turn of the
    episode and when it changes (``None``: as before, or no model); its SHA-256 is what a report cites."""
    thinking: str | None = None
    """The thinking the provider returned beside the reply (reasoning summary, thinking blocks,
    ``reasoning_content``; a note for encrypted or redacted thinking), every attempt's; apart
    from ``reason`` and never shown to another seat (``None``: none returned)."""


class EpisodeStarted(Record):
    """An episode is about to take its first turn; it already has its id when one is stored."""

    game: str
    seed: int
    options: dict[str, Any]
    seats: tuple[SeatInfo, ...]
    episode_id: int | None = None
    tournament_id: int | None = None
    slot_key: str | None = None
    resumed_at_step: int | None = None
    """``None``: a new episode. Else a stored episode goes on at this step (0-based): the turns of
    the steps before it follow at once as :class:`TurnsRecorded` events, as they were recorded."""


class StepStarted(Record):
    """These seats are now deciding; ``observations`` is what each of them sees."""

    step: int
    seats: tuple[str, ...]
    observations: dict[str, BaseModel]


class TurnsRecorded(Record):
    """One step's decisions were applied; ``turns`` holds one record per deciding seat."""

    step: int
    turns: tuple[TurnRecord, ...]


class EpisodeEnded(Record):
    """The episode stopped: finished, aborted, over budget or failed."""

    status: str
    results: dict[str, SeatResult]
    message: str = ""
    usage: dict[str, Usage] = Field(default_factory=dict)
    """Each seat's usage over the episode."""


Event = EpisodeStarted | StepStarted | TurnsRecorded | EpisodeEnded


class Observer(ABC):
    """Told every event of an episode as it happens: subclass it and implement ``__call__``."""

    wants_steps: bool = True
    """False: never told :class:`StepStarted` (the runner then need not build it each step when no one
    else wants it)."""

    @abstractmethod
    def __call__(self, event: Event) -> None:
        """Take one event."""


class CallbackObserver(Observer):
    """A function as an observer: told every event (``wants_steps`` as given)."""

    def __init__(self, callback: Callable[[Event], None], *, wants_steps: bool = True) -> None:
        self.callback = callback
        self.wants_steps = wants_steps

    def __call__(self, event: Event) -> None:
        self.callback(event)


TURN_FIELDS: tuple[str, ...] = tuple(TurnRecord.model_fields)


class EpisodeSink(Protocol):
    """Where an episode is stored: opened (giving its id) or reopened (a resumed episode) before the
    first event, then fed every event but :class:`StepStarted` (nothing to store until the step's
    turns are recorded) and but the turns a resumed episode had recorded already."""

    def open(
        self,
        game: GameState,
        seats: tuple[SeatInfo, ...],
        options: dict[str, Any],
        *,
        tournament_id: int | None,
        slot_key: str | None,
    ) -> int:
        """Create the stored episode; returns its id."""
        ...

    def reopen(self, episode_id: int, seats: tuple[SeatInfo, ...]) -> int:
        """Take up stored episode ``episode_id`` again (it is resumed); returns its id."""
        ...

    def __call__(self, event: Event) -> None:
        """Store one event of the opened episode."""
        ...
