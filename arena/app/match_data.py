"""Screen data of a running match, fed by the runner's events (a plain observer).

The match screen only reads this object. It keeps the history rows, each seat's stated
reasons and usage, the deciding seats and the final results; ``revision`` grows with
every change so the screen redraws only when something happened.

While a person plays, the screen must not show what their seat may not know: the rule
is :mod:`arena.engine.audience`, shared with the console. The other seats' reasons, actions and
scores stay hidden (``visible_seats``) until the episode is over (with several people at
one screen, every seat's), and the board is the game's own rendering for the human's seat.

Games whose action has a free-text ``message`` field (cheap talk addressed to the other
seats) also get a conversation: every move with what its seat said. Such moves are public
by that field's contract, so they are shown to everyone, in the history too (each side's
offers); a private ``reason`` never is.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from arena.contract.game import GameState, SeatResult
from arena.contract.records import (
    EpisodeEnded,
    EpisodeStarted,
    EpisodeStatus,
    Event,
    Observer,
    SeatInfo,
    StepStarted,
    TurnRecord,
    TurnsRecorded,
)
from arena.contract.usage import NO_USAGE, Usage
from arena.engine.audience import (
    MESSAGE_FIELD,
    Audience,
    has_message_field,
    move_without_message,
    public_move,
)

HIDDEN_VIEW = "hidden"
HIDDEN_REASON = "(reason hidden until the end)"
"""The reason cell of another seat's public move while a person plays."""
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
SPINNER_SECONDS = 0.1
"""How long each spinner frame shows (the match screen redraws its status this often)."""
"""Board viewer meaning: show nothing (several people share the screen, none is acting)."""


@dataclass(slots=True)
class HistoryRow:
    """One decision as the history table shows it (text still untrusted)."""

    index: int
    step: int
    seat: str
    action_text: str
    reason: str
    flags: str


@dataclass(slots=True)
class ReasonLine:
    """A stated reason as it arrived, with what the decision cost."""

    step: int
    reason: str
    action_text: str
    flags: str
    usage: Usage
    latency: float
    timed: bool = True
    """Whether the latency means something: not for a scripted baseline, whose time is the machine's load."""
    thinking: str | None = None
    """The thinking the model returned beside the reason (``None``: none), shown under it in the pane."""


@dataclass(slots=True)
class ChatLine:
    """One move in the conversation: who made it, the move itself and what they said (untrusted)."""

    step: int
    seat: str
    move: str
    message: str


@dataclass(slots=True)
class SeatStats:
    """Running totals for one seat: what it spent, and the match view's facts beside it."""

    seat: str
    player: str
    kind: str
    decisions: int = 0
    usage: Usage = NO_USAGE
    latency_total: float = 0.0
    last_latency: float = 0.0
    fallbacks: int = 0
    reasked: int = 0

    @property
    def scripted(self) -> bool:
        """A baseline: it answers at once, so its time is the machine's, not a decision's."""
        return self.kind == "baseline"

    @property
    def mean_latency(self) -> float:
        """Average seconds per decision."""
        return self.latency_total / self.decisions if self.decisions else 0.0

    def summary(self) -> str:
        """``120+40 tok (90 cached) · $0.0012 · 0.84s (avg 0.91s) · 1 fallback``."""
        parts = []
        usage = self.usage
        if usage.spent:
            parts += [usage.tokens_text(), usage.cost_text()]
        parts.append(f"{self.last_latency:.2f}s (avg {self.mean_latency:.2f}s)")
        if self.fallbacks:
            parts.append(f"{self.fallbacks} fallback{'s' if self.fallbacks != 1 else ''}")
        if self.reasked:
            parts.append(f"{self.reasked} re-asked")
        return " · ".join(parts)


def turn_flags(turn: TurnRecord) -> str:
    """``FALLBACK (schema)``, ``re-asked (illegal)`` or empty."""
    if turn.fallback:
        return f"FALLBACK ({turn.error})"
    if turn.error:
        return f"re-asked ({turn.error})"
    return ""


@dataclass
class MatchData(Observer):
    """Everything the match screen shows, kept up to date by :meth:`__call__`."""

    game_name: str
    seats: list[str]
    players: dict[str, str]
    human_seats: list[str] = field(default_factory=list)
    status: str = "starting"
    message: str = ""
    episode_id: int | None = None
    source: GameState | None = None
    """The runner's state (the app owns the runner); shown as :attr:`game` once the episode started."""
    game: GameState | None = None
    history: list[HistoryRow] = field(default_factory=list)
    reasons: dict[str, list[ReasonLine]] = field(default_factory=dict)
    stats: dict[str, SeatStats] = field(default_factory=dict)
    deciding: list[str] = field(default_factory=list)
    deciding_since: float = 0.0
    clock: Callable[[], float] = time.monotonic
    """Where waiting times are read (tests freeze it so screens are reproducible)."""
    results: dict[str, SeatResult] | None = None
    has_messages: bool = False
    chat: list[ChatLine] = field(default_factory=list)
    steps_done: int = 0
    revision: int = 0
    state_revision: int = 0

    def __post_init__(self) -> None:
        for seat in self.seats:
            self.reasons.setdefault(seat, [])
            self.stats.setdefault(seat, SeatStats(seat, self.players.get(seat, "?"), ""))

    # -- the observer -------------------------------------------------------------------
    def __call__(self, event: Event) -> None:
        """Observer: fold one runner event into the screen data."""
        if isinstance(event, TurnsRecorded):
            self._turns(event.turns)
            if self.has_messages and self.game is not None:
                self._chat(self.game, event.turns)
            self.steps_done = event.step + 1
            self.deciding = []
        elif isinstance(event, StepStarted):
            self.deciding = list(event.seats)
            self.deciding_since = self.clock()
        elif isinstance(event, EpisodeStarted):
            self._started(event.seats, event.episode_id)
        elif isinstance(event, EpisodeEnded):
            self.status = event.status
            self.message = event.message
            self.results = event.results
            self.deciding = []
        self.revision += 1
        self.state_revision += 1

    def _started(self, seats: tuple[SeatInfo, ...], episode_id: int | None) -> None:
        self.game = self.source
        if self.game is not None:
            self.has_messages = has_message_field(self.game)
        self.episode_id = episode_id
        self.status = EpisodeStatus.RUNNING
        for info in seats:
            self.players[info.seat] = info.spec
            self.stats[info.seat] = SeatStats(info.seat, info.spec, info.kind)

    def _turns(self, turns: tuple[TurnRecord, ...]) -> None:
        for turn in turns:
            flags = turn_flags(turn)
            self.history.append(
                HistoryRow(turn.index, turn.step, turn.seat, turn.action_text, turn.reason, flags)
            )
            usage = turn.usage
            self.reasons.setdefault(turn.seat, []).append(
                ReasonLine(
                    turn.step,
                    turn.reason,
                    turn.action_text,
                    flags,
                    usage,
                    turn.latency,
                    timed=not (turn.seat in self.stats and self.stats[turn.seat].scripted),
                    thinking=turn.thinking,
                )
            )
            stats = self.stats[turn.seat]
            stats.decisions += 1
            stats.usage += usage
            stats.latency_total += turn.latency
            stats.last_latency = turn.latency
            stats.fallbacks += int(turn.fallback)
            stats.reasked += int(bool(turn.error) and not turn.fallback)

    def _chat(self, game: GameState, turns: tuple[TurnRecord, ...]) -> None:
        for turn in turns:
            said = turn.action.get(MESSAGE_FIELD)
            move = move_without_message(game, turn.seat, turn.action, turn.action_text)
            self.chat.append(ChatLine(turn.step, turn.seat, move, said if isinstance(said, str) else ""))

    def fail(self, message: str) -> None:
        """The match could not start or crashed outside the runner."""
        if self.status in (EpisodeStatus.RUNNING, "starting"):
            self.status = EpisodeStatus.FAILED
        self.message = message
        self.revision += 1
        self.state_revision += 1

    def touch(self) -> None:
        """Something outside the game changed (controls, a human turn): redraw, keep the board."""
        self.revision += 1

    # -- what may be shown --------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the episode ended, however it ended."""
        return self.status not in (EpisodeStatus.RUNNING, "starting")

    @property
    def audience(self) -> Audience:
        """The people at this screen: the human seats."""
        return Audience(tuple(self.human_seats))

    @property
    def secret(self) -> bool:
        """True while a person plays: the others' hidden information stays hidden."""
        return self.audience.secret(over=self.over)

    def visible_seats(self) -> list[str]:
        """Seats whose reasons, actions and scores may be shown now."""
        audience = self.audience
        return [seat for seat in self.seats if audience.sees_private(seat, over=self.over)]

    def board_viewer(self, acting: str | None) -> str | None:
        """The viewer to render the board for: ``None`` is the full view.

        One person: that seat's view. Several people at one keyboard: the view of the
        seat whose form is open, else nothing (:data:`HIDDEN_VIEW`).
        """
        if not self.secret:
            return None
        if len(self.human_seats) == 1:
            return self.human_seats[0]
        return acting if acting in self.human_seats else HIDDEN_VIEW

    def visible_history(self, start: int = 0) -> list[HistoryRow]:
        """History rows from ``start`` (an index into :attr:`history`) that may be shown.

        Another seat's turn while a person plays is its public move only (a bargain's offers
        and messages are public), its reason and flags held back; in a game without public
        moves it is left out, as at the console.
        """
        visible = set(self.visible_seats())
        rows = []
        for row in self.history[start:]:
            if row.seat in visible:
                rows.append(row)
                continue
            move = public_move(self.game, row.action_text) if self.game is not None else None
            if move is not None:
                rows.append(HistoryRow(row.index, row.step, row.seat, move, HIDDEN_REASON, ""))
        return rows

    def score_series(self) -> dict[str, list[float]]:
        """The game's score over time for the visible seats."""
        if self.game is None:
            return {}
        visible = set(self.visible_seats())
        return {
            seat: list(values)
            for seat, values in self.game.definition.view.score_series(self.game).items()
            if seat in visible
        }

    def progress(self) -> tuple[int, int]:
        """(units done, units expected) in the game's own unit (days, cards drawn), else (steps done, 0)."""
        if self.game is not None:
            done, total = self.game.definition.view.progress(self.game)
            if total:
                return done, total
        return self.steps_done, 0

    def step_number(self) -> int:
        """The step people see, 1-based: the one being played (the form's), or the last once over.

        The stored ``step`` and ``idx`` stay 0-based; every person-facing count adds one.
        """
        return self.steps_done if self.over else self.steps_done + 1

    def status_line(self) -> str:
        """``running · step 29 · 7/40 cards · seller deciding ⠹ 12s`` (trusted text only).

        The step is the form's (:meth:`step_number`); the game's progress has its own unit
        beside it: "step 7/40" next to a form's "step 29" counted cards, not steps.
        """
        done, total = self.progress()
        parts = [self.status, f"step {self.step_number()}"]
        if total and self.game is not None:
            unit = self.game.definition.view.progress_unit
            parts.append(f"{done}/{total} {unit}" if unit else f"{done}/{total} done")
        waiting = self.waiting_line()
        if waiting:
            parts.append(waiting)
        return " · ".join(parts)

    def waiting_line(self) -> str:
        """Who the match waits for and for how long: people and models, never a baseline.

        A baseline answers at once, so naming it as "deciding" would only flicker.
        """
        if self.over or not self.deciding:
            return ""
        people = [seat for seat in self.deciding if seat in self.human_seats]
        thinking = [
            seat
            for seat in self.deciding
            if seat not in people and seat in self.stats and not self.stats[seat].scripted
        ]
        parts = []
        if people:
            parts.append(f"your move ({', '.join(people)})")
        if thinking:
            elapsed = max(0.0, self.clock() - self.deciding_since)
            spinner = SPINNER[int(elapsed / SPINNER_SECONDS) % len(SPINNER)]
            parts.append(f"{', '.join(thinking)} deciding {spinner} {elapsed:.0f}s")
        return " · ".join(parts)

    def result_rows(self) -> tuple[list[str], list[list[Any]]]:
        """Seats side by side: the header (seat labels) and rows (metric, values...)."""
        if not self.results:
            return [], []
        seats = list(self.results)
        rows: list[list[Any]] = [["score", *(self.results[s].score for s in seats)]]
        names: list[str] = []
        for result in self.results.values():
            names += [name for name in result.metrics if name not in names]
        for name in names:
            rows.append([name, *(self.results[s].metrics.get(name) for s in seats)])
        return seats, rows
