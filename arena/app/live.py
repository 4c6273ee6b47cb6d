"""Matches running inside the app: each one an asyncio task owned by the app, not a screen.

:class:`MatchManager` builds the runner through :func:`arena.engine.match.prepare_runner` (its
recorder opens the episode, so every turn lands in the database), gives human seats a
:class:`~arena.app.human.HumanPlayer`, and keeps the tasks. Leaving a screen never
touches a task; cancelling one makes the runner record the episode as aborted.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from typing import Any

from arena.app.human import HumanDesk, HumanPlayer, HumanTurn
from arena.app.match_data import MatchData
from arena.contract.player import Player, PlayerSetupError
from arena.contract.records import CallbackObserver, EpisodeEnded, EpisodeStatus, Event
from arena.engine.match import MatchConfig, prepare_runner
from arena.engine.resume import NotResumable
from arena.engine.run_control import RunControl
from arena.engine.runner import EpisodeOutcome, EpisodeRunner
from arena.store.database import Store

SPEEDS: tuple[float, ...] = (0.0, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0)
"""Pause before each step, in seconds, from fastest to slowest."""

PlayerFactory = Callable[[str], Player]
"""Builds a player for a seat (used for extra, app-supplied players such as test scripts)."""


def speed_label(delay: float) -> str:
    """``max`` or ``0.25 s/step``."""
    return "max" if delay <= 0 else f"{delay:g} s/step"


class LiveMatch:
    """One match the app is running or ran: runner, controls, screen data and human desk."""

    def __init__(
        self,
        key: int,
        config: MatchConfig,
        runner: EpisodeRunner,
        data: MatchData,
        control: RunControl,
        desk: HumanDesk,
    ) -> None:
        self.key = key
        self.config = config
        self.runner = runner
        self.data = data
        self.control = control
        self.desk = desk
        self.task: asyncio.Task[None] | None = None
        self.outcome: EpisodeOutcome | None = None
        self.finished_listeners: list[Callable[[LiveMatch], None]] = []
        self.human_listeners: list[Callable[[LiveMatch, HumanTurn], None]] = []
        desk.listeners.append(self._human_turn)

    @property
    def title(self) -> str:
        """``#3 lemonade (episode 12)`` — trusted text only."""
        episode = f" (episode {self.data.episode_id})" if self.data.episode_id is not None else ""
        return f"#{self.key} {self.config.game}{episode}"

    @property
    def running(self) -> bool:
        """True while the task has not ended."""
        return self.task is not None and not self.task.done()

    def on_event(self, event: Event) -> None:
        """Observer: update the screen data; tell listeners when the episode ended."""
        self.data(event)
        if isinstance(event, EpisodeEnded):
            self.desk.cancel_all()

    def start(self) -> None:
        """Start the episode as a task on the running loop."""
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"arena-match-{self.key}")

    async def _run(self) -> None:
        try:
            self.outcome = await self.runner.run()
        except PlayerSetupError as exc:
            self.data.fail(f"cannot start: {exc}")
        except NotResumable as exc:  # refused before anything was written
            self.data.fail(str(exc))
        except asyncio.CancelledError:
            if not self.data.over:
                self.data.status = EpisodeStatus.ABORTED
                self.data.touch()
            raise
        except Exception as exc:  # the runner recorded the failure; show it, never crash the app
            self.data.fail(f"{type(exc).__name__}: {exc}")
        finally:
            self.desk.cancel_all()
            for player in self.runner.players.values():
                with contextlib.suppress(Exception):
                    await player.close()
            for listener in list(self.finished_listeners):
                listener(self)

    async def cancel(self) -> None:
        """Stop the episode (recorded as aborted) and wait until the task has ended."""
        task = self.task
        if task is None or task.done():
            return
        task.cancel()
        await asyncio.wait([task])

    # -- controls -----------------------------------------------------------------------
    def toggle_pause(self) -> None:
        """Pause before the next step, or run freely again."""
        if self.control.paused:
            self.control.resume()
        else:
            self.control.pause()
        self.data.touch()

    def step_once(self) -> None:
        """Let exactly one more step run, then pause."""
        self.control.step()
        self.data.touch()

    def change_speed(self, slower: bool) -> None:
        """Move to the next slower or faster pace in :data:`SPEEDS`."""
        index = min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i] - self.control.delay))
        index = min(len(SPEEDS) - 1, index + 1) if slower else max(0, index - 1)
        self.control.delay = SPEEDS[index]
        self.data.touch()

    def control_line(self) -> str:
        """``paused · max`` or ``running · 0.25 s/step`` (trusted text only)."""
        state = "paused" if self.control.paused else "playing"
        return f"{state} · speed {speed_label(self.control.delay)}"

    def _human_turn(self, turn: HumanTurn) -> None:
        self.data.touch()
        for listener in list(self.human_listeners):
            listener(self, turn)


class MatchManager:
    """Starts matches, holds their tasks and stops them all when the app quits."""

    def __init__(
        self,
        store: Store,
        *,
        extra_players: Mapping[str, PlayerFactory] | None = None,
        step_delay: float = 0.25,
    ) -> None:
        self.store = store
        self.extra_players = dict(extra_players or {})
        self.step_delay = step_delay
        self.models_config: Any = None
        self.matches: list[LiveMatch] = []

    def start(self, config: MatchConfig) -> LiveMatch:
        """Build and start a match; raises ``SpecError``/``ValueError`` for a bad line-up."""
        desk = HumanDesk()
        extra = {
            seat: self.extra_players[spec](seat)
            for seat, spec in config.seats.items()
            if spec in self.extra_players
        }
        control = RunControl(delay=0.0 if "human" in config.seats.values() else self.step_delay)
        runner = prepare_runner(
            config,
            self.store,
            [],
            human_factory=lambda seat: HumanPlayer(seat, desk),
            models_config=self.models_config,
            control=control,
            players=extra,
        )
        seats = list(runner.game.seats)
        data = MatchData(
            game_name=config.game,
            seats=seats,
            players={seat: runner.players[seat].spec for seat in seats},
            human_seats=[seat for seat in seats if isinstance(runner.players[seat], HumanPlayer)],
            source=runner.game,
        )
        match = LiveMatch(len(self.matches) + 1, config, runner, data, control, desk)
        runner.observers.append(CallbackObserver(match.on_event))
        self.matches.append(match)
        match.start()
        return match

    def running(self) -> list[LiveMatch]:
        """Matches whose task has not ended."""
        return [match for match in self.matches if match.running]

    def get(self, key: int) -> LiveMatch | None:
        """The match with this key."""
        return next((match for match in self.matches if match.key == key), None)

    async def cancel_all(self) -> None:
        """Cancel every running match and wait for each to be recorded as aborted."""
        for match in self.running():
            await match.cancel()
