"""What the headless CLI prints: live turn lines and the final results table.

While people play at this console, what is printed follows :mod:`arena.engine.audience`: the
other seats' turns appear only as their public moves, and everything held back is printed
in full once the episode has ended.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from arena.contract.game import GameState, SeatResult
from arena.contract.player import UserLeft
from arena.contract.records import (
    EpisodeEnded,
    EpisodeStarted,
    EpisodeStatus,
    Event,
    Observer,
    TurnRecord,
    TurnsRecorded,
)
from arena.contract.usage import NO_USAGE, Usage
from arena.display.board import board
from arena.display.sanitize import plain_text
from arena.display.values import format_row
from arena.engine.audience import Audience, public_move
from arena.plugins.players import SpecError, parse_player_spec, short_names


class StdoutConsole(Console):
    """A console on stdout for which a closed pipe (``arena play | head``) is the user leaving."""

    def on_broken_pipe(self) -> None:
        """Stop writing and raise :class:`UserLeft`, so the episode ends ``aborted``."""
        self.quiet = True
        silence_stdout()
        raise UserLeft("the output was closed (broken pipe)")


def silence_stdout() -> None:
    """Point stdout at /dev/null, so nothing more (not even the flush at exit) hits a closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real file descriptor (tests capture stdout)
        pass


class LiveOutput(Observer):
    """An observer that prints each decision, its reason, tokens, cost and latency.

    ``before_output`` runs before anything is printed (the console seats use it to end a
    prompt's line after ^C); :meth:`show_board` draws a seat's board before its form, from
    :attr:`game`, the runner's state, which whoever owns the runner sets (events carry none).
    """

    def __init__(
        self, console: Console, *, quiet: bool = False, before_output: Callable[[], None] | None = None
    ) -> None:
        self.console = console
        self.quiet = quiet
        self.before_output = before_output
        self.episode_id: int | None = None
        self.players: dict[str, str] = {}
        self.audience = Audience()
        self.game: GameState | None = None
        self.withheld: list[TurnRecord] = []
        self._left: UserLeft | None = None
        self.resumed_at_step: int | None = None
        self.seed: int | None = None

    def _print(self, renderable: Any) -> None:
        if self.before_output is not None:
            self.before_output()
        self.console.print(renderable)

    def show_board(self, seat: str) -> None:
        """The game as ``seat`` sees it (called just before that seat's form)."""
        if self.game is not None:
            self._print(board(self.game, seat))

    def __call__(self, event: Event) -> None:
        if self._left is not None and not isinstance(event, EpisodeEnded):
            raise UserLeft(str(self._left))
        if isinstance(event, EpisodeStarted):
            try:
                self._started(event)
            except UserLeft as exc:
                # The runner ends an episode only once it has started: say so at its first step.
                self._left = exc
        elif isinstance(event, TurnsRecorded):
            self._turns(event.turns)
        elif isinstance(event, EpisodeEnded):
            # The episode is saved by now: a reader who left while the results print changes
            # nothing, and the caller reports the episode's own status and message.
            with contextlib.suppress(UserLeft):
                self._ended(event)

    def _started(self, event: EpisodeStarted) -> None:
        self.episode_id = event.episode_id
        self.players = {s.seat: s.spec for s in event.seats}
        self.audience = Audience(tuple(s.seat for s in event.seats if s.kind == "human"))
        self.resumed_at_step = event.resumed_at_step
        self.seed = event.seed
        seats = ", ".join(f"{s.seat}={s.spec}" for s in event.seats)
        # A person must not learn the deal from its seed (arena.engine.deal_seed): told at the end.
        seed = "seed secret until the end" if self.audience.human_seats else f"seed {event.seed}"
        resumed = ""
        if event.resumed_at_step is not None:
            resumed = f" resumed at step {event.resumed_at_step + 1}"
            if event.resumed_at_step:
                resumed += f" (steps 1-{event.resumed_at_step} as recorded)"
        self._print(Text(f"episode {event.episode_id}{resumed}: {event.game} {seed}  {seats}", style="bold"))
        if self.audience.hot_seat():
            self._print(
                Text(
                    "several people share this console: every reason stays hidden until the end, "
                    "and each seat's board shows just before its move",
                    style="dim",
                )
            )
        elif self.audience.human_seats:
            self._print(Text("the other seats' reasons stay hidden until the end", style="dim"))

    def _turns(self, turns: tuple[TurnRecord, ...]) -> None:
        for turn in turns:
            if self.audience.sees_private(turn.seat, over=False):
                if not self.quiet:
                    self._print(turn_line(turn, self.players.get(turn.seat, "")))
                    game = self.game
                    # A resumed episode's recorded turns arrive with the game already past them.
                    recorded = self.resumed_at_step is not None and turn.step < self.resumed_at_step
                    outcome = (
                        "" if game is None or recorded else game.definition.view.step_outcome(game, turn.seat)
                    )
                    if outcome:
                        self._print(Text(f"         → {outcome}", style="dim"))
                continue
            self.withheld.append(turn)
            public = public_move(self.game, turn.action_text) if self.game is not None else None
            if public is not None and not self.quiet:
                self._print(public_line(turn, public))

    def _ended(self, event: EpisodeEnded) -> None:
        if self.audience.human_seats and event.status == EpisodeStatus.ABORTED:
            # It can be resumed (arena resume): what the person may not know stays hidden, the
            # results included (a seat's metrics may be worked out from the others' numbers).
            self._print(
                Text(
                    f"the other seats' reasons, the results and the seed stay hidden: arena resume"
                    f" {self.episode_id} continues the episode",
                    style="dim",
                )
            )
            if event.message:
                self._print(Text(f"{event.status}: {event.message}"))
            return
        if self.withheld and not self.quiet:
            self._print(Text("hidden during play:", style="bold"))
            for turn in self.withheld:
                self._print(turn_line(turn, self.players.get(turn.seat, "")))
        self._print(results_table(event.results, self.players, event.usage))
        if self.audience.human_seats and self.seed is not None:
            self._print(Text(f"the deal's seed was {self.seed}", style="dim"))
        if event.message:
            self._print(Text(f"{event.status}: {event.message}"))


def public_line(turn: TurnRecord, move: str) -> Text:
    """Another seat's turn as a person playing here may see it: step, seat and public move."""
    line = Text()
    line.append(f"step {turn.step + 1:>3} {turn.seat} ", style="bold")
    line.append(plain_text(move))
    return line


def turn_line(turn: TurnRecord, player: str = "") -> Text:
    """One decision as a line: step, seat, action, flags, reason, usage."""
    state_day = turn.state.get("day")
    label = f"day {state_day:>2}" if isinstance(state_day, int) else f"step {turn.step + 1:>3}"
    line = Text()
    line.append(f"{label} {turn.seat} ", style="bold")
    line.append(plain_text(turn.action_text))
    if turn.fallback:
        line.append(f"  FALLBACK ({turn.error})", style="red")
    elif turn.error:
        line.append(f"  re-asked ({turn.error})", style="yellow")
    if turn.reason:
        line.append("  ")
        line.append(plain_text(turn.reason, limit=160), style="italic")
    usage = turn.usage
    if usage.spent:
        line.append(f"  [{usage.tokens_text()}, {usage.cost_text()}, {turn.latency:.2f}s]", style="dim")
    elif _calls_a_model(player):
        line.append(f"  [{turn.latency:.2f}s]", style="dim")
    return line


def results_table(
    results: dict[str, SeatResult], players: dict[str, str], usage: dict[str, Usage] | None = None
) -> Table:
    """Seats side by side: score, every metric, then tokens and cost when a seat used any."""
    table = Table(title="results", header_style="bold")
    table.add_column("metric")
    # Short names (a model's alias or file name): the episode's first line gives each full spec.
    shown = short_names(players.values())
    for seat in results:
        name = players.get(seat)
        table.add_column(plain_text(f"{seat} ({shown[name] if name is not None else '?'})"), justify="right")
    table.add_row("score", *format_row([r.score for r in results.values()]))
    metric_names: list[str] = []
    for result in results.values():
        metric_names += [name for name in result.metrics if name not in metric_names]
    for name in metric_names:
        table.add_row(name, *format_row([r.metrics.get(name) for r in results.values()]))
    spent = [usage.get(seat, NO_USAGE) for seat in results] if usage else []
    if any(u.spent for u in spent):
        table.add_row("input tokens", *(str(u.input_tokens) for u in spent))
        table.add_row("cached input", *(str(u.cached_tokens) for u in spent))
        table.add_row("cache-write input", *(str(u.cache_write_tokens) for u in spent))
        table.add_row("output tokens", *(str(u.output_tokens) for u in spent))
        table.add_row("cost usd", *(u.cost_text().removeprefix("$") for u in spent))
    return table


def _calls_a_model(player: str) -> bool:
    """Whether ``player`` is a spec of a kind that calls a model (its latency is worth showing)."""
    try:
        return parse_player_spec(player).is_model
    except SpecError:
        return False
