"""The game contract every Arena game implements.

A game is seeded at construction and owns its random generators; it never touches the
global ``random``. It serves turn-based games (``pending()`` returns one seat) and
simultaneous moves (several seats) alike, with hidden information kept behind
``observation(seat)``. Games do not import Textual or any model SDK.
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel
from rich.console import RenderableType


@dataclass(slots=True)
class SeatResult:
    """A seat's final score and the game's metrics for it."""

    score: float
    metrics: dict[str, Any] = field(default_factory=dict)


def template_version(*parts: str) -> str:
    """A short, stable hash naming a prompt template (stored with every turn)."""
    digest = hashlib.sha256("\x1f".join(parts).encode()).hexdigest()
    return digest[:12]


class Game(ABC):
    """Base class of all games. Subclasses fill in the class variables and methods."""

    name: ClassVar[str]
    version: ClassVar[str]
    title: ClassVar[str]
    description: ClassVar[str]
    prompt_version: ClassVar[str]
    summary_metrics: ClassVar[tuple[str, ...]] = ()
    """The metrics tables lead with (suite reports); empty means every metric."""

    def __init__(self, seed: int, **options: Any) -> None:
        self.seed = seed
        self.options = options

    @property
    @abstractmethod
    def seats(self) -> tuple[str, ...]:
        """Seat names in play order."""

    @abstractmethod
    def pending(self) -> list[str]:
        """Seats that must act now (several for simultaneous moves, none when over)."""

    @abstractmethod
    def observation(self, seat: str) -> dict[str, Any]:
        """JSON-able view of exactly what ``seat`` may know now."""

    @abstractmethod
    def rules(self, seat: str) -> str:
        """The rules as ``seat`` is told them (plain text, no strategy hints)."""

    @abstractmethod
    def prompt(self, seat: str) -> str:
        """The model prompt for ``seat`` now: goal, rules and state from one template."""

    @abstractmethod
    def action_model(self, seat: str) -> type[BaseModel]:
        """Pydantic model of an action ``seat`` may submit now."""

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

    @abstractmethod
    def over(self) -> bool:
        """True once the episode has ended."""

    @abstractmethod
    def result(self) -> dict[str, SeatResult]:
        """Per-seat score and metrics (meaningful once over, defined at any time)."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """JSON-able full state, hidden information included."""

    @abstractmethod
    def turn_state(self, seat: str) -> dict[str, Any]:
        """JSON-able state stored with ``seat``'s turn row, right after ``apply``."""

    @abstractmethod
    def describe_action(self, seat: str, action: BaseModel) -> str:
        """A short human-readable line for an action (history tables, CLI output)."""

    @abstractmethod
    def render(self, viewer: str | None = None) -> RenderableType:
        """A Rich renderable of the state: the full view, or only what ``viewer`` sees."""

    def progress(self) -> tuple[int, int]:
        """(steps done, total steps expected) for progress displays."""
        return (0, 0)

    def score_series(self) -> dict[str, list[float]]:
        """Per-seat score over time (for charts); empty if not meaningful."""
        return {}

    def export_extra(self) -> dict[str, Any]:
        """Game-specific data ``arena export`` adds once the stored actions are replayed."""
        return {}
