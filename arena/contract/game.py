"""The game state contract: the rules of one episode in progress.

A state is made by its :class:`arena.contract.definition.GameDefinition` from a seed and options; it
owns its random generators and never touches the global ``random``. It serves turn-based
games (``pending()`` is one seat), simultaneous moves (several seats) and one-seat games
alike. What a seat may know is exactly ``observation(seat)``, a typed pydantic model that
feeds the prompt, every per-seat view and the baselines. Prompt templates and renderers
live with each game, outside this contract; the engine imports neither Rich nor Textual.
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Self

from pydantic import BaseModel

if TYPE_CHECKING:
    from arena.contract.definition import GameDefinition


@dataclass(slots=True)
class SeatResult:
    """A seat's final score and the game's metrics for it."""

    score: float
    metrics: dict[str, Any] = field(default_factory=dict)


def template_version(*parts: str) -> str:
    """A short, stable hash naming a prompt template (stored with every turn).

    The parts are remembered under the version, so a report can print the texts and the full
    SHA-256 this version is the start of (:func:`template_texts`).
    """
    digest = hashlib.sha256("\x1f".join(parts).encode()).hexdigest()
    _TEMPLATES[digest[:12]] = (digest, parts)
    return digest[:12]


_TEMPLATES: dict[str, tuple[str, tuple[str, ...]]] = {}


def template_texts(version: str) -> tuple[str, tuple[str, ...]] | None:
    """The full SHA-256 and the texts a :func:`template_version` ``version`` was made from, if made here.

    The full digest is of the parts joined by the unit separator (``\\x1f``), as the version is.
    """
    return _TEMPLATES.get(version)


class GameState(ABC):
    """One episode's state and rules. Subclasses implement the abstract methods.

    ``definition`` is the game this state belongs to, ``seed`` the episode seed and
    ``options`` the validated options model it was made with.
    """

    def __init__(self, definition: GameDefinition, seed: int, options: BaseModel) -> None:
        self.definition = definition
        self.seed = seed
        self.options = options

    # -- facts ------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The game's registered name."""
        return self.definition.name

    @property
    @abstractmethod
    def seats(self) -> tuple[str, ...]:
        """Seat names in play order (``definition.seats(options)``)."""

    # -- rules ------------------------------------------------------------------------
    @abstractmethod
    def pending(self) -> list[str]:
        """Seats that must act now (several for simultaneous moves, none when over)."""

    @abstractmethod
    def observation(self, seat: str) -> BaseModel:
        """Typed view of exactly what ``seat`` may know now."""

    @abstractmethod
    def action_model(self, seat: str) -> type[BaseModel]:
        """Pydantic model of an action ``seat`` may submit now (moment-dependent choices included)."""

    @abstractmethod
    def validate(self, seat: str, action: BaseModel) -> str | None:
        """Rule checks beyond the schema: an explanation if illegal, else ``None``."""

    @abstractmethod
    def fallback(self, seat: str) -> BaseModel:
        """The conservative legal action used when ``seat`` gives no legal one."""

    @abstractmethod
    def sample_action(self, seat: str, rng: random.Random) -> BaseModel:
        """A uniformly-ish random legal action (for random play and conformance)."""

    @abstractmethod
    def apply(self, actions: dict[str, BaseModel]) -> None:
        """Apply one legal action for every pending seat and advance the game."""

    def caution(self, seat: str, action: BaseModel) -> str | None:
        """A legal move a person should confirm first (``you will lose 7``), else ``None``."""
        return None

    def over(self) -> bool:
        """True once the episode has ended."""
        return not self.pending()

    def rewards(self) -> dict[str, float]:
        """Per-seat reward of the last step (default: change of score is not tracked, zeros)."""
        return dict.fromkeys(self.seats, 0.0)

    @abstractmethod
    def result(self) -> dict[str, SeatResult]:
        """Per-seat score (the return) and metrics; meaningful once over, defined at any time."""

    def returns(self) -> dict[str, float]:
        """Per-seat score: the ``score`` of :meth:`result`."""
        return {seat: result.score for seat, result in self.result().items()}

    # -- storage ----------------------------------------------------------------------
    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """JSON-able full state, hidden information included; ``from_json`` rebuilds it."""

    @classmethod
    @abstractmethod
    def from_json(cls, definition: GameDefinition, data: dict[str, Any]) -> Self:
        """The state :meth:`to_json` wrote."""

    def clone(self) -> Self:
        """An independent copy (through the JSON round trip, so nothing is shared)."""
        return type(self).from_json(self.definition, self.to_json())

    def snapshot(self) -> dict[str, Any]:
        """Alias of :meth:`to_json` (the full state as stored and exported)."""
        return self.to_json()

    @abstractmethod
    def turn_state(self, seat: str) -> dict[str, Any]:
        """JSON-able state stored with ``seat``'s turn row, right after ``apply``."""

    @abstractmethod
    def describe_action(self, seat: str, action: BaseModel) -> str:
        """A short human-readable line for an action (history tables, CLI output)."""

    # -- secrets ----------------------------------------------------------------------
    def with_sentinel(self, seat: str, sentinel: int) -> Self | None:
        """A copy where ``seat``'s private values read ``sentinel``; ``None`` if it has none.

        The conformance checker looks for the sentinel in every other seat's observation,
        prompt and view: finding it there is a leak.
        """
        return None

    # -- displays ---------------------------------------------------------------------
    def progress(self) -> tuple[int, int]:
        """(steps done, total steps expected) for progress displays."""
        return (0, 0)

    def score_series(self) -> dict[str, list[float]]:
        """Per-seat score over time (for charts); empty if not meaningful."""
        return {}

    def step_outcome(self, seat: str) -> str | None:
        """What the last step came to for ``seat``, in one line (``sold 27/27 ...``), if anything.

        Shown only to those who may see ``seat``'s private information.
        """
        return None

    def score_series_title(self) -> str:
        """What :meth:`score_series` plots, as the chart's title."""
        return "score"

    def export_extra(self) -> dict[str, Any]:
        """Game-specific data ``arena export`` adds once the stored actions are replayed."""
        return {}


Game = GameState
"""The name the engine used before contract v2 (kept for type hints in older code)."""
