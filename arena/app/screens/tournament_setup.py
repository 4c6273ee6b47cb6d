"""Setting up a tournament: game, players (any spec), deal seeds, master seed, options, concurrency.

The logic lives in :class:`~arena.app.tournament_data.TournamentDraft`; this screen only
shows it and marks each problem on its field. Players come from the list of the game's
baselines and the models file's models, or are typed as any spec (``openai:MODEL``,
``openai-compat:MODEL@URL``, a models-file name); a bad spec is refused with its reason
under the box.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.suggester import SuggestFromList
from textual.widget import Widget
from textual.widgets import Button, Header, Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from arena.app.home_data import SEED_FIELD, option_title
from arena.app.safe import safe_line, safe_text
from arena.app.screens.base import ArenaScreen
from arena.app.tournament_data import (
    CLUSTER_FIELD,
    CONCURRENCY_FIELD,
    ON_INVALID_CHOICES,
    ON_INVALID_FIELD,
    ON_INVALID_FIELD_INFO,
    PLAYERS_FIELD,
    SEEDS_FIELD,
    TournamentDraft,
    player_choices,
    player_problem,
    suggestions,
)
from arena.app.widgets.fitted_input import FittedPlaceholderInput
from arena.app.widgets.home_parts import option_label
from arena.app.widgets.setup_fields import label_width, labelled_field, option_control
from arena.app.widgets.steady_footer import SteadyFooter
from arena.plugins.games import UnknownGameError, game_names, get_game
from arena.plugins.players import SpecError
from arena.tournament.config import TournamentConfigError

SPEC_HINT = "any spec: baseline:NAME, a models-file name, openai:MODEL, openai-compat:MODEL@URL"
SPEC_HINTS = (SPEC_HINT, "any spec: baseline:NAME, openai:MODEL, …", "any player spec")
"""The typed player field's placeholder, fullest first: the one that fits is shown."""
FIXED_FIELDS = (
    (SEEDS_FIELD, "deal seeds", "integer", "every line-up plays each deal seed, in every seating"),
    (SEED_FIELD, "master seed", "integer", "the deal seeds are drawn from this seed"),
    (CONCURRENCY_FIELD, "episodes at once", "integer", "how many episodes play at the same time"),
    ("name", "name (optional)", "text", "a name for the tournament list"),
    (
        CLUSTER_FIELD,
        "cluster (optional)",
        "text",
        "ray: start a Ray instance here; ray=HOST:PORT: join a running cluster; empty: play here",
    ),
)
ON_INVALID_TITLE = "invalid answer"
"""The invalid-move policy's label: what a model's unusable answer after the re-ask leads to."""


class TournamentSetupScreen(ArenaScreen):
    """Choose a game and players, set seeds and options, start a tournament."""

    HELP_NAME = "tournament set-up"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "Start tournament", priority=True),
        Binding("delete", "remove_player", "Remove player"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, draft: TournamentDraft | None = None) -> None:
        super().__init__()
        self.draft = draft
        self.sub_title = "new tournament"
        self._option_names: list[str] = []
        self._building = False

    def compose(self) -> ComposeResult:
        """Build the widgets."""
        names = []
        for name in game_names():
            try:
                names.append((Text(get_game(name).title), name))
            except UnknownGameError:
                continue
        listed = [name for _, name in names]
        last = self.arena.setups.last_tournament_game()
        # Opened on its own: the game of the last tournament started, with its set-up.
        first = self.draft.definition.name if self.draft else last if last in listed else listed[0]
        yield Header()
        with Horizontal(id="tsetup"):
            with Vertical(id="tsetup-left"):
                yield Select(names, value=first, allow_blank=False, id="t-game", compact=True)
                yield OptionList(id="t-choices")
            # The set-up scrolls; Start sits below it, in view at any height.
            with Vertical(id="tsetup-main"):
                with VerticalScroll(id="tsetup-scroll"):
                    yield Static(Text(""), id="t-about")
                    yield OptionList(id="t-players")
                    yield Static(Text(""), id="t-players-error", classes="field-error")
                    with Horizontal(id="t-new-row"):
                        yield FittedPlaceholderInput(SPEC_HINTS, id="t-new", compact=True)
                        yield Button("Add", id="t-add", compact=True)
                    yield Static(Text(""), id="t-new-error", classes="field-error")
                    yield Grid(id="t-fields")
                    yield Static(Text(""), id="t-summary")
                with Horizontal(id="t-start-row"):
                    yield Button("Start tournament (ctrl+s)", id="t-start", variant="primary", compact=True)
                    yield Static(Text(""), id="t-start-error")
        yield SteadyFooter()

    async def on_mount(self) -> None:
        """Set up once the widgets exist."""
        self.query_one("#t-choices").border_title = "add a player (enter)"
        self.query_one("#t-players").border_title = "players (delete: remove)"
        self.query_one("#t-fields").border_title = "seeds, options and concurrency"
        self.query_one("#tsetup-scroll").can_focus = False
        game = str(self.query_one("#t-game", Select).value)
        await self.select_game(game, keep=self.draft or self._kept(game))
        self.query_one("#t-choices", OptionList).focus()

    # -- game and players ---------------------------------------------------------------
    @on(Select.Changed, "#t-game")
    async def _game_changed(self, event: Select.Changed) -> None:
        if event.value is Select.NULL or (self.draft and self.draft.definition.name == event.value):
            return
        await self.select_game(str(event.value))

    async def select_game(self, name: str, keep: TournamentDraft | None = None) -> None:
        """Show ``name``'s players and options; model players carry over from the last game."""
        definition = get_game(name)
        old = self.draft
        if keep is None and old is not None:  # a game chosen here: keep what was entered for the last
            self.arena.setups.remember_tournament(old.definition.name, old.setup())
            keep = self._kept(name)
        draft = keep if keep is not None else TournamentDraft(definition)
        if keep is None and old is not None:
            draft.seeds, draft.seed, draft.concurrency, draft.name, draft.cluster, draft.on_invalid = (
                old.seeds,
                old.seed,
                old.concurrency,
                old.name,
                old.cluster,
                old.on_invalid,
            )
            for text in old.players:
                if not text.startswith("baseline:") or text.removeprefix("baseline:") in definition.baselines:
                    draft.add(text)
        if not draft.players:
            for baseline in list(definition.baselines)[:3]:
                draft.add(f"baseline:{baseline}")
        self.draft = draft
        about = safe_line(
            (definition.title, "bold"), (f"  ·  seats: {', '.join(definition.default_seats)}", "dim")
        )
        self.query_one("#t-about", Static).update(about)
        self.refresh_players()
        self._building = True
        try:
            await self._build_fields()
        finally:
            self._building = False
        self._show_errors(final=False)

    def _kept(self, game: str) -> TournamentDraft | None:
        """The last tournament set-up of ``game`` (this session's, else the file's), if any."""
        kept = self.arena.setups.recall_tournament(game)
        if kept is None:
            return None
        draft = TournamentDraft(get_game(game))
        draft.restore(kept)
        return draft

    def refresh_players(self) -> None:
        """Offer the game's baselines and the models file's models (called again once loaded)."""
        if self.draft is None:
            return
        catalog = self.arena.catalog
        choices = player_choices(self.draft.definition, catalog)
        box = self.query_one("#t-choices", OptionList)
        box.clear_options()
        box.add_options([Option(option_label(c), id=c.spec) for c in choices])
        if not catalog.loaded:
            box.add_option(
                Option(Text("… checking which models can play", style="dim italic"), disabled=True)
            )
        box.highlighted = 0 if choices else None
        self.query_one("#t-new", Input).suggester = SuggestFromList(
            suggestions(choices), case_sensitive=False
        )
        self._show_players()

    def _show_players(self) -> None:
        assert self.draft is not None
        catalog = self.arena.catalog
        box = self.query_one("#t-players", OptionList)
        highlighted = box.highlighted
        box.clear_options()
        for index, text in enumerate(self.draft.players):
            problem = player_problem(text, self.draft.definition, catalog)
            label = (
                safe_line((f"✗ {text}", "red"), (f"  {problem}", "dim"))
                if problem
                else safe_text(f"✓ {text}")
            )
            box.add_option(Option(label, id=str(index)))
        if self.draft.players:
            box.highlighted = min(highlighted or 0, len(self.draft.players) - 1)

    def add_player(self, text: str) -> str:
        """Add ``text`` if it can play; returns the problem otherwise (also shown inline)."""
        assert self.draft is not None
        text = text.strip()
        problem = (
            player_problem(text, self.draft.definition, self.arena.catalog) if text else "type a player spec"
        )
        if not problem and text in self.draft.players:
            problem = f"{text} is already in the tournament"
        self.query_one("#t-new-error", Static).update(safe_text(problem))
        if not problem:
            self.draft.add(text)
            self._show_players()
            self._show_errors(final=False)
        return problem

    @on(OptionList.OptionSelected, "#t-choices")
    def _choice_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.add_player(event.option.id)

    @on(Input.Submitted, "#t-new")
    @on(Button.Pressed, "#t-add")
    def _typed_player(self) -> None:
        box = self.query_one("#t-new", Input)
        if not self.add_player(box.value):
            box.value = ""

    def action_remove_player(self) -> None:
        """Drop the highlighted player of the tournament."""
        box = self.query_one("#t-players", OptionList)
        if self.draft is None or box.highlighted is None:
            return
        self.draft.remove(box.highlighted)
        self._show_players()
        self._show_errors(final=False)

    # -- fields -------------------------------------------------------------------------
    async def _build_fields(self) -> None:
        assert self.draft is not None
        draft = self.draft
        values = {SEEDS_FIELD: draft.seeds, SEED_FIELD: draft.seed, CONCURRENCY_FIELD: draft.concurrency}
        values["name"] = draft.name
        values[CLUSTER_FIELD] = draft.cluster
        box = self.query_one("#t-fields", Grid)
        await box.remove_children()
        fields: list[Widget] = []
        titles = [title for _, title, _, _ in FIXED_FIELDS] + [ON_INVALID_TITLE]
        width = label_width(titles + [option_title(option) for option in draft.definition.options])
        for key, title, kind, tip in FIXED_FIELDS:
            kind_: Literal["integer", "text"] = "integer" if kind == "integer" else "text"
            control = Input(values[key], id=f"tf-{key}", type=kind_, compact=True)
            control.tooltip = Text(tip)
            fields.append(labelled_field(title, control, f"tf-error-{key}", width))
        policy: Select[str] = Select(
            [(Text(choice), choice) for choice in ON_INVALID_CHOICES],
            value=draft.on_invalid,
            allow_blank=False,
            id=f"tf-{ON_INVALID_FIELD}",
            compact=True,
        )
        policy.tooltip = Text(ON_INVALID_FIELD_INFO.description or "")
        fields.append(labelled_field(ON_INVALID_TITLE, policy, f"tf-error-{ON_INVALID_FIELD}", width))
        self._option_names = []
        for index, option in enumerate(draft.definition.options):
            self._option_names.append(option.name)
            value = draft.options.get(option.name, str(option.default))
            widget = option_control(option, value, f"tf-opt-{index}")
            fields.append(labelled_field(option_title(option), widget, f"tf-error-opt-{index}", width))
        await box.mount_all(fields)

    @on(Input.Changed, "#t-fields Input")
    def _field_typed(self, event: Input.Changed) -> None:
        self._field_changed(event.input.id or "", event.value)

    @on(Select.Changed, "#t-fields Select")
    def _field_chosen(self, event: Select.Changed) -> None:
        self._field_changed(event.select.id or "", "" if event.value is Select.NULL else str(event.value))

    def _field_changed(self, widget_id: str, value: str) -> None:
        if self.draft is None or self._building:
            return
        key = widget_id.removeprefix("tf-")
        if key.startswith("opt-"):
            self.draft.options[self._option_names[int(key.removeprefix("opt-"))]] = value
        elif key == SEEDS_FIELD:
            self.draft.seeds = value
        elif key == SEED_FIELD:
            self.draft.seed = value
        elif key == CONCURRENCY_FIELD:
            self.draft.concurrency = value
        elif key == "name":
            self.draft.name = value
        elif key == CLUSTER_FIELD:
            self.draft.cluster = value
        elif key == ON_INVALID_FIELD:
            self.draft.on_invalid = value
        self._show_errors(final=False)

    def _show_errors(self, *, final: bool) -> dict[str, str]:
        assert self.draft is not None
        errors = self.draft.errors(self.arena.catalog)
        for key, *_ in FIXED_FIELDS:
            self.query_one(f"#tf-error-{key}", Static).update(safe_text(errors.get(key, "")))
        for index, name in enumerate(self._option_names):
            self.query_one(f"#tf-error-opt-{index}", Static).update(safe_text(errors.get(name, "")))
        players = errors.get(PLAYERS_FIELD, "")
        if not players and any(key.startswith("player:") for key in errors):
            players = "remove or fix the players marked ✗"
        self.query_one("#t-players-error", Static).update(safe_text(players))
        message = "please correct the marked fields" if errors and final else ""
        self.query_one("#t-start-error", Static).update(safe_text(message, "red"))
        count = self.draft.slot_count()
        summary = (
            f"{len(self.draft.players)} players · {count} episodes "
            f"({self.draft.seeds.strip()} deal seeds × every line-up in every seating)"
            f" · {ON_INVALID_TITLE}: {self.draft.on_invalid}"
            if count
            else ""
        )
        self.query_one("#t-summary", Static).update(safe_text(summary, "dim"))
        return errors

    # -- actions ------------------------------------------------------------------------
    @on(Button.Pressed, "#t-start")
    def _start_pressed(self) -> None:
        self.action_start()

    def action_start(self) -> None:
        """Check the set-up, store the tournament and start playing it."""
        if self.draft is None or self._show_errors(final=True):
            return
        draft = self.draft
        try:
            self.arena.start_tournament(draft.config())
        except (TournamentConfigError, SpecError, ValueError, UnknownGameError) as exc:
            self.query_one("#t-start-error", Static).update(safe_text(str(exc), "red"))
            return
        # Kept beside the database: the next set-up of this game (here or in another app) opens on it.
        self.arena.setups.tournament_used(draft.definition.name, draft.setup())

    def action_back(self) -> None:
        """Back to where you came from, keeping what was entered for this session."""
        if self.draft is not None:
            self.arena.setups.remember_tournament(self.draft.definition.name, self.draft.setup())
        self.arena.pop_or_home()
