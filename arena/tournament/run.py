"""Playing a tournament: create it, play its missing slots concurrently, resume it later.

A tournament is a stored :class:`TournamentConfig` plus the schedule it implies
(:func:`arena.tournament.schedule.schedule`). Each episode carries its slot key; a partial
unique index on ``episodes(tournament_id, slot_key) WHERE status = 'finished'`` means a slot
is counted at most once, whatever happens. Which slots are left is read from the database
each time, so resuming after Ctrl-C, a crash or ``kill -9`` plays only what is missing:

* a slot with a finished episode is done;
* a slot whose episodes were ``aborted`` (interrupted) or ``budget_exceeded`` (the
  tournament's budget, not the slot's fault) is played again on resume;
* a slot whose episode was ``lost`` with a cluster worker is played again at once, up to
  :data:`LOST_REPLAYS` times a run, without using up a retry;
* a slot whose episode ended ``failed`` (or any other failure status) is played again up to
  ``retries`` times (default once), then given up and reported as left out.

A player whose server stopped answering (an episode ended ``player_failed`` on a run of
connection errors, timeouts, 5xx or 429s) gets no new episode in this run: the run says so
once (:attr:`TournamentProgress.notices`: which player, since when, what error), plays the
slots without it to the end, and ends ``aborted`` so that ``arena tournament resume ID``
plays what it left.

Every player is prepared once per tournament (one key probe per model), then seated in
episodes without preparing again. Episodes run through an :class:`Executor`: the local one
runs up to ``concurrency`` episodes as tasks on the caller's event loop, and the runner
yields between steps, so a front end keeps its own loop responsive (no thread). Model
players keep their own per-model ``max_concurrency`` gate. A cluster executor
(:mod:`arena.tournament.cluster`) plays the episodes here too, and sends only the decisions
of the players it takes (:meth:`Executor.takes`, offline models) to its workers: every
turn is recorded in this process's store as its step ends, wherever it was decided.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from arena.contract.player import Player
from arena.contract.playerconfig import config_hash, seat_configuration
from arena.contract.records import EpisodeStatus, Event, Observer, TurnsRecorded
from arena.contract.usage import Usage, unpriced_seat
from arena.engine.lineup import build_player
from arena.engine.match import MatchConfig, prepare_runner
from arena.engine.run_control import Budget
from arena.engine.runner import SeatFailure, YieldPoint, next_loop_turn
from arena.plugins.games import get_game
from arena.plugins.players import SpecError, parse_player_spec
from arena.store.database import Store
from arena.tournament.config import TournamentConfig, TournamentConfigError
from arena.tournament.schedule import Slot, schedule

REPLAYABLE = frozenset(
    {EpisodeStatus.ABORTED, EpisodeStatus.BUDGET_EXCEEDED, EpisodeStatus.RUNNING, EpisodeStatus.LOST}
)
"""Episode statuses that do not use up a slot's retries (the slot was not at fault)."""
LOST_REPLAYS = 3
"""Times one run plays a slot again at once after its episode was ``lost`` with a cluster worker,
before a further loss counts as a failure (a cluster that keeps losing workers is given up on)."""


class TournamentNotFound(LookupError):
    """No tournament with that id in the database."""


@dataclass
class SlotState:
    """What the database says about one slot."""

    slot: Slot
    finished_episode: int | None = None
    failures: int = 0
    last_failure: str = ""
    lost: int = 0
    """Episodes of this slot lost with a cluster worker in this run (see :data:`LOST_REPLAYS`)."""

    @property
    def done(self) -> bool:
        """A finished episode counts for this slot."""
        return self.finished_episode is not None


@dataclass
class TournamentProgress:
    """Live figures of a running tournament (what progress bars and the app show)."""

    tournament_id: int
    total: int
    done: int = 0
    given_up: int = 0
    running: int = 0
    played_now: int = 0
    spend_usd: float = 0.0
    """The priced dollars spent (an unpriced model's are unknown: see ``unpriced_decisions``)."""
    unpriced_decisions: int = 0
    """Decisions made by a model with no price, whose dollars ``spend_usd`` cannot count."""
    started: float = field(default_factory=time.perf_counter)
    status: str = "running"
    message: str = ""
    prepared_at: float | None = None
    ended_at: float | None = None
    """When the run ended (however it ended): the rate stops there rather than decaying afterwards."""
    notices: list[str] = field(default_factory=list)
    """Things the run says once, in order (a player whose server stopped answering)."""

    @property
    def rate(self) -> float:
        """Episodes per second played by this run (up to its end, once it has ended)."""
        until = self.ended_at if self.ended_at is not None else time.perf_counter()
        elapsed = until - self.started
        return self.played_now / elapsed if elapsed > 0 else 0.0

    def spend_text(self) -> str:
        """``$0.0012``; with a model that has no price ``unpriced (40 decisions)`` or
        ``$0.0012 + 40 decisions unpriced``."""
        if not self.unpriced_decisions:
            return f"${self.spend_usd:.4f}"
        if not self.spend_usd:
            return f"unpriced ({self.unpriced_decisions} decisions)"
        return f"${self.spend_usd:.4f} + {self.unpriced_decisions} decisions unpriced"

    @property
    def eta_seconds(self) -> float | None:
        """Seconds left at the current rate, if known."""
        left = self.total - self.done - self.given_up
        return left / self.rate if self.rate > 0 else None


ProgressCallback = Callable[[TournamentProgress], None]


class Executor(Protocol):
    """Runs slot jobs, and may run some players' decisions elsewhere (a cluster's workers).

    The run calls :meth:`open` with the tournament's players once (those :meth:`takes`
    are not prepared here: the executor prepares them where they will play), seats each
    episode's players through :meth:`seat`, and calls :meth:`close` at the end.
    """

    def takes(self, player: Player) -> bool:
        """Whether this executor runs ``player``'s decisions itself (elsewhere)."""
        ...

    async def open(self, players: Mapping[str, Player]) -> None:
        """Get ready to play: connect, start workers for the players it takes and prepare them there."""
        ...

    def seat(self, text: str, player: Player) -> Player:
        """The player an episode seats for ``player`` (built for tournament player ``text``)."""
        ...

    async def run(self, jobs: Iterable[Slot], play: Callable[[Slot], Awaitable[None]]) -> None:
        """Call ``play`` for every job (in any order, some at once) until all are done."""
        ...

    async def close(self) -> None:
        """Release what :meth:`open` started (workers, a cluster connection)."""
        ...

    def describe(self) -> dict[str, Any]:
        """What played the run, for the tournament's record: ``{"executor": NAME, ...}``."""
        ...


class LocalExecutor:
    """Plays up to ``concurrency`` slots at once as tasks on the running event loop."""

    def __init__(self, concurrency: int) -> None:
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.concurrency = concurrency

    def takes(self, player: Player) -> bool:
        """Every player plays in this process."""
        return False

    async def open(self, players: Mapping[str, Player]) -> None:
        """Nothing to start."""
        return None

    def seat(self, text: str, player: Player) -> Player:
        """The player as built."""
        return player

    async def run(self, jobs: Iterable[Slot], play: Callable[[Slot], Awaitable[None]]) -> None:
        """Workers pull jobs from one iterator; the first error cancels the rest."""
        await play_concurrently(self.concurrency, jobs, play)

    async def close(self) -> None:
        """Nothing to release."""
        return None

    def describe(self) -> dict[str, Any]:
        """``{"executor": "local", "concurrency": N}``."""
        return {"executor": "local", "concurrency": self.concurrency}


async def play_concurrently(
    concurrency: int, jobs: Iterable[Slot], play: Callable[[Slot], Awaitable[None]]
) -> None:
    """``concurrency`` tasks on this loop pull jobs from one iterator; the first error cancels the rest."""
    queue = iter(jobs)

    async def worker() -> None:
        for job in queue:
            await play(job)

    try:
        async with asyncio.TaskGroup() as group:
            for _ in range(concurrency):
                group.create_task(worker())
    except BaseExceptionGroup as group_error:
        # One failure is the story; the others are its cancellations' echoes.
        raise group_error.exceptions[0] from None


def create_tournament(store: Store, config: TournamentConfig) -> int:
    """Check ``config`` against the game and store the tournament; returns its id.

    Raises :class:`TournamentConfigError` / :class:`SpecError` for anything that cannot be
    played (unknown game, option, baseline or player kind, a human seat, too few players).
    """
    slots = plan(config)
    return store.create_tournament(
        config.display_name(),
        config.game,
        # Where it plays is each run's choice (resume may play elsewhere): runs record it.
        {"kind": "tournament", "total": len(slots), **config.model_dump(mode="json", exclude={"cluster"})},
    )


def plan(config: TournamentConfig) -> list[Slot]:
    """The schedule ``config`` implies, after checking game, options and players."""
    definition = get_game(config.game)
    options = definition.resolve_options(config.options)
    seats = definition.create(0, options).seats
    for text in config.players:
        parsed = parse_player_spec(text)
        if parsed.kind == "human":
            raise TournamentConfigError("a tournament cannot seat a human; play one with: arena play")
        if parsed.kind == "baseline" and parsed.name not in definition.baselines:
            known = ", ".join(f"baseline:{name}" for name in definition.baselines)
            raise SpecError(f"{definition.name} has no baseline {parsed.name!r} (baselines: {known})")
    if len(seats) >= 2 and len(config.players) < 2:
        raise TournamentConfigError(f"{definition.name} has {len(seats)} seats: give at least two players")
    return schedule(seats, list(config.players), config.seeds, config.seed)


def load_tournament(store: Store, tournament_id: int) -> tuple[dict[str, Any], TournamentConfig]:
    """A tournament's row as stored and the validated configuration it holds (one read)."""
    row = store.tournament(tournament_id)
    if row is None:
        raise TournamentNotFound(f"no tournament {tournament_id} in {store.path}")
    stored = dict(row["config"])
    if stored.get("kind") != "tournament":
        raise TournamentConfigError(
            f"tournament {tournament_id} was made by arena suite; it cannot be resumed"
        )
    fields = {key: value for key, value in stored.items() if key in TournamentConfig.model_fields}
    return row, TournamentConfig.model_validate(fields)


def load_config(store: Store, tournament_id: int) -> TournamentConfig:
    """The stored configuration of a tournament."""
    return load_tournament(store, tournament_id)[1]


class TournamentBusy(RuntimeError):
    """The tournament is already being played (by this app or another process): nothing was played."""


def busy_message(tournament_id: int, pid: int) -> str:
    """The one line that says another process plays the tournament."""
    return f"tournament {tournament_id} is being played by another Arena process (pid {pid})"


def slot_states(store: Store, tournament_id: int, slots: Sequence[Slot]) -> list[SlotState]:
    """Each slot with its finished episode (if any) and its failures so far."""
    states = {slot.slot_key: SlotState(slot) for slot in slots}
    rows = store.conn.execute(
        "SELECT id, slot_key, status, message FROM episodes WHERE tournament_id = ? AND slot_key IS NOT NULL"
        " ORDER BY id",
        (tournament_id,),
    )
    for episode_id, key, status, message in rows:
        state = states.get(key)
        if state is None:
            continue
        if status == EpisodeStatus.FINISHED:
            state.finished_episode = episode_id
        elif status not in REPLAYABLE:
            state.failures += 1
            state.last_failure = f"{status}: {message}" if message else status
    return list(states.values())


class TournamentRun:
    """One run (first or resumed) of a stored tournament."""

    def __init__(
        self,
        store: Store,
        tournament_id: int,
        *,
        executor: Executor | None = None,
        progress: ProgressCallback | None = None,
        observers: Sequence[Observer] = (),
        models_config: Any = None,
        yield_point: YieldPoint = next_loop_turn,
    ) -> None:
        self.store = store
        self.tournament_id = tournament_id
        self.config = load_config(store, tournament_id)
        self.slots = plan(self.config)
        self.executor = executor or LocalExecutor(self.config.concurrency)
        """Plays the slots (a cluster executor: :func:`arena.tournament.cluster.executor_for`)."""
        self.on_progress = progress
        self.observers = list(observers)
        self.models_config = models_config
        self.yield_point = yield_point
        """What each episode awaits when it yields the loop between steps (a front end's may wait)."""
        self.states = slot_states(store, tournament_id, self.slots)
        self._by_key = {state.slot.slot_key: state for state in self.states}
        self.progress = TournamentProgress(tournament_id, total=len(self.slots))
        self.progress.done = sum(state.done for state in self.states)
        self.progress.given_up = sum(self._given_up(state) for state in self.states)
        self.progress.spend_usd = store.tournament_spend(tournament_id)
        self._prepared: dict[str, Player] = {}
        self.down: dict[str, SeatFailure] = {}
        """Players whose server stopped answering in this run, with the failure that showed it."""

    def _given_up(self, state: SlotState) -> bool:
        return not state.done and state.failures > self.config.retries

    def missing(self) -> list[SlotState]:
        """Slots still to play, in schedule order."""
        return [s for s in self.states if not s.done and not self._given_up(s)]

    def _budget_left(self) -> float | None:
        if self.config.budget_usd is None:
            return None
        return self.config.budget_usd - self.progress.spend_usd

    async def run(self) -> TournamentProgress:
        """Prepare the players, play every missing slot and record how the run ended.

        Raises :class:`TournamentBusy` (nothing played or written) if another live process plays
        the tournament, and :class:`arena.contract.player.PlayerSetupError` before any episode if
        a player cannot play. Ctrl-C or cancellation leaves the tournament ``aborted`` (resumable).
        """
        other = self.store.claim_tournament(self.tournament_id)
        if other is not None:
            raise TournamentBusy(busy_message(self.tournament_id, other))
        self._notify()
        try:
            await self._prepare_players()
            self._record_run()
            self.progress.prepared_at = time.perf_counter()
            await self.executor.run([state.slot for state in self.missing()], self._play_slot)
        except (asyncio.CancelledError, KeyboardInterrupt):
            self._finish(
                "aborted", "interrupted; resume with: arena tournament resume " + str(self.tournament_id)
            )
            raise
        except BaseException as exc:
            self._finish("failed", f"{type(exc).__name__}: {exc}")
            raise
        finally:
            await self._close_players()
            with contextlib.suppress(Exception):
                await self.executor.close()
        if self.progress.status == "budget_exceeded":
            self._finish("budget_exceeded", self.progress.message)
        elif self.down:
            left = len(self.missing())
            self._finish(
                "aborted",
                f"{'; '.join(down_line(text, failure) for text, failure in self.down.items())};"
                f" {left} slot(s) not played; continue with: arena tournament resume {self.tournament_id}",
            )
        elif self.missing():
            self._finish("aborted", "stopped before every slot was played")
        else:
            given_up = self.progress.given_up
            note = f"{given_up} slot(s) failed twice and were left out" if given_up else ""
            self._finish("finished", note)
        return self.progress

    def _player_down(self, text: str, failure: SeatFailure) -> None:
        """Seat ``text`` in no new episode of this run, and say so once."""
        if text in self.down:
            return
        self.down[text] = failure
        self.progress.notices.append(
            f"{down_line(text, failure)}: no new episodes for it; the others play on"
        )
        self._notify()

    def _finish(self, status: str, message: str) -> None:
        if self.progress.ended_at is None:
            self.progress.ended_at = time.perf_counter()
        self.progress.status = status
        self.progress.message = message
        self.store.finish_tournament(self.tournament_id, status, message)
        self._notify()

    def _notify(self) -> None:
        if self.on_progress is not None:
            self.on_progress(self.progress)

    async def _prepare_players(self) -> None:
        definition = get_game(self.config.game)
        sample = definition.create(0, definition.resolve_options(self.config.options))
        configs: dict[str, dict[str, Any]] = {}
        for text in self.config.players:
            player = build_player(
                text,
                definition,
                seed=self.config.seed,
                seat=sample.seats[0],
                models_config=self.models_config,
            )
            self._prepared[text] = player
            configs[text] = seat_configuration(player, sample)
        self._check_budget(configs)
        self._check_configurations(configs)
        for player in self._prepared.values():
            if not self.executor.takes(player):
                await player.prepare()
        await self.executor.open(self._prepared)

    def _record_run(self) -> None:
        """Add what plays this run (executor, cluster size) to the tournament's stored ``runs``."""
        row = self.store.tournament(self.tournament_id) or {}
        stored = dict(row.get("config") or {})
        stored["runs"] = [*stored.get("runs", []), self.executor.describe()]
        self.store.set_tournament_config(self.tournament_id, stored)

    def _check_budget(self, configs: dict[str, dict[str, Any]]) -> None:
        """A budget can only be kept when every model's spend is known: refuse unpriced models."""
        if self.config.budget_usd is None:
            return
        unpriced = [text for text, config in configs.items() if unpriced_seat(config)]
        if unpriced:
            raise TournamentConfigError(
                f"a budget of ${self.config.budget_usd:g} cannot be kept: {', '.join(unpriced)} has no price,"
                " so what it spends is unknown; give it price_input_per_mtok and price_output_per_mtok in"
                " the models file, or run without --budget-usd"
            )

    def _check_configurations(self, configs: dict[str, dict[str, Any]]) -> None:
        """A name must mean the same configuration in every run of a tournament."""
        row = self.store.tournament(self.tournament_id) or {}
        stored = dict(row.get("config") or {})
        known: dict[str, str] = dict(stored.get("player_configs") or {})
        hashes = {text: config_hash(config) for text, config in configs.items()}
        for text, digest in hashes.items():
            if text in known and known[text] != digest:
                raise TournamentConfigError(
                    f"{text}: its configuration changed since tournament {self.tournament_id} started"
                    f" ({known[text][:8]} then, {digest[:8]} now; models file?); start a new tournament"
                    " to compare the new configuration"
                )
        if known != hashes:
            stored["player_configs"] = hashes
            stored["player_settings"] = configs
            self.store.set_tournament_config(self.tournament_id, stored)

    async def _close_players(self) -> None:
        for player in self._prepared.values():
            if not self.executor.takes(player):
                with contextlib.suppress(Exception):
                    await player.close()

    async def _play_slot(self, slot: Slot) -> None:
        if any(text in self.down for text in slot.seating.values()):
            return  # its server stopped answering: left for a resume
        left = self._budget_left()
        if left is not None and left <= 0:
            self.progress.status = "budget_exceeded"
            self.progress.message = f"spent ${self.progress.spend_usd:.4f} of ${self.config.budget_usd:.4f}"
            return
        if self.progress.status == "budget_exceeded":
            return
        config = MatchConfig(
            game=self.config.game,
            seats=slot.seating,
            seed=slot.deal_seed,
            options=self.config.options,
            budget=Budget(max_cost_usd=left) if left is not None else Budget(),
            tournament_id=self.tournament_id,
            slot_key=slot.slot_key,
            on_invalid=self.config.on_invalid,
        )
        key = slot.slot_key
        meter = _SpendMeter(self.progress)
        runner = prepare_runner(
            config,
            self.store,
            [meter, *self.observers],
            models_config=self.models_config,
            prepare_players=False,
            yield_point=self.yield_point,
        )
        for seat, player in runner.players.items():
            text = slot.seating[seat]
            prepared = self._prepared.get(text)
            if prepared is not None and self.executor.takes(prepared):
                runner.players[seat] = self.executor.seat(text, player)
            elif prepared is not None:
                player.share_transport(prepared)
        self.progress.running += 1
        self._notify()
        try:
            outcome = await runner.run()
        finally:
            self.progress.running -= 1
            for player in runner.players.values():
                with contextlib.suppress(Exception):
                    await player.close()
        state = self._by_key[key]
        self.progress.played_now += 1
        if outcome.status == EpisodeStatus.FINISHED:
            state.finished_episode = outcome.episode_id
            self.progress.done += 1
        elif outcome.status == EpisodeStatus.BUDGET_EXCEEDED:
            self.progress.status = "budget_exceeded"
            self.progress.message = outcome.message
        elif outcome.status == EpisodeStatus.LOST and state.lost < LOST_REPLAYS:
            state.lost += 1
            if self.progress.status == "running":
                await self._play_slot(slot)
                return
        elif outcome.status not in REPLAYABLE or outcome.status == EpisodeStatus.LOST:
            if outcome.failure is not None and outcome.failure.server_down:
                self._player_down(slot.seating[outcome.failure.seat], outcome.failure)
            state.failures += 1
            state.last_failure = f"{outcome.status}: {outcome.message}"
            if self._given_up(state):
                self.progress.given_up += 1
            elif self.progress.status == "running":
                await self._play_slot(slot)
                return
        self._notify()


def down_line(text: str, failure: SeatFailure) -> str:
    """``PLAYER stopped answering since 01:02:03 UTC (provider_error: connection failed ...)``."""
    since = time.strftime("%H:%M:%S UTC", time.gmtime(failure.since))
    return f"{text} stopped answering since {since} ({failure.error}: {failure.detail})"


class _SpendMeter(Observer):
    """Observer keeping the tournament's live spend."""

    wants_steps = False

    def __init__(self, progress: TournamentProgress) -> None:
        self.progress = progress

    def __call__(self, event: Event) -> None:
        if isinstance(event, TurnsRecorded):
            self.progress.spend_usd += Usage.total(turn.usage for turn in event.turns).cost_usd
            self.progress.unpriced_decisions += sum(turn.usage.unpriced for turn in event.turns)


async def run_tournament(store: Store, config: TournamentConfig, **kwargs: Any) -> TournamentProgress:
    """Create and play a tournament in one call (see :class:`TournamentRun` for ``kwargs``)."""
    tournament_id = create_tournament(store, config)
    return await TournamentRun(store, tournament_id, **kwargs).run()
