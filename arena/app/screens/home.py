"""The home screen: pick a game, give every seat a player, set seed and options, start.

Every game drops in through its :class:`~arena.contract.game.GameDefinition`: description, rules per
seat, seats (which a game option may change) and options. The seat lists offer the
game's baselines, the human seat and every model the models file names, with the reason
an unavailable one cannot play. Ctrl+r takes the set-up to the tournament screen: its
players on that many deal seeds, in every seating, rolled up into ratings and tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.widgets import Button, Header, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from arena.app.safe import safe_text
from arena.app.screens.base import ArenaScreen
from arena.app.widgets.fitted_box import FittedTitle, FittedTitleStatic
from arena.app.widgets.home_parts import SessionList, option_label, players_summary, recent_view
from arena.app.widgets.steady_footer import SteadyFooter

SESSION_TITLES = ("this session (enter: open)", "this session (enter)", "this session")
"""The session list's title, fullest first: the longest that fits is shown (80 columns: the second)."""
RECENT_TITLES = ("recent episodes (ctrl+o)", "recent (ctrl+o)", "recent episodes")
"""The recent episodes' title, fullest first."""

if TYPE_CHECKING:
    from arena.app.home_data import MatchDraft, SeatOption
    from arena.contract.game import GameDefinition

# The screen's frame needs Textual alone. The games, the set-up logic and its fields bring
# the engine and pydantic (about half the start-up), so they are imported by the methods
# that need them, which run once the frame is painted (see on_mount).


class HomeScreen(ArenaScreen):
    """Set up a match, or go to the recent episodes."""

    HELP_NAME = "home"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "Start match", priority=True),
        Binding("ctrl+r", "tournament", "Tournament", priority=True),
        # ctrl keys no input takes, so they work while a text field has focus.
        Binding("ctrl+o", "episodes", "Recent episodes", priority=True),
        Binding("ctrl+t", "watch", "Watch match", priority=True),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.definition: GameDefinition | None = None
        self.draft: MatchDraft | None = None
        self.choices: list[SeatOption] = []
        self._seat_order: tuple[str, ...] = ()
        self._option_names: list[str] = []
        self._building = False
        self._players_stale = False
        self._asked_while_building: str | None = None
        """An action (start, tournament) asked for while the set-up was half rebuilt."""

    def compose(self) -> ComposeResult:
        """Build the widgets (the games are listed once the frame is painted)."""
        yield Header()
        with Horizontal(id="home"):
            with Vertical(id="home-left"):
                yield OptionList(id="games")
                yield SessionList()
                yield FittedTitleStatic(Text(""), id="recent")
            # The set-up scrolls; Start sits below it, in view at any height.
            with Vertical(id="home-main"):
                with VerticalScroll(id="home-setup"):
                    yield Static(Text("loading the games…", style="dim italic"), id="game-about")
                    with VerticalScroll(id="rules-box"):
                        yield Static(Text(""), id="game-rules")
                    yield Vertical(id="seats")
                    yield Grid(id="options")
                    yield Static(Text(""), id="players-info")
                with Vertical(id="start-dock"):
                    # Two parts, side by side, one above the other where they do not fit (narrow).
                    with Horizontal(id="start-row"):
                        with Horizontal(id="start-match-part", classes="start-part"):
                            yield Button("Start match (ctrl+s)", id="start", variant="primary", compact=True)
                        with Horizontal(id="start-tournament-part", classes="start-part"):
                            yield Button("Tournament (ctrl+r)", id="tournament", compact=True)
                            yield Label(Text("seeds"), id="tournament-seeds-label")
                            yield Input("10", id="tournament-seeds", type="integer", compact=True)
                    yield Static(Text(""), id="start-error")
        yield SteadyFooter()

    def on_mount(self) -> None:
        """Set up once the widgets exist; the games load once this frame is painted."""
        self.query_one("#games").border_title = "games"
        self.query_one("#session-matches", FittedTitle).word_title(*SESSION_TITLES)
        self.query_one("#tournament-seeds").tooltip = Text(
            "a tournament of these players plays this many deal seeds, in every seating"
        )
        self.query_one("#recent", FittedTitle).word_title(*RECENT_TITLES)
        self.query_one("#rules-box").border_title = "rules"
        self.query_one("#seats").border_title = "seats"
        self.query_one("#players-info").border_title = "players"
        self.query_one("#options").border_title = "seed and options"
        self.query_one("#home-setup").can_focus = False
        self.query_one("#start-error").display = False
        self.query_one("#session-matches").can_focus = False
        self.query_one("#games", OptionList).focus()
        self.refresh_recent()
        self.set_interval(1.0, self.refresh_matches)
        self.call_after_refresh(self._list_games)

    async def _list_games(self) -> None:
        """List every game that loads and show the first (its import is most of the start-up)."""
        from arena.plugins.games import UnknownGameError, game_names, get_game

        listed = []
        for name in game_names():
            try:
                listed.append(Option(Text(get_game(name).title), id=name))
            except UnknownGameError:
                continue
        games = self.query_one("#games", OptionList)
        games.add_options(listed)
        if not listed:  # no game to show: read the models now
            self.query_one("#game-about", Static).update(Text("no game is installed", style="dim italic"))
            self.arena.read_models()
            return
        # The game the last match on this database was started with, else the first.
        names = [option.id for option in listed]
        last = self.arena.setups.last_game()
        games.highlighted = names.index(last) if last in names else 0
        first = names[games.highlighted]
        assert first is not None
        await self.select_game(first)

    def on_screen_resume(self) -> None:
        """Refresh when this screen comes back on top."""
        self.refresh_recent()
        self.refresh_matches()

    # -- game choice --------------------------------------------------------------------
    @on(OptionList.OptionHighlighted, "#games")
    async def _game_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        shown = self.definition
        if event.option.id is None or (shown is not None and shown.name == event.option.id):
            return
        if event.option_list.highlighted != event.option_index:
            # The highlight moved on while this waited (a held key outruns a set-up, ~0.1 s):
            # the message for where it is now sets that game up, and this one is skipped.
            return
        await self.select_game(event.option.id)

    @on(OptionList.OptionSelected, "#games")
    def _game_selected(self, event: OptionList.OptionSelected) -> None:
        selects = self.query("#seats Select")
        if selects:
            selects.first().focus()

    async def select_game(self, name: str) -> None:
        """Show ``name``'s description, rules, seats and options."""
        from arena.app.home_data import MatchDraft, seat_options
        from arena.plugins.games import get_game

        if self.draft is not None:  # keep what was entered for the game being left
            self.arena.setups.remember(self.draft.definition.name, self.draft.setup())
        definition = get_game(name)
        self.definition = definition
        self.draft = MatchDraft(definition)
        self.choices = seat_options(definition, self.arena.catalog, self.arena.extra_player_names)
        kept = self.arena.setups.recall(name)
        if kept is not None:
            self.draft.restore(kept, self.choices)
        about = Text.assemble((definition.title, "bold"), "\n", definition.description)
        self.query_one("#game-about", Static).update(about)
        self._show_rules()
        self._building = True
        try:
            await self._build_options()
            await self._build_seats()
        finally:
            self._building = False
        self._show_players()
        self._after_building()
        self.paint_when_idle()  # the set-up is whole: shown now, not at the next frame tick
        self.call_after_refresh(self.arena.read_models)  # once the game is painted: read the models

    async def _build_seats(self) -> None:
        from arena.app.home_data import default_seats
        from arena.app.widgets.setup_fields import seat_rows

        assert self.draft is not None
        seats = self.draft.seat_names()
        previous = dict(self.draft.seats)
        defaults = default_seats(seats, self.choices)
        self.draft.seats = {seat: previous.get(seat, defaults[seat]) for seat in seats}
        self._seat_order = seats
        box = self.query_one("#seats", Vertical)
        await box.remove_children()
        rows = seat_rows(seats, self.choices, self.draft.seats)
        await box.mount_all(rows)

    @on(Input.Submitted, "#seat-typed")
    async def _seat_typed(self, event: Input.Submitted) -> None:
        """Give a seat any spec typed as ``SEAT=SPEC`` (not only the listed players)."""
        from arena.app.home_data import typed_seat

        event.stop()
        if self.draft is None:
            return
        try:
            seat, option = typed_seat(event.value, self._seat_order)
        except ValueError as exc:
            self.query_one("#seat-typed-error", Static).update(safe_text(str(exc), "red"))
            return
        if all(choice.spec != option.spec for choice in self.choices):
            self.choices.append(option)
        self.draft.seats[seat] = option.spec
        self._building = True
        try:
            await self._build_seats()
        finally:
            self._building = False
        self._show_players()
        self._show_errors(final=False)
        self._after_building()

    async def _build_options(self) -> None:
        from arena.app.widgets.setup_fields import option_fields

        assert self.draft is not None and self.definition is not None
        box = self.query_one("#options", Grid)
        await box.remove_children()
        fields, self._option_names = option_fields(self.draft.seed, self.definition, self.draft.options)
        await box.mount_all(fields)

    def _show_players(self) -> None:
        catalog = self.arena.catalog
        self.query_one("#players-info", Static).update(
            players_summary(self.choices, not catalog.loaded, catalog.error)
        )

    def refresh_players(self) -> None:
        """The model list arrived: offer the models in every seat list, keeping choices."""
        from arena.app.home_data import TYPED, seat_options

        if self.definition is None or self.draft is None:
            return
        if self._building:
            # The seat selects are being (re)mounted, possibly under another screen that keeps
            # this one from finishing; refresh once they exist.
            self._players_stale = True
            return
        typed = [c for c in self.choices if c.description == TYPED]
        self.choices = seat_options(self.definition, self.arena.catalog, self.arena.extra_player_names)
        self.choices += [c for c in typed if all(c.spec != known.spec for known in self.choices)]
        for index, seat in enumerate(self._seat_order):
            select = self.query_one(f"#seat-select-{index}", Select)
            chosen = self.draft.seats.get(seat)
            select.set_options([(option_label(c), c.spec) for c in self.choices])
            if chosen in {c.spec for c in self.choices}:
                select.value = chosen
        self._show_players()

    def _show_rules(self) -> None:
        """The rules as each seat is told them with the options entered so far."""
        from arena.app.widgets.setup_fields import rules_view

        if self.definition is None or self.draft is None:
            return
        given: dict[str, str] = {name: text for name, text in self.draft.options.items() if text.strip()}
        self.query_one("#game-rules", Static).update(rules_view(self.definition, given))

    def _settling(self) -> bool:
        """True while the set-up is being rebuilt, or the highlighted game is not yet the one shown."""
        if self._building:
            return True
        games = self.query_one("#games", OptionList)
        if games.highlighted is None or self.definition is None:
            return False
        # The highlight moved (a key) and its message, which rebuilds the set-up, is still queued.
        shown = games.get_option_at_index(games.highlighted).id
        return shown is not None and shown != self.definition.name

    def _after_building(self) -> None:
        """The set-up is whole again: catch up on what arrived while it was rebuilt."""
        if self._players_stale:
            self._players_stale = False
            self.refresh_players()
        asked, self._asked_while_building = self._asked_while_building, None
        if asked == "start":
            self.action_start()
        elif asked == "tournament":
            self.action_tournament()

    # -- edits --------------------------------------------------------------------------
    @on(Input.Changed, "#options Input")
    async def _option_typed(self, event: Input.Changed) -> None:
        await self._option_changed(event.input.id or "", event.value)

    @on(Select.Changed, "#options Select")
    async def _option_chosen(self, event: Select.Changed) -> None:
        await self._option_changed(
            event.select.id or "", "" if event.value is Select.NULL else str(event.value)
        )

    async def _option_changed(self, widget_id: str, value: str) -> None:
        if self.draft is None or self._building:
            return
        if widget_id == "opt-seed":
            if value != self.draft.seed:  # typed: not the field's first value, nor one _show_seed_field set
                self.draft.seed_given = True
            self.draft.seed = value
        elif widget_id.startswith("opt-"):
            self.draft.options[self._option_names[int(widget_id.removeprefix("opt-"))]] = value
            self._show_rules()
        if self.draft.seat_names() != self._seat_order:
            self._building = True
            try:
                await self._build_seats()
            finally:
                self._building = False
            self._after_building()
        self._show_errors(final=False)

    @on(Select.Changed, "#seats Select")
    def _seat_chosen(self, event: Select.Changed) -> None:
        if self.draft is None or event.value is Select.NULL or self._building:
            return
        index = int((event.select.id or "seat-select-0").removeprefix("seat-select-"))
        if index < len(self._seat_order):
            self.draft.seats[self._seat_order[index]] = str(event.value)
        self._show_errors(final=False)

    def _note(self, selector: str, message: str) -> None:
        # query_one finds an id without matching every widget against a selector (query does),
        # and this runs for every field after each key typed into the set-up
        try:
            note = self.query_one(selector, Static)
        except NoMatches:
            return
        note.update(safe_text(message))
        if note.has_class("seat-error"):
            note.display = bool(message)

    def _show_errors(self, *, final: bool) -> dict[str, str]:
        from arena.app.home_data import SEED_FIELD

        assert self.draft is not None
        self._show_seed_field()
        errors = self.draft.errors(self.choices)
        self._note("#opt-error-seed", errors.get(SEED_FIELD, ""))
        for index, name in enumerate(self._option_names):
            self._note(f"#opt-error-{index}", errors.get(name, ""))
        for index, seat in enumerate(self._seat_order):
            self._note(f"#seat-error-{index}", errors.get(f"seat:{seat}", ""))
        message = "please correct the marked fields" if errors and final else ""
        self._start_error(message)
        return errors

    def _start_error(self, message: str) -> None:
        """Why the match did not start, under the Start button (the line is hidden when empty)."""
        line = self.query_one("#start-error", Static)
        line.update(safe_text(message, "red"))
        line.display = bool(message)

    def _show_seed_field(self) -> None:
        """A seed no one typed reads "secret" while a person is seated, and 0 otherwise."""
        assert self.draft is not None
        if self.draft.seed_given:
            return
        secret = self.draft.secret_deal()
        shown = "" if secret else "0"
        for field in self.query("#opt-seed").results(Input):
            field.placeholder = "secret (a person plays)" if secret else "0"
            # The words are wider than a value's column: the seed's field takes the whole row then.
            for row in field.ancestors:
                if row.has_class("option-field"):
                    row.set_class(secret, "-seed-secret")
                    break
            if field.value != shown:
                self.draft.seed = shown  # first, so the field's change event is not taken as typing
                field.value = shown

    # -- actions ------------------------------------------------------------------------
    @on(Button.Pressed, "#start")
    def _start_pressed(self) -> None:
        self.action_start()

    def action_start(self) -> None:
        """Check the set-up and start the match (it runs even if you leave its screen)."""
        from arena.plugins.games import UnknownGameError
        from arena.plugins.players import SpecError

        if self.draft is None:
            return
        if self._settling():
            # A key pressed just after choosing a game: its seats are not mounted yet and would
            # read as unchosen (or the game before it is still shown). The match starts once
            # the chosen game's set-up is whole, not never, and not the game before.
            self._asked_while_building = "start"
            return
        if self._show_errors(final=True):
            return
        try:
            self.arena.start_match(self.draft.config())
        except (SpecError, ValueError, UnknownGameError) as exc:
            self._start_error(str(exc))
            return
        self.arena.setups.used(self.draft.definition.name, self.draft.setup())

    @on(Button.Pressed, "#tournament")
    def _tournament_pressed(self) -> None:
        self.action_tournament()

    @on(Input.Submitted, "#tournament-seeds")
    def _tournament_seeds_submitted(self) -> None:
        self.action_tournament()

    def action_tournament(self) -> None:
        """Set up a tournament of this game's seat players, seed and options (checked there)."""
        if self.draft is None:
            return
        if self._settling():  # as for a start: once the set-up is whole
            self._asked_while_building = "tournament"
            return
        from arena.app.home_data import default_seats
        from arena.app.tournament_data import TournamentDraft  # the tournament code loads when used

        seeds = self.query_one("#tournament-seeds", Input).value
        # The last tournament of this game, with what was changed here on top of it.
        kept = self.arena.setups.recall_tournament(self.draft.definition.name)
        defaults = default_seats(self.draft.seat_names(), self.choices)
        self.arena.open_tournament_setup(TournamentDraft.from_match(self.draft, seeds, kept, defaults))

    def action_episodes(self) -> None:
        """Browse saved episodes."""
        self.arena.open_episodes()

    def action_watch(self) -> None:
        """Go to the most recent match of this session."""
        matches = self.arena.matches.matches
        if not matches:
            self.notify("no match in this session yet", markup=False)
            return
        running = self.arena.matches.running()
        self.arena.watch_match((running or matches)[-1])

    @on(OptionList.OptionSelected, "#session-matches")
    def _session_selected(self, event: OptionList.OptionSelected) -> None:
        self.query_one(SessionList).open(event.option.id or "")

    def refresh_matches(self) -> None:
        """List this session's matches and tournaments with their progress."""
        self.query_one(SessionList).refresh_from(self.arena)

    def refresh_recent(self) -> None:
        """The last few saved episodes."""
        rows = self.arena.store.list_episodes(limit=8)
        self.query_one("#recent", Static).update(recent_view(rows))
