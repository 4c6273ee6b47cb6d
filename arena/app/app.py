"""The Arena Textual app: screens over one store, and the matches it owns.

Matches and tournaments run as asyncio tasks on the app's own event loop, held by
:class:`~arena.app.live.MatchManager` and :class:`~arena.app.tournament_job.TournamentManager`,
which belong to the app, so moving between screens never stops one. Quitting while one
runs asks first, then cancels the tasks; each such episode and tournament is recorded as
aborted (a tournament resumable).
"""

from __future__ import annotations

import gc
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.app import App
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen

from arena.app.commands import ArenaCommands
from arena.app.input_priority import InputPriority
from arena.app.model_catalog import ModelCatalog, load_model_catalog
from arena.app.screens.home import HomeScreen
from arena.app.screens.modals import ConfirmScreen, TextScreen, help_body
from arena.app.setup_memory import SetupMemory, setups_path
from arena.store.database import Store, StoreError

if TYPE_CHECKING:
    from arena.app.human import HumanTurn
    from arena.app.live import LiveMatch, MatchManager, PlayerFactory
    from arena.app.table_worker import TableWorker
    from arena.app.tournament_data import TournamentDraft
    from arena.app.tournament_job import TournamentJob, TournamentManager
    from arena.engine.match import MatchConfig
    from arena.tournament.config import TournamentConfig

USER_INPUT = (
    events.Key,
    events.MouseDown,
    events.MouseUp,
    events.MouseScrollDown,
    events.MouseScrollUp,
    events.Paste,
)
"""Input a person waits to see answered (not mouse moves, which come in streams)."""

# Only the home screen's frame is imported to start: the games, the engine (pydantic) and
# the match and tournament managers load once that frame is painted (the home screen
# asks for them), every other screen (the tournament screen brings numpy and the rating
# code) when it is first opened, and the models file once the first game is painted
# (see read_models).


class ArenaApp(App[int]):
    """Pick a game and players, watch or play the match, replay saved episodes."""

    TITLE = "Arena"
    CSS_PATH = "arena.tcss"
    COMMANDS: ClassVar = App.COMMANDS | {ArenaCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "request_quit", "Quit", priority=True),
        Binding("f1", "help", "Help"),
        Binding("question_mark", "help", "Help", show=False),
    ]

    class HumanWaiting(Message):
        """A person's seat must act in ``match``."""

        def __init__(self, match: LiveMatch, seat: str) -> None:
            super().__init__()
            self.match = match
            self.seat = seat

    class MatchEnded(Message):
        """``match`` has ended (finished, aborted or failed)."""

        def __init__(self, match: LiveMatch) -> None:
            super().__init__()
            self.match = match

    class TournamentEnded(Message):
        """A run of a tournament has ended (finished, stopped or failed)."""

        def __init__(self, job: TournamentJob) -> None:
            super().__init__()
            self.job = job

    class ModelsLoaded(Message):
        """The models file was read and every model's availability is known."""

    def __init__(
        self,
        store: Store,
        *,
        replay: int | None = None,
        open_replay: bool = False,
        extra_players: Mapping[str, PlayerFactory] | None = None,
        step_delay: float = 0.25,
        load_models: bool = True,
        freeze_gc: bool = False,
        tables: TableWorker | None = None,
    ) -> None:
        super().__init__()
        # Every screen gets one class per axis from its size, which the stylesheet lays out by:
        # 80x24 is the smallest terminal a screen must work in, 100 columns ordinary, 140 wide.
        self.HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-medium"), (140, "-wide")]
        self.VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
        self._freeze_gc = freeze_gc
        self.store = store
        self.close_error = ""
        """Why the store could not save everything at quit ("" when it did)."""
        self._extra_players = extra_players
        self._step_delay = step_delay
        self._matches: MatchManager | None = None
        self._tournaments: TournamentManager | None = None
        self.input_priority = InputPriority()
        """Tournament episodes on this loop yield through it: they wait while a key is answered."""
        self._tables = tables
        self.catalog = ModelCatalog(loaded=not load_models)
        self._load_models = load_models
        self._replay = replay
        self._open_replay = open_replay or replay is not None
        self.setups = SetupMemory(setups_path(store.path))
        """Each game's last set-up on the home screen: this session's, else the last one started."""

    def post_message(self, message: Message) -> bool:
        """Queue ``message``; a key or a click holds the tournaments' episodes until it is answered.

        The terminal's input is posted here as it arrives, before the app takes it from its
        queue, so the episodes already make way while the app finishes what it was doing.
        """
        if isinstance(message, USER_INPUT):
            self.input_priority.touch()
        return super().post_message(message)

    async def on_event(self, event: events.Event) -> None:
        """Handle ``event``; once a key or click is handled, the episodes wait a moment more.

        The first wait counts from when the input arrived; a busy app (a screen still being
        built) may take longer than that to reach it, and its repaint follows the handling.
        """
        await super().on_event(event)
        if isinstance(event, USER_INPUT):
            self.input_priority.touch()

    @property
    def matches(self) -> MatchManager:
        """This session's matches (made on first use: its module brings the engine)."""
        if self._matches is None:
            from arena.app.live import MatchManager

            self._matches = MatchManager(
                self.store, extra_players=self._extra_players, step_delay=self._step_delay
            )
            if self.catalog.loaded:
                self._matches.models_config = self.catalog.config
        return self._matches

    @property
    def tournaments(self) -> TournamentManager:
        """This session's tournaments (made on first use: its module brings the tournament code)."""
        if self._tournaments is None:
            from arena.app.tournament_job import TournamentManager

            self._tournaments = TournamentManager(self.store, yield_point=self.input_priority.yield_point)
            if self.catalog.loaded:
                self._tournaments.models_config = self.catalog.config
        return self._tournaments

    @property
    def extra_player_names(self) -> tuple[str, ...]:
        """The player specs this app adds (tests, benchmarks), without making the match manager."""
        return tuple(self._extra_players or {})

    def session(self) -> tuple[list[LiveMatch], list[TournamentJob]]:
        """This session's matches and tournaments so far, without loading either manager."""
        matches = self._matches.matches if self._matches is not None else []
        jobs = self._tournaments.jobs if self._tournaments is not None else []
        return matches, jobs

    @property
    def tables(self) -> TableWorker:
        """Where the screens get tournament tables, computed off the event loop (made on first use)."""
        if self._tables is None:
            from arena.app.table_worker import TableWorker

            self._tables = TableWorker()
        return self._tables

    def get_default_screen(self) -> Screen[None]:
        """The home screen sits at the bottom of the stack."""
        return HomeScreen()

    def on_mount(self) -> None:
        """Set up once the widgets exist."""
        if self._freeze_gc:
            # Objects alive once the first screen is up live as long as the app; keeping them
            # out of the collector's full passes removes ~50-100 ms pauses while stepping.
            self.call_after_refresh(gc.freeze)
        if self._open_replay:
            # ``arena replay 5``: the episode list beneath the replay, so Esc goes back to the list.
            self.open_episodes()
            if self._replay is not None:
                self.open_replay(self._replay)

    def read_models(self) -> None:
        """Read the models file and ask which models can play, once, in the background.

        The home screen asks for this once its first game is painted: importing the model
        code holds the interpreter for a while, so it waits until the screen is usable.
        """
        if self._load_models:
            self._load_models = False
            self.run_worker(self._read_models(), group="models", exit_on_error=False)

    async def _read_models(self) -> None:
        self.catalog = await load_model_catalog()
        if self._matches is not None:
            self._matches.models_config = self.catalog.config
        if self._tournaments is not None:
            self._tournaments.models_config = self.catalog.config
        self.post_message(self.ModelsLoaded())

    def on_arena_app_models_loaded(self, message: ModelsLoaded) -> None:
        """Offer the models in the home screen's seat lists and the tournament set-up."""
        from arena.app.screens.tournament_setup import TournamentSetupScreen

        if not self.is_running:  # the list arrived as the app quits: its screens are being taken down
            return
        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen | TournamentSetupScreen):
                screen.refresh_players()

    # -- navigation ---------------------------------------------------------------------
    def go_home(self) -> None:
        """Back to the home screen (running matches keep running)."""
        while len(self.screen_stack) > 1:
            self.pop_screen()

    def pop_or_home(self) -> None:
        """Back one screen, or stay home."""
        if len(self.screen_stack) > 1:
            self.pop_screen()

    def open_episodes(self) -> None:
        """The saved-episodes browser."""
        from arena.app.screens.episodes import EpisodesScreen

        if isinstance(self.screen, EpisodesScreen):
            return
        self.push_screen(EpisodesScreen())

    def open_replay(self, episode_id: int, *, at_step: int = 0) -> None:
        """Step through episode ``episode_id`` from ``at_step`` (not while a person here plays in it)."""
        from arena.app.replay_data import ReplayData, ReplayError
        from arena.app.screens.replay import ReplayScreen

        matches, _ = self.session()  # no match manager made (and no engine loaded) to open a replay
        for match in matches:
            if match.data.secret and match.data.episode_id == episode_id:
                self.notify(
                    f"episode {episode_id} is still being played here by a person; its replay "
                    "shows every hidden number and reason, so it opens once the match ends",
                    severity="warning",
                    markup=False,
                )
                return
        try:
            replay = ReplayData.load(self.store, episode_id)
        except ReplayError as exc:
            self.notify(str(exc), severity="error", markup=False)
            if self._open_replay and len(self.screen_stack) == 1:
                self.open_episodes()
            return
        replay.go(at_step)
        self.push_screen(ReplayScreen(replay))

    def start_match(self, config: MatchConfig, *, show: bool = True) -> LiveMatch:
        """Start a match (and show it); raises ``SpecError``/``ValueError`` for a bad set-up."""
        match = self.matches.start(config)
        match.human_listeners.append(self._human_turn)
        match.finished_listeners.append(self._match_ended)
        if show:
            self.watch_match(match)
        return match

    def resume_episode(self, episode_id: int) -> LiveMatch | None:
        """Continue interrupted episode ``episode_id`` on the match screen; why not, if it cannot."""
        from arena.engine.export import EpisodeNotFound
        from arena.engine.match import resume_config
        from arena.engine.resume import NotResumable
        from arena.plugins.players import SpecError

        matches, _ = self.session()
        for match in matches:
            if match.running and match.data.episode_id == episode_id:
                self.watch_match(match)  # it goes on here already
                return match
        try:
            return self.start_match(resume_config(self.store, episode_id))
        except (EpisodeNotFound, NotResumable, SpecError, ValueError) as exc:
            self.notify(str(exc), severity="error", markup=False)
            return None

    def watch_match(self, match: LiveMatch) -> None:
        """Show ``match``'s screen (on top of the home screen)."""
        from arena.app.screens.match import MatchScreen

        if isinstance(self.screen, MatchScreen) and self.screen.match is match:
            return
        self.go_home()
        self.push_screen(MatchScreen(match))

    # -- tournaments --------------------------------------------------------------------
    def open_tournament_setup(self, draft: TournamentDraft | None = None) -> None:
        """Set up a new tournament (``draft`` fills in the form, e.g. from the home screen)."""
        from arena.app.screens.tournament_setup import TournamentSetupScreen

        self.push_screen(TournamentSetupScreen(draft))

    def open_tournaments(self) -> None:
        """The stored tournaments."""
        from arena.app.screens.tournament_lists import TournamentsScreen

        if not isinstance(self.screen, TournamentsScreen):
            self.push_screen(TournamentsScreen())

    def open_tournament(self, tournament_id: int) -> None:
        """Show tournament ``tournament_id``: its progress if it plays, its tables."""
        from arena.app.screens.tournament import TournamentScreen

        if isinstance(self.screen, TournamentScreen) and self.screen.tournament_id == tournament_id:
            return
        if self.store.tournament(tournament_id) is None:
            self.notify(f"no tournament {tournament_id}", severity="error", markup=False)
            return
        self.push_screen(TournamentScreen(tournament_id))

    def start_tournament(self, config: TournamentConfig, *, show: bool = True) -> TournamentJob:
        """Store and start a tournament (and show it); raises ``TournamentConfigError``/``SpecError``."""
        from arena.app.screens.tournament import TournamentScreen

        tournament_id = self.tournaments.create(config)
        job = self._play_tournament(tournament_id, config.cluster)
        if show:
            self.go_home()
            self.push_screen(TournamentScreen(tournament_id))
        return job

    def resume_tournament(self, tournament_id: int) -> TournamentJob | None:
        """Play the slots a stopped tournament is missing; a reason is shown if it cannot."""
        try:
            return self._play_tournament(tournament_id)
        except (LookupError, ValueError, RuntimeError) as exc:
            self.notify(str(exc), severity="error", markup=False)
            return None

    def _play_tournament(self, tournament_id: int, cluster: str | None = None) -> TournamentJob:
        job = self.tournaments.start(tournament_id, cluster=cluster)
        job.finished_listeners.append(self._tournament_ended)
        return job

    def _tournament_ended(self, job: TournamentJob) -> None:
        self.post_message(self.TournamentEnded(job))

    def on_arena_app_tournament_ended(self, message: TournamentEnded) -> None:
        """Tell the user a tournament ended if its screen is not shown."""
        from arena.app.screens.tournament import TournamentScreen

        if not self.screen_stack:  # the app is closing: quitting stopped it
            return
        screen = self.screen
        if isinstance(screen, TournamentScreen) and screen.tournament_id == message.job.tournament_id:
            return
        self.notify(f"{message.job.title} {message.job.status}", markup=False)

    def _match_ended(self, match: LiveMatch) -> None:
        self.post_message(self.MatchEnded(match))

    def _human_turn(self, match: LiveMatch, turn: HumanTurn) -> None:
        self.post_message(self.HumanWaiting(match, turn.seat))

    def on_arena_app_human_waiting(self, message: HumanWaiting) -> None:
        """Tell the person a seat waits for them if its screen is not shown."""
        from arena.app.screens.match import MatchScreen

        screen = self.screen
        if isinstance(screen, MatchScreen) and screen.match is message.match:
            return
        self.notify(
            f"{message.match.title}: seat {message.seat} waits for your move (home: ctrl+t)",
            title="your turn",
            markup=False,
            timeout=8,
        )

    def on_arena_app_match_ended(self, message: MatchEnded) -> None:
        """Tell the user a match ended if its screen is not shown."""
        from arena.app.screens.match import MatchScreen

        screen = self.screen
        if isinstance(screen, MatchScreen) and screen.match is message.match:
            return
        data = message.match.data
        self.notify(f"{message.match.title} {data.status}", markup=False)

    # -- help and quitting --------------------------------------------------------------
    def action_help(self) -> None:
        """The keys of the current screen and the global ones."""
        screen = self.screen
        if isinstance(screen, TextScreen):
            return
        keys: list[tuple[str, str]] = []
        for active in screen.active_bindings.values():
            binding = active.binding
            entry = (binding.key_display or self.get_key_display(binding), binding.description)
            # Only keys that work now: a disabled one (rematch mid-match) is not listed.
            wanted = active.enabled and binding.description and _declared_by_arena(active.node, binding)
            if wanted and entry not in keys:
                keys.append(entry)
        name = str(getattr(screen, "HELP_NAME", "") or type(screen).__name__)
        # the box's inner width: 96 columns or 95% of the screen, less its border, padding and bar
        text_width = min(96, self.size.width * 95 // 100) - 6
        body = help_body(name, keys, database=self.store.path, text_width=text_width)
        self.push_screen(TextScreen("help", body))

    async def action_quit(self) -> None:
        """Textual's quit (command palette, ctrl+q): asks first while matches run."""
        self.action_request_quit()

    def action_request_quit(self) -> None:
        """Quit; while matches or tournaments run, ask first and then record them as aborted."""
        matches, jobs = self.session()
        running = [match.title for match in matches if match.running]
        running += [job.title for job in jobs if job.running]
        if not running:
            self.exit(0)
            return
        count = len(running)
        question = (
            f"{count} match{'es or tournaments are' if count != 1 else ' or tournament is'} still running "
            f"({', '.join(running)}). Quit and save {'them' if count != 1 else 'it'} as aborted?"
        )

        def answer(quit_now: bool | None) -> None:
            if quit_now:
                self.run_worker(self._stop_and_exit(), group="quit")

        self.push_screen(ConfirmScreen(question, yes="Quit", no="Keep playing"), answer)

    async def _stop_and_exit(self) -> None:
        await self._stop_all()
        self.exit(0)

    async def _stop_all(self) -> None:
        if self._matches is not None:
            await self._matches.cancel_all()
        if self._tournaments is not None:
            await self._tournaments.stop_all()

    async def on_unmount(self) -> None:
        """Stop every running match and tournament (recorded as aborted), then close the store."""
        await self._stop_all()
        try:
            self.store.close()
        except StoreError as exc:  # a held write the database refused
            self.close_error = str(exc)


def _declared_by_arena(node: object, binding: Binding) -> bool:
    """True for a binding an Arena screen or widget declares (not Textual's built-in ones)."""
    if node is None or isinstance(node, App):
        return False
    for cls in type(node).__mro__:
        if cls.__module__.startswith("arena."):
            declared = cls.__dict__.get("BINDINGS", [])
            if any(isinstance(b, Binding) and b.action == binding.action for b in declared):
                return True
    return False


def create_app(
    db_path: Path,
    *,
    replay: int | None = None,
    open_replay: bool = False,
    extra_players: Mapping[str, PlayerFactory] | None = None,
    step_delay: float = 0.25,
    load_models: bool = True,
    freeze_gc: bool = False,
    tables: TableWorker | None = None,
) -> ArenaApp:
    """Build the app over the database at ``db_path`` (tests and benchmarks pass options).

    The app owns the store it opens here and closes it when it shuts down. Raises
    :class:`arena.store.database.StoreError` if the database cannot be opened.
    """
    store = Store(db_path)
    return ArenaApp(
        store,
        replay=replay,
        open_replay=open_replay,
        extra_players=extra_players,
        step_delay=step_delay,
        load_models=load_models,
        freeze_gc=freeze_gc,
        tables=tables,
    )
