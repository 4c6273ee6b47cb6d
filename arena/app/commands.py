"""The command palette's Arena commands (ctrl+p): new match, episodes, replay, watch, help."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

from arena.app.screens.base import arena_app

if TYPE_CHECKING:
    from arena.app.app import ArenaApp

Command = tuple[str, Callable[[], object], str]
RECENT_EPISODES = 15


class ArenaCommands(Provider):
    """The app's main actions plus this session's matches and the latest episodes."""

    @property
    def arena(self) -> ArenaApp:
        """The app, typed."""
        return arena_app(self.app)

    def commands(self) -> list[Command]:
        """Every command as (title, callback, help); titles are trusted text only."""
        app = self.arena
        commands: list[Command] = [
            ("New match", app.go_home, "choose a game and players"),
            ("Recent episodes", app.open_episodes, "browse, filter and replay saved episodes"),
            ("New tournament", app.open_tournament_setup, "players, seeds and options; ratings and tables"),
            ("Tournaments", app.open_tournaments, "stored tournaments: tables, and resume a stopped one"),
            ("Help: keys", app.action_help, "key bindings of this screen"),
        ]
        for match in reversed(app.matches.matches):
            commands.append(
                (f"Watch match {match.title}", partial(app.watch_match, match), match.data.status_line())
            )
        for job in reversed(app.tournaments.jobs):
            watch = partial(app.open_tournament, job.tournament_id)
            commands.append((f"Watch {job.title}", watch, job.status_line()))
        for row in app.store.list_episodes(limit=RECENT_EPISODES):
            title = f"Replay episode {row['id']} ({row['game']}, {row['status']}, {row['turns']} turns)"
            commands.append((title, partial(app.open_replay, int(row["id"])), "step through it turn by turn"))
        return commands

    async def discover(self) -> Hits:
        """Shown before anything is typed."""
        for title, callback, help_text in self.commands():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        """Fuzzy-match the commands against ``query``."""
        matcher = self.matcher(query)
        for title, callback, help_text in self.commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_text)
