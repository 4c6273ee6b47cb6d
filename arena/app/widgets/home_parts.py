"""Pieces of the home screen: how players appear in the seat lists, this session's list, recent episodes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from arena.app.safe import safe_line, safe_text
from arena.app.widgets.fitted_box import FittedTitle
from arena.contract.playerconfig import mask_urls

if TYPE_CHECKING:
    from arena.app.app import ArenaApp
    from arena.app.home_data import SeatOption


def option_label(choice: SeatOption) -> Text:
    """How a player appears in a seat list (model names shown literally)."""
    spec = mask_urls(choice.spec)  # every serve tab sees this: a URL's password or token is masked
    if not choice.available:
        return safe_line((f"✗ {spec}", "dim strike"), (f"  unavailable: {mask_urls(choice.reason)}", "dim"))
    return safe_text(spec)


def players_summary(choices: list[SeatOption], loading: bool, error: str | None) -> RenderableType:
    """Every player a seat can take, with what it is or why it cannot play."""
    lines: list[RenderableType] = []
    for choice in choices:
        spec = mask_urls(choice.spec)
        if choice.available:
            line = safe_line((f"✓ {spec}", "green"), (f"  {mask_urls(choice.description)}", "dim"))
        else:
            line = safe_line((f"✗ {spec}", "red"), (f"  unavailable: {mask_urls(choice.reason)}", "dim"))
        line.no_wrap = True
        line.overflow = "ellipsis"
        lines.append(line)
    if loading:
        lines.append(Text("… checking which models can play", style="dim italic"))
    elif not any(choice.kind == "model" for choice in choices):
        lines.append(Text("no models configured (models file)", style="dim italic"))
    if error:
        lines.append(safe_text(error, "yellow"))
    return Group(*lines)


class SessionList(OptionList, FittedTitle):
    """This session's matches and tournaments with their progress; enter opens one."""

    def __init__(self) -> None:
        super().__init__(id="session-matches")
        self._shown: list[tuple[str, str]] = []

    def refresh_from(self, app: ArenaApp) -> None:
        """Show the app's matches and tournaments, newest first (only redrawn when changed)."""
        matches, jobs = app.session()
        shown = [(str(m.key), f"{m.title} · {m.data.status_line()}") for m in matches]
        shown += [(f"tournament-{job.key}", f"{job.title} · {job.status_line()}") for job in jobs]
        if shown == self._shown:
            return
        self._shown = shown
        self.can_focus = bool(shown)
        highlighted = self.highlighted
        self.clear_options()
        self.add_options([Option(Text(label), id=key) for key, label in reversed(shown)])
        if highlighted is not None and highlighted < len(shown):
            self.highlighted = highlighted
        elif shown:
            self.highlighted = 0  # Enter opens the newest at once (it did nothing until ↓)

    def open(self, key: str) -> None:
        """Show the match or tournament with option id ``key``."""
        app = self.app
        from arena.app.app import ArenaApp

        assert isinstance(app, ArenaApp)
        if key.startswith("tournament-"):
            job = app.tournaments.get(int(key.removeprefix("tournament-")))
            if job is not None:
                app.open_tournament(job.tournament_id)
            return
        match = app.matches.get(int(key or "0"))
        if match is not None:
            app.watch_match(match)


def recent_view(rows: list[dict[str, Any]]) -> RenderableType:
    """The last few saved episodes, one line each."""
    if not rows:
        return Text("none yet", style="dim")
    lines = [
        safe_line(
            (f"#{row['id']} ", "bold"),
            (f"{row['game']} {row['status']} {row['turns']} turns ", ""),
            (row["players"] or "", "dim"),
        )
        for row in rows
    ]
    return Group(*lines)
