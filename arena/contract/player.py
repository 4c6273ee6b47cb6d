"""The player contract: what a seat-holder receives and what it must answer.

Players only choose actions; the game computes every outcome. A player never raises
because of bad model output: it returns a :class:`Decision` whose ``error`` says what
went wrong, and the runner takes it from there (re-ask once, then fall back).
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pydantic import BaseModel

from arena.contract.usage import NO_USAGE, Usage


class ErrorClass(enum.StrEnum):
    """Why a decision could not be used as it was given."""

    UNPARSABLE = "unparsable"
    SCHEMA = "schema"
    ILLEGAL = "illegal"
    REFUSAL = "refusal"
    TRUNCATED = "truncated"
    OVERSIZED = "oversized"
    """The reply was longer than :data:`MAX_REPLY_CHARS`: stored cut (:func:`cut_reply`), re-asked once."""
    TIMEOUT = "timeout"
    RATE_LIMITED = "rate_limited"
    PROVIDER_ERROR = "provider_error"
    AUTH_ERROR = "auth_error"
    PLAYER_CRASH = "player_crash"


MAX_REPLY_CHARS = 65_536
"""The longest reply (characters) a decision may use and the store keeps whole. A game's action is
a few hundred characters; a longer reply is a model gone astray (one of 2.76 MB was once stored
as ~7 MB, and its replay step took 9.6 s to draw)."""


def cut_reply(raw: str) -> str:
    """``raw`` cut to :data:`MAX_REPLY_CHARS` characters in all, ending with a note of its full length."""
    if len(raw) <= MAX_REPLY_CHARS:
        return raw
    note = f"\n…[reply cut by Arena: {len(raw):,} characters in all, the first {{kept:,}} kept]"
    kept = MAX_REPLY_CHARS - len(note.format(kept=MAX_REPLY_CHARS))
    return raw[:kept] + note.format(kept=kept)


def oversized(decision: Decision, length: int) -> Decision:
    """``decision`` refused for its reply's ``length``: no action, its raw text cut, the rest kept."""
    decision.action = None
    decision.reason = ""
    decision.raw = cut_reply(decision.raw)
    decision.error = ErrorClass.OVERSIZED
    decision.error_detail = (
        f"the reply was {length:,} characters, above the {MAX_REPLY_CHARS:,} a reply may have;"
        " answer with only the JSON object"
    )
    return decision


class PlayerSetupError(Exception):
    """A player cannot take its seat at all (missing key, bad key, extra not installed).

    Raised before the first turn so the match stops with a clear message instead of
    thirty fallbacks later.
    """


class FatalPlayerError(Exception):
    """A player can no longer play (for instance its key was revoked mid-match)."""


class SeatLostError(FatalPlayerError):
    """A seat's player was lost with the cluster worker that held it, mid-episode.

    The runner ends the episode ``lost``: neither the game nor a player was at fault, so a
    tournament plays it again without counting it against the slot's retries.
    """


class UserLeft(Exception):
    """The person at the console left: their input ended, or they closed the output.

    Raised by a human seat or by a front end's observer. The runner ends the episode
    ``aborted`` with this message: leaving is not a failure of the game or a player.
    """


@dataclass(slots=True)
class Decision:
    """A player's answer to one :class:`DecisionRequest`.

    ``action`` is whatever the player produced: a pydantic model, a plain mapping, or
    ``None`` when nothing usable came back (then ``error`` says why). The runner
    validates it against the game's action model and rules. ``permanent`` marks a
    provider error that retrying will not fix (HTTP 400/404...): a run of them ends the
    episode ``player_failed``. ``sampling`` holds the sampling settings actually sent;
    ``served`` what the provider says answered the call (model id, fingerprint, model file).
    ``revised`` marks a reply that held several different answers, of which ``action`` is the last.
    ``system`` is the system message the call was sent with, verbatim (models only).
    ``thinking`` is the thinking the provider returned beside the reply (a reasoning summary,
    thinking blocks), apart from the stated ``reason`` and never shown to another seat.
    """

    action: BaseModel | dict[str, Any] | None
    reason: str = ""
    raw: str = ""
    usage: Usage = NO_USAGE
    latency: float = 0.0
    error: ErrorClass | None = None
    error_detail: str = ""
    permanent: bool = False
    sampling: dict[str, Any] | None = None
    served: dict[str, Any] | None = None
    revised: bool = False
    system: str | None = None
    thinking: str | None = None


@dataclass
class DecisionRequest:
    """Everything a seat may know when it must act, and nothing more.

    ``observation`` is the game's typed observation of the seat (the same object the
    prompt is filled from).

    ``prompt`` is rendered on first access, so scripted players never pay for it; the
    runner stores it only when it was rendered. ``feedback`` carries the validation
    error of the previous attempt when the runner asks a second time, ``feedback_error``
    its class. ``check`` runs the game's rule check on a candidate action (a human form uses
    it to explain a wrong entry inline and let the person correct it). ``episode`` names the
    episode (unique in the process): a player that keeps state across turns keys it by ``(episode, seat)``.
    """

    game: str
    seat: str
    step: int
    observation: BaseModel
    rules: str
    action_model: type[BaseModel]
    render_prompt: Callable[[], str]
    prompt_version: str
    feedback: str | None = None
    attempt: int = 1
    feedback_error: ErrorClass | None = None
    """Why the previous attempt failed (``unparsable``, ``illegal``, ``truncated``...) on a re-ask."""
    check: Callable[[BaseModel], str | None] | None = None
    caution: Callable[[BaseModel], str | None] | None = None
    """For a person: why a legal action deserves a second thought (asked as "…; go ahead? y/N")."""
    entry_note: Callable[[str, str], str | None] | None = None
    """For a person: the game's line on an entry as typed, by field name and text (a running total)."""
    form_choices: Callable[[str], tuple[str, ...] | None] | None = None
    """For a person: the choices a field offers now, where fewer than declared are legal (or None)."""
    episode: str = ""

    @cached_property
    def prompt(self) -> str:
        """The game's prompt for this seat now (one template for every provider)."""
        return self.render_prompt()

    def prompt_if_rendered(self) -> str | None:
        """The prompt if a player asked for it, else ``None``."""
        return self.__dict__.get("prompt")

    def json_schema(self) -> dict[str, Any]:
        """JSON schema of a legal action (for structured output)."""
        return self.action_model.model_json_schema()


@dataclass(frozen=True, slots=True)
class ClusterWork:
    """How a cluster executor runs a player whose decisions compute in-process (an offline model).

    ``replicas`` workers each load the player once and answer one decision at a time, so no
    more than ``replicas`` of its decisions run at once anywhere in the cluster; each worker
    reserves ``cpus`` of its node's CPUs.
    """

    replicas: int = 1
    cpus: float = 1.0


class Player(ABC):
    """Anything that can hold a seat: a model, a scripted baseline or a human. Subclass it.

    ``spec`` is what the seat is stored as (``seats.player``) and ``kind`` its category
    (``baseline``, ``human``, ``model``). Every capability the engine reads is declared here
    with its default, so a player overrides only what it has.
    """

    spec: str = ""
    kind: str = "baseline"
    instant: bool = False
    """True promises that :meth:`decide` never waits on anything (a scripted player): the runner
    then asks such seats one after another without creating a task per decision. A player that
    may await must leave it ``False``."""

    async def prepare(self) -> None:
        """Check the player can play at all; raise :class:`PlayerSetupError` if not (default: nothing)."""
        return None

    @abstractmethod
    async def decide(self, request: DecisionRequest) -> Decision:
        """Choose an action for ``request.seat``."""

    async def close(self) -> None:
        """Release clients, models, sockets (default: nothing to release)."""
        return None

    @property
    def failure_limit(self) -> int | None:
        """Permanent provider errors in a row that end the episode; ``None`` (default): the runner's."""
        return None

    def configuration(self) -> dict[str, Any] | None:
        """The player as it will play, stored per seat (:mod:`arena.contract.playerconfig`).

        ``None`` (default): its kind and spec stand for it.
        """
        return None

    def disclosed_settings(self) -> dict[str, Any] | None:
        """Settings a tournament report discloses for a player with no stored configuration (default none)."""
        return None

    def cluster_work(self) -> ClusterWork | None:
        """How a cluster executor should run this player's decisions on its workers.

        ``None`` (default): the player stays with the tournament's head, since it computes
        nothing itself (a scripted player) or waits on a server that scales on its own.
        """
        return None

    def decides_from_request_alone(self, request: DecisionRequest) -> bool:
        """True when a fresh copy of this player, built as it was, would decide ``request`` as it will.

        A cluster executor that loses the worker holding a seat's player mid-episode asks the
        decision again of a fresh copy when this holds. ``False`` (default) is for a player that
        its earlier decisions changed (a transcript memory, a random generator drawn from, a
        re-ask that shows its previous reply): its episode is then played again from the start,
        never on with a player that forgot what it had done.
        """
        return False

    def share_transport(self, prepared: Player) -> bool:
        """Borrow the connections of ``prepared``, the player a tournament prepared once for this one.

        Returns whether it did (default: nothing to share).
        """
        return False
