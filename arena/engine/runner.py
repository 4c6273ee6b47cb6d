"""The asyncio episode runner: drives any game with any players and emits events.

The runner asks every pending seat at once, validates each answer against the game's
action model and rules, re-asks once with the validation error when an answer is
unparsable or illegal, and otherwise substitutes the game's conservative fallback
(``on_invalid="fallback"``, the default) or, with ``on_invalid="forfeit"``, ends the
episode with that seat forfeiting it when its answers were unusable (unparsable, against
the schema, illegal, cut off) after the re-ask. A misbehaving player never raises out of
the runner; an interrupted episode ends ``aborted`` and the interruption propagates.

A failing seat is never scored. Every decision that ends on the fallback, whatever the
cause (connection, timeout, 5xx, 429 after retries, refusal, unparsable, illegal), counts
towards the seat's run of failures; ``failure_limit`` in a row (default 3; a player's own
``failure_limit`` wins) end the episode ``player_failed``, and so does an episode in which
a model seat made no valid decision of its own. :attr:`EpisodeOutcome.failure` says which
seat, since when and why, so a tournament can stop seating a player whose server stopped
answering.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel, ValidationError

from arena.contract.game import GameState, SeatResult
from arena.contract.player import (
    MAX_REPLY_CHARS,
    Decision,
    DecisionRequest,
    ErrorClass,
    FatalPlayerError,
    Player,
    SeatLostError,
    UserLeft,
    oversized,
)
from arena.contract.playerconfig import seat_configuration
from arena.contract.records import (
    Attempt,
    EpisodeEnded,
    EpisodeSink,
    EpisodeStarted,
    EpisodeStatus,
    Event,
    Observer,
    SeatInfo,
    StepStarted,
    TurnsRecorded,
)
from arena.contract.usage import Usage
from arena.contract.validation_errors import one_line
from arena.engine.resume import NotResumable, ResumePoint
from arena.engine.run_control import Budget, RunControl
from arena.engine.turns import PendingTurn, stored_record
from arena.plugins.blame import blame
from arena.store.observation_dump import ObservationDumper

YIELD_EVERY = 0.002
"""Seconds an episode of scripted players may run before it yields to the event loop."""
YieldPoint = Callable[[], Awaitable[None]]
"""What an episode awaits when it yields the event loop between steps (see :func:`next_loop_turn`)."""


async def next_loop_turn() -> None:
    """The default yield point: let everything else that is ready on the event loop run once."""
    await asyncio.sleep(0)


DEFAULT_FAILURE_LIMIT = 3
"""Failed decisions in a row (each ended on the fallback) that end an episode ``player_failed``."""
_turns_recorded = TurnsRecorded.trusted
"""Looked up once: reading an attribute of a pydantic model class goes through its metaclass."""
REASK_ERRORS = frozenset(
    {ErrorClass.UNPARSABLE, ErrorClass.SCHEMA, ErrorClass.ILLEGAL, ErrorClass.TRUNCATED, ErrorClass.OVERSIZED}
)
"""Failures of the answer itself: re-asked once; then the fallback, or a forfeit under ``forfeit``."""
SERVER_ERRORS = frozenset({ErrorClass.TIMEOUT, ErrorClass.RATE_LIMITED, ErrorClass.PROVIDER_ERROR})
"""Failures that say the player's server did not answer (connection, timeout, 5xx, 429 after retries)."""
ON_INVALID = ("fallback", "forfeit")
"""What an unusable answer after the re-ask leads to: the game's fallback, or a forfeit of the episode."""


@dataclass(frozen=True, slots=True)
class SeatFailure:
    """Why a seat ended its episode ``player_failed``: its last failure and when its run of failures began."""

    seat: str
    spec: str
    error: str
    detail: str
    since: float
    """Wall-clock time (``time.time()``) of the first failed decision of the run that ended the episode."""

    @property
    def server_down(self) -> bool:
        """The last failure says the player's server stopped answering (not a bad answer)."""
        return self.error in SERVER_ERRORS


@dataclass(slots=True)
class EpisodeOutcome:
    """How an episode ended."""

    status: str
    results: dict[str, SeatResult]
    episode_id: int | None
    message: str = ""
    usage: dict[str, Usage] = field(default_factory=dict)
    failure: SeatFailure | None = None
    """The seat that could not play, when the episode ended ``player_failed``."""
    forfeited: str | None = None
    """The seat that forfeited the episode (``on_invalid="forfeit"``), if one did."""


def failure_message(error: BaseException) -> str:
    """What a ``failed`` episode stores for the exception that stopped it: the plugin whose bug
    it is and where, when a game, player kind or provider raised it."""
    blamed = blame(error)
    if blamed is not None:
        return blamed.message(error)
    return f"{type(error).__name__}: {error}"


_EPISODE_KEYS = itertools.count(1)
"""Numbers the episodes run in this process (players key per-episode state by it)."""


def decision_request(
    game: GameState,
    seat: str,
    step: int,
    episode: str = "",
    observation: BaseModel | None = None,
    rules: str | None = None,
) -> DecisionRequest:
    """What ``seat`` is asked now: its observation, rules, action model, prompt and rule check.

    ``observation`` is ``game.observation(seat)`` and ``rules`` the definition's rules for
    the seat, when the caller already has them.
    """
    definition = game.definition
    if observation is None:
        observation = game.observation(seat)
    if rules is None:
        rules = definition.rules(game.options, seat)
    return DecisionRequest(
        episode=episode,
        game=definition.name,
        seat=seat,
        step=step,
        observation=observation,
        rules=rules,
        action_model=game.action_model(seat),
        render_prompt=lambda: definition.prompt(observation, rules),
        prompt_version=definition.prompt_version,
        check=lambda action: game.validate(seat, action),
        caution=lambda action: definition.view.caution(game, seat, action),
        entry_note=lambda name, text: definition.view.entry_note(game, seat, name, text),
        form_choices=lambda name: definition.view.form_choices(game, seat, name),
    )


class EpisodeRunner:
    """Runs one episode of ``game`` with ``players`` (one per seat)."""

    def __init__(
        self,
        game: GameState,
        players: dict[str, Player],
        observers: list[Observer],
        *,
        options: dict[str, Any] | None = None,
        budget: Budget | None = None,
        control: RunControl | None = None,
        tournament_id: int | None = None,
        slot_key: str | None = None,
        failure_limit: int = DEFAULT_FAILURE_LIMIT,
        on_invalid: str = "fallback",
        prepare_players: bool = True,
        sink: EpisodeSink | None = None,
        yield_point: YieldPoint = next_loop_turn,
        resume: ResumePoint | None = None,
    ) -> None:
        missing = [seat for seat in game.seats if seat not in players]
        if missing:
            raise ValueError(f"no player for seat(s): {', '.join(missing)}")
        self.game = game
        self.players = players
        self.observers = observers
        self.options = options or {}
        self.budget = budget or Budget()
        self.control = control
        self.tournament_id = tournament_id
        self.slot_key = slot_key
        self.prepare_players = prepare_players
        self.sink = sink
        # A front end sharing the loop may pass one that waits while it answers its user.
        self.yield_point = yield_point
        self._last_yield = 0.0
        self.usage = {seat: Usage() for seat in game.seats}
        self.fallbacks = dict.fromkeys(game.seats, 0)
        self.invalid = dict.fromkeys(game.seats, 0)
        self.decisions = dict.fromkeys(game.seats, 0)
        self.revised = dict.fromkeys(game.seats, 0)
        # A model's own decisions that equal the game's fallback, or the first listed option of every
        # choice: "legal" is not "chose" (issue 47.5). Counted as decided, and again on a resume's replay.
        self.same_as_fallback = dict.fromkeys(game.seats, 0)
        self.first_option = dict.fromkeys(game.seats, 0)
        self.failure_limit = failure_limit
        if on_invalid not in ON_INVALID:
            raise ValueError(f"on_invalid must be one of {', '.join(ON_INVALID)}, not {on_invalid!r}")
        self.on_invalid = on_invalid
        self.failure_streak = dict.fromkeys(game.seats, 0)
        self.last_failure: dict[str, tuple[str, str]] = dict.fromkeys(game.seats, ("", ""))
        self.failing_since = dict.fromkeys(game.seats, 0.0)
        self.failure: SeatFailure | None = None
        self.forfeited: str | None = None
        self.episode_id: int | None = None
        self.seat_configs: dict[str, dict[str, Any]] = {}
        self._turn_index = 0
        self._dumper = ObservationDumper()
        self._rules: dict[str, str] = {}
        self._served: dict[str, dict[str, Any]] = {}
        """What each seat's provider last said served it: a turn stores ``served`` only when it changes."""
        self._system: dict[str, str] = {}
        """The system message each seat was last sent: a turn stores ``system`` only when it changes."""
        self.episode_key = f"{game.name}-{game.seed}-{next(_EPISODE_KEYS)}"
        self.resume = resume
        """A stored episode this runner continues (``game`` is still at its start), or ``None``."""
        self._first_step = 0

    def _emit(self, event: Event) -> None:
        if self.sink is not None:
            self.sink(event)
        for observer in self.observers:
            observer(event)

    async def run(self) -> EpisodeOutcome:
        """Prepare every player, play to the end and report how it ended.

        Raises :class:`arena.contract.player.PlayerSetupError` before anything is recorded if a
        player cannot play at all.
        """
        if self.prepare_players:
            for player in self.players.values():
                await player.prepare()
        self.seat_configs = {seat: seat_configuration(p, self.game) for seat, p in self.players.items()}
        seats = tuple(
            SeatInfo(seat=seat, spec=p.spec, kind=p.kind, config=self.seat_configs[seat])
            for seat, p in self.players.items()
        )
        caught_up: list[TurnsRecorded] = []
        resume = self.resume
        if resume is not None:
            resume.check_players(self.seat_configs)
            caught_up = await self._catch_up(resume)
            self.episode_id = resume.episode_id
            if self.sink is not None:
                self.sink.reopen(resume.episode_id, seats)
        elif self.sink is not None:
            self.episode_id = self.sink.open(
                self.game, seats, self.options, tournament_id=self.tournament_id, slot_key=self.slot_key
            )
        self._emit(
            EpisodeStarted(
                game=self.game.name,
                seed=self.game.seed,
                options=self.options,
                seats=seats,
                episode_id=self.episode_id,
                tournament_id=self.tournament_id,
                slot_key=self.slot_key,
                resumed_at_step=resume.steps if resume is not None else None,
            )
        )
        for event in caught_up:  # already stored: the front ends only
            for observer in self.observers:
                observer(event)
        status, message = EpisodeStatus.FINISHED, ""
        try:
            status, message = await self._play()
            if resume is not None and not message:  # the record says the episode was played in parts
                message = f"resumed at step {resume.steps + 1}"
        except UserLeft as exc:
            status, message = EpisodeStatus.ABORTED, str(exc)
        except (asyncio.CancelledError, KeyboardInterrupt):
            self._end(EpisodeStatus.ABORTED, "interrupted")
            raise
        except BaseException as exc:
            self._end(EpisodeStatus.FAILED, failure_message(exc))
            raise
        return self._end(status, message)

    def _end(self, status: str, message: str) -> EpisodeOutcome:
        try:
            results = self.game.result()
        except Exception as exc:
            if status in (EpisodeStatus.FAILED, EpisodeStatus.ABORTED):
                results = {}  # the episode already stopped; a game that cannot score it leaves no results
            else:  # the game's result() raised: the episode ends failed with the error, which goes on up
                self._end(EpisodeStatus.FAILED, failure_message(exc))
                raise
        if self.forfeited is not None:
            # Kept as the game left it; tables rank the seat last and leave its metrics out.
            results[self.forfeited].metrics["forfeited"] = 1
        for seat, result in results.items():
            decisions = self.decisions[seat]
            result.metrics["fallbacks"] = self.fallbacks[seat]
            result.metrics["invalid_replies"] = self.invalid[seat]
            result.metrics["decisions"] = decisions
            result.metrics["fallback_rate"] = round(self.fallbacks[seat] / decisions, 4) if decisions else 0.0
            if self.players[seat].kind == "model":  # only a model's reply can hold several answers
                result.metrics["revised"] = self.revised[seat]
                own = decisions - self.fallbacks[seat]
                for name, counts in (
                    ("same_as_fallback", self.same_as_fallback),
                    ("first_option", self.first_option),
                ):
                    result.metrics[name] = counts[seat]
                    result.metrics[f"{name}_rate"] = round(counts[seat] / own, 4) if own else 0.0
        self._emit(EpisodeEnded(status=status, results=results, message=message, usage=dict(self.usage)))
        failure = self.failure if status == EpisodeStatus.PLAYER_FAILED else None
        return EpisodeOutcome(status, results, self.episode_id, message, self.usage, failure, self.forfeited)

    async def _play(self) -> tuple[str, str]:
        game, players = self.game, self.players
        # Fixed for the episode, so worked out once rather than every step.
        instant = all(player.instant for player in players.values())
        budgeted = self.budget.max_cost_usd is not None or self.budget.max_tokens is not None
        step_observers = [o for o in self.observers if o.wants_steps]
        step = self._first_step
        while not game.over():
            if self.control is not None:
                await self.control.before_step()
            elif time.perf_counter() - self._last_yield >= YIELD_EVERY:
                # Scripted players never await: let other episodes and a front end run.
                await self.yield_point()
                self._last_yield = time.perf_counter()
            seats = game.pending()
            observations = {seat: game.observation(seat) for seat in seats}
            if step_observers:  # a store has no use for it: no one to tell, nothing to build
                started = StepStarted.trusted(step=step, seats=tuple(seats), observations=observations)
                for observer in step_observers:
                    observer(started)
            inline = instant or len(seats) == 1 or all(players[s].instant for s in seats)
            try:
                if inline:
                    records = [await self._decide(seat, step, observations[seat]) for seat in seats]
                else:
                    records = list(
                        await asyncio.gather(
                            *(self._decide(seat, step, observations[seat]) for seat in seats)
                        )
                    )
            except SeatLostError as exc:
                return EpisodeStatus.LOST, str(exc)
            except FatalPlayerError as exc:
                return EpisodeStatus.FAILED, str(exc)
            game.apply({record.seat: record.action_model for record in records})
            for record in records:
                if record.served is not None:
                    self._served_once(record)
                if record.system is not None:
                    self._system_once(record)
            if self.sink is not None or self.observers:  # no one to tell: no records to build
                first, dumper = self._turn_index, self._dumper
                turns = tuple([record.record(first + at, game, dumper) for at, record in enumerate(records)])
                self._turn_index += len(turns)
                self._emit(_turns_recorded(step=step, turns=turns))
            step += 1
            forfeit = next((record for record in records if record.forfeit), None)
            if forfeit is not None:
                self.forfeited = forfeit.seat
                return EpisodeStatus.FINISHED, forfeit.forfeit
            if any(self.failure_streak.values()):
                broken = self._broken_seat()
                if broken:
                    return EpisodeStatus.PLAYER_FAILED, broken
            if budgeted:  # without a limit no total can cross it: skip summing
                reason = self.budget.exceeded(Usage.total(self.usage.values()))
                if reason:
                    return EpisodeStatus.BUDGET_EXCEEDED, reason
        idle = self._no_own_decision()
        if idle:
            return EpisodeStatus.PLAYER_FAILED, idle
        return EpisodeStatus.FINISHED, ""

    async def _catch_up(self, resume: ResumePoint) -> list[TurnsRecorded]:
        """Bring the game and the players to where the stored episode stopped; the steps' events.

        Every recorded step is applied to the game with its stored actions. A scripted seat is
        asked again as it was asked then (its generator and memory come back to where they were)
        and must answer the stored action; another seat's stored usage, re-asks and fallbacks are
        counted back in. Raises :class:`NotResumable` before anything is written if the record
        does not replay.
        """
        game = self.game
        events: list[TurnsRecorded] = []
        for rows in resume.recorded_steps():
            step = rows[0]["step"]
            seats = game.pending()
            if [row["seat"] for row in rows] != list(seats):
                raise NotResumable(
                    f"episode {resume.episode_id} does not replay: at step {step + 1} the game asks"
                    f" {', '.join(seats) or 'no one'}, the record has {', '.join(r['seat'] for r in rows)}"
                )
            observations = {seat: game.observation(seat) for seat in seats}
            actions = {}
            for row in rows:
                seat = row["seat"]
                action = game.action_model(seat).model_validate(row["action"])
                if self.players[seat].instant:
                    asked = await self._decide(seat, step, observations[seat])
                    if asked.action_model != action:
                        raise NotResumable(
                            f"episode {resume.episode_id} does not replay: seat {seat}'s"
                            f" {self.players[seat].spec} chose otherwise at step {step + 1} than recorded"
                            " (the player changed)"
                        )
                else:
                    self._count_stored(seat, row, resume.stored_usage(row))
                    if self.players[seat].kind == "model" and not row["fallback"]:
                        self._count_defaults(seat, action)  # as when it was decided: before it is applied
                actions[seat] = action
            game.apply(actions)
            turns = tuple(
                stored_record(row, observations[row["seat"]], game, resume.stored_usage(row)) for row in rows
            )
            events.append(_turns_recorded(step=step, turns=turns))
            for row in rows:
                if row["served"] is not None:
                    self._served[row["seat"]] = row["served"]
                if row.get("system") is not None:
                    self._system[row["seat"]] = row["system"]
            self._turn_index += len(rows)
        self._first_step = resume.steps
        return events

    def _count_stored(self, seat: str, row: dict[str, Any], usage: Usage) -> None:
        """Count a recorded decision of a seat that is not asked again (a model, a person)."""
        self.decisions[seat] += 1
        self.invalid[seat] += len(row["attempts"] or ())
        self.fallbacks[seat] += int(bool(row["fallback"]))
        self.revised[seat] += int(bool(row.get("revised")))
        self.usage[seat] += usage

    def _served_once(self, record: PendingTurn) -> None:
        """Keep ``record.served`` only when it differs from what its seat's provider said before."""
        served = record.served
        if self._served.get(record.seat) == served:
            record.served = None
        elif served is not None:
            self._served[record.seat] = served

    def _system_once(self, record: PendingTurn) -> None:
        """Keep ``record.system`` only when it differs from the system message its seat was sent before."""
        if self._system.get(record.seat) == record.system:
            record.system = None
        elif record.system is not None:
            self._system[record.seat] = record.system

    def _limit(self, seat: str) -> int:
        own = self.players[seat].failure_limit
        return own if own is not None and own > 0 else self.failure_limit

    def _broken_seat(self) -> str:
        """Why a seat cannot play (its run of failed decisions reached its limit), or ``""``."""
        for seat, streak in self.failure_streak.items():
            if streak and streak >= self._limit(seat):
                return self._fail(seat, f"could not play: {streak} decisions in a row failed")
        return ""

    def _no_own_decision(self) -> str:
        """Why the episode cannot be scored: a model seat none of whose decisions was its own, or ``""``."""
        for seat, player in self.players.items():
            decisions = self.decisions[seat]
            if player.kind == "model" and decisions and self.fallbacks[seat] == decisions:
                return self._fail(
                    seat, f"made no valid decision of its own: all {decisions} were the game's fallback"
                )
        return ""

    def _fail(self, seat: str, why: str) -> str:
        """Record ``seat`` as the one that could not play; the episode's message, its last failure quoted."""
        error, detail = self.last_failure[seat]
        spec = self.players[seat].spec
        self.failure = SeatFailure(seat, spec, error, detail, self.failing_since[seat])
        return f"seat {seat} ({spec}) {why}; last: {error}: {detail}"

    def _track_failures(self, seat: str, pending: PendingTurn) -> None:
        """Count a decision that ended on the fallback towards the seat's run; a valid one ends the run."""
        if not pending.fallback:
            self.failure_streak[seat] = 0
            return
        if not self.failure_streak[seat]:
            self.failing_since[seat] = time.time()
        self.failure_streak[seat] += 1
        last = pending.attempts[-1]
        self.last_failure[seat] = (last.error, last.detail)

    async def _decide(self, seat: str, step: int, observation: BaseModel) -> PendingTurn:
        game = self.game
        player = self.players[seat]
        rules = self._rules.get(seat)
        if rules is None:  # a function of the options and the seat: once per episode
            rules = self._rules[seat] = game.definition.rules(game.options, seat)
        request = decision_request(game, seat, step, self.episode_key, observation, rules)
        pending = PendingTurn(seat=seat, step=step, request=request)
        self.decisions[seat] += 1
        for attempt in (1, 2):
            if attempt == 2:
                failed = pending.attempts[-1]
                request = replace(
                    request, feedback=failed.detail, attempt=2, feedback_error=ErrorClass(failed.error)
                )
            started = time.perf_counter()
            try:
                decision = await player.decide(request)
            except (asyncio.CancelledError, KeyboardInterrupt, FatalPlayerError, UserLeft):
                raise
            except Exception as exc:  # a player's bug must not take the episode down
                decision = Decision(
                    None, error=ErrorClass.PLAYER_CRASH, error_detail=f"{type(exc).__name__}: {exc}"
                )
            if not decision.latency:
                decision.latency = time.perf_counter() - started
            if len(decision.raw) > MAX_REPLY_CHARS:  # any kind of player: stored cut, never used
                decision = oversized(decision, len(decision.raw))
            if pending.absorb(decision, request):
                self.usage[seat] += decision.usage
            action, error, detail = self._check(seat, decision)
            if action is not None:
                if player.kind == "model":
                    self._count_defaults(seat, action)
                pending.accept(action, decision)
                self.revised[seat] += int(decision.revised)
                self._track_failures(seat, pending)
                return pending
            pending.attempts.append(
                Attempt(
                    raw=decision.raw,
                    action=_as_dict(decision.action),
                    error=error,
                    detail=detail,
                    sampling=decision.sampling,
                )
            )
            self.invalid[seat] += 1
            if ErrorClass(error) not in REASK_ERRORS:
                break
        self.fallbacks[seat] += 1
        pending.accept(game.fallback(seat), None)
        last = pending.attempts[-1]
        if self.on_invalid == "forfeit" and ErrorClass(last.error) in REASK_ERRORS:
            # The step is still recorded (what the seat was asked and answered is kept, the fallback
            # marked as such), then the episode ends with this seat forfeiting it.
            pending.forfeit = (
                f"seat {seat} ({player.spec}) forfeited at step {step + 1}: no usable answer after the"
                f" re-ask ({last.error}: {last.detail})"
            )
        else:
            self._track_failures(seat, pending)
        return pending

    def _count_defaults(self, seat: str, action: BaseModel) -> None:
        """Count an own decision equal to the fallback, or to the first options (:func:`looks_default`)."""
        fallback, first = looks_default(self.game, seat, action)
        self.same_as_fallback[seat] += int(fallback)
        self.first_option[seat] += int(first)

    def _check(self, seat: str, decision: Decision) -> tuple[BaseModel | None, str, str]:
        if decision.error is not None and decision.action is None:
            return None, decision.error, decision.error_detail or decision.error
        if decision.action is None:
            return None, ErrorClass.UNPARSABLE, "no action in the reply"
        model = self.game.action_model(seat)
        action = decision.action
        if not isinstance(action, model):
            try:
                action = model.model_validate(_as_dict(action))
            except ValidationError as exc:
                return None, ErrorClass.SCHEMA, one_line(exc, whole="reply", limit=5)
        problem = self.game.validate(seat, action)
        if problem:
            return None, ErrorClass.ILLEGAL, problem
        return action, "", ""


FREE_TEXT_FIELDS = frozenset({"reason", "message"})
"""Fields left out when a decision is compared with the fallback: words beside the move."""


def looks_default(game: Any, seat: str, action: BaseModel) -> tuple[bool, bool]:
    """(equals the game's fallback now, picks the first listed option of every choice field).

    Choice fields are the moment's schema properties with an enum of two or more values; a
    decision without any is never "first option". Free text (reason, message) is ignored.
    """
    chosen = {k: v for k, v in action.model_dump().items() if k not in FREE_TEXT_FIELDS}
    fallback = game.fallback(seat).model_dump()
    same = all(fallback.get(k) == v for k, v in chosen.items())
    schema = game.action_model(seat).model_json_schema()
    defs = schema.get("$defs", {})
    firsts = {}
    for name, node in schema.get("properties", {}).items():
        if isinstance(node, dict) and "$ref" in node:  # an Enum class: its values are in $defs
            node = defs.get(str(node["$ref"]).rsplit("/", 1)[-1], {})
        values = node.get("enum") if isinstance(node, dict) else None
        if isinstance(values, list) and len(values) > 1:
            firsts[name] = values[0]
    first = bool(firsts) and all(chosen.get(name) == value for name, value in firsts.items())
    return same, first


def _as_dict(action: BaseModel | dict[str, Any] | None) -> dict[str, Any] | None:
    if action is None:
        return None
    if isinstance(action, BaseModel):
        return action.model_dump()
    return dict(action) if isinstance(action, dict) else {"value": action}
