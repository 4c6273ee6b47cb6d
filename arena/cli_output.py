"""What the headless CLI prints: live turn lines and the final results table."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from arena.events import EpisodeEnded, EpisodeStarted, Event, StepStarted, TurnRecord, TurnsRecorded
from arena.game import SeatResult
from arena.sanitize import plain_text


class LiveOutput:
    """An observer that prints each decision, its reason, tokens, cost and latency."""

    def __init__(self, console: Console, *, quiet: bool = False) -> None:
        self.console = console
        self.quiet = quiet
        self.episode_id: int | None = None
        self.players: dict[str, str] = {}

    def __call__(self, event: Event) -> None:
        if isinstance(event, TurnsRecorded):
            if not self.quiet:
                for turn in event.turns:
                    self.console.print(turn_line(turn, self.players.get(turn.seat, "")))
        elif isinstance(event, StepStarted):
            for seat in event.seats:
                if self.players.get(seat) == "human":
                    self.console.print(event.game.definition.render(event.game, seat))
        elif isinstance(event, EpisodeStarted):
            self.episode_id = event.episode_id
            self.players = {s.seat: s.spec for s in event.seats}
            seats = ", ".join(f"{s.seat}={s.spec}" for s in event.seats)
            self.console.print(
                Text(
                    f"episode {event.episode_id}: {event.game.name} seed {event.seed}  {seats}", style="bold"
                )
            )
        elif isinstance(event, EpisodeEnded):
            self.console.print(results_table(event.results, self.players))
            if event.message:
                self.console.print(Text(f"{event.status}: {event.message}"))


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
    if usage.total_tokens or usage.cost_usd:
        line.append(
            f"  [{usage.input_tokens}+{usage.output_tokens} tok, ${usage.cost_usd:.4f}, {turn.latency:.2f}s]",
            style="dim",
        )
    elif player.startswith(("openai", "anthropic", "local")):
        line.append(f"  [{turn.latency:.2f}s]", style="dim")
    return line


def results_table(results: dict[str, SeatResult], players: dict[str, str]) -> Table:
    """Seats side by side: score then every metric."""
    table = Table(title="results", header_style="bold")
    table.add_column("metric")
    for seat in results:
        table.add_column(plain_text(f"{seat} ({players.get(seat, '?')})"), justify="right")
    table.add_row("score", *(format_value(r.score) for r in results.values()))
    metric_names: list[str] = []
    for result in results.values():
        metric_names += [name for name in result.metrics if name not in metric_names]
    for name in metric_names:
        table.add_row(name, *(format_value(r.metrics.get(name)) for r in results.values()))
    return table


def format_value(value: Any) -> str:
    """Metric values for tables: 2 decimals for floats, '-' for missing."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.2f}" if abs(value) >= 1 or value == 0 else f"{value:.4f}"
    return plain_text(str(value))
