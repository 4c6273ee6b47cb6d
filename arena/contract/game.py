"""The game contract: a definition (the game's facts), a state (one episode's rules) and a view.

A game is three classes, each generic over the game's own types so mypy checks a game's
code without ``assert isinstance``:

- ``GameDefinition[OptionsT, ObservationT, StateT]`` declares the facts once and makes states;
- ``GameState[OptionsT, ObservationT, ActionT]`` holds one episode and its rules;
- ``GameView[StateT, ActionT]`` (optional) says how front ends show the game.

Every hook, required and optional (docs/writing-a-game.md lists the same):

Definition, required
    ``name``, ``version`` (bump it with any rule change), ``title``, ``description``,
    ``prompt_version`` (``template_version(...)`` of the prompt's texts), ``Options`` (a
    pydantic model; :class:`arena.contract.options.NoOptions` for none), ``seats(options)``,
    ``state_class()``, ``baselines``, ``rules(options, seat)``, ``prompt(observation, rules)``,
    ``private_information`` (whether seats hold secrets: ``True`` needs ``with_sentinel``).
Definition, optional
    ``view`` (a :class:`GameView`), ``summary_metrics``, ``episode_metrics``,
    ``dealt_metrics``, ``seats_differ``, ``outcome_rule``, ``listing_order``, ``rules_notes``.
State, required
    ``pending()``, ``observation(seat)``, ``action_model(seat)``, ``fallback(seat)``,
    ``sample_action(seat, rng)``, ``apply(actions)``, ``result()``, ``to_json()``,
    ``from_json(definition, data)``.
State, optional
    ``validate(seat, action)``, ``over()``, ``turn_state(seat)``, ``with_sentinel(seat, n)``.
View, all optional
    ``render(state, viewer)``, ``describe_action(state, seat, action)``,
    ``step_outcome(state, seat)``, ``progress(state)``, ``score_series(state)``,
    ``score_series_title``, ``score_series_x``, ``score_series_first``, ``export_extra(state)``,
    ``caution(state, seat, action)``,
    ``entry_note(state, seat, field, text)``, ``form_choices(state, seat, field)``,
    ``report_charts(episodes)``.

A state owns its random generators and never touches the global ``random``. It serves
turn-based games (``pending()`` is one seat), simultaneous moves (several seats) and one-seat
games alike. What a seat may know is exactly ``observation(seat)``, a typed pydantic model that
feeds the prompt, the seat's view and the baselines. The engine imports neither Rich nor
Textual: a view's ``render`` returns a Rich renderable or plain text, drawn by the front ends.
Definitions are found through the ``arena.games`` entry point group (:mod:`arena.plugins.games`),
or handed over directly (``arena.testing.check_game(DEFINITION)``).
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self

from pydantic import BaseModel
from typing_extensions import TypeVar

from arena.contract.options import GameOption, option_fields, resolve_options
from arena.contract.validation_errors import one_line

if TYPE_CHECKING:  # listing games (``arena games``) loads no player code
    from arena.contract.baseline import BaselineInfo

# Each parameter defaults to Any, so the engine, which handles every game alike, writes plain
# ``GameState`` and ``GameDefinition``; a game names its own types and gets them checked.
OptionsT = TypeVar("OptionsT", bound=BaseModel, default=Any)
ObservationT = TypeVar("ObservationT", bound=BaseModel, default=Any)
ActionT = TypeVar("ActionT", bound=BaseModel, default=Any)
StateT = TypeVar("StateT", bound="GameState[Any, Any, Any]", default=Any)


@dataclass(slots=True)
class SeatResult:
    """A seat's final score and the game's metrics for it."""

    score: float
    metrics: dict[str, Any] = field(default_factory=dict)


class GameView(Generic[StateT, ActionT]):
    """How front ends show a game. Every hook has a default; a game overrides what it wants.

    A definition's ``view`` holds one (a stateless object). Nothing here changes how the game
    plays; ``describe_action``'s text is stored with each turn (``turns.action_text``).
    """

    score_series_title: ClassVar[str] = "score"
    """What :meth:`score_series` plots, as the chart's title."""
    score_series_x: ClassVar[str] = "step"
    """What a point's place in a :meth:`score_series` series counts, as the chart's x axis title."""
    score_series_first: ClassVar[int] = 0
    """The number the first point of a series has on that axis (1: it comes after the first move)."""

    def render(self, state: StateT, viewer: str | None) -> Any:
        """A view of ``state``: a Rich renderable, or text shown as it is (never read as markup).

        ``viewer=None`` is the full spectator view; a seat shows only what it may know.
        Default: the observation of each seat shown (only the viewer's own for a seat), as JSON.
        """
        seats = state.seats if viewer is None else (viewer,)
        return "\n".join(
            f"{seat}: {json.dumps(state.observation(seat).model_dump(mode='json'), ensure_ascii=False)}"
            for seat in seats
        )

    def describe_action(self, state: StateT, seat: str, action: ActionT) -> str:
        """A short line for an action in ``state`` after it was applied (histories, CLI, stored).

        Default: the action's fields but its ``reason``, as ``name value`` pairs.
        """
        fields = {name: value for name, value in action.model_dump(mode="json").items() if name != "reason"}
        return ", ".join(f"{name} {value}" for name, value in fields.items()) or type(action).__name__

    def step_outcome(self, state: StateT, seat: str) -> str | None:
        """What the last step came to for ``seat``, in one line (``sold 27/27 ...``), if anything.

        Shown only to those who may see ``seat``'s private information. Default: nothing.
        """
        return None

    progress_unit: ClassVar[str] = ""
    """What :meth:`progress` counts, in words (``days``, ``cards``: "7/40 cards"): shown beside the step
    number, which is another count (a day can take several steps)."""

    def progress(self, state: StateT) -> tuple[int, int]:
        """(units done, units expected) for progress displays; (0, 0) (default) if unknown.

        The unit is the game's own (:attr:`progress_unit`); the step number people see is the
        engine's (1-based), never this.
        """
        return (0, 0)

    def score_series(self, state: StateT) -> dict[str, list[float]]:
        """Per-seat score over time (for charts); empty (default) if not meaningful."""
        return {}

    def report_charts(self, episodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The game's own charts for tournament reports, as Vega-Lite specifications with data inlined.

        ``episodes`` are the counted episodes from their stored results, each
        ``{"episode_id", "deal_seed", "seating": {seat: player}, "scores": {seat: score},
        "metrics": {seat: {...}}}``. Return ``[{"name": "deal-prices", "title": "caption",
        "spec": {...}}]``: plain JSON (the report renders it; a game imports no chart library).
        Default: none (the report still draws ratings, the win matrix, scores, cost and
        :meth:`score_series`).
        """
        return []

    def export_extra(self, state: StateT) -> dict[str, Any]:
        """Game-specific data ``arena export`` adds once the stored actions are replayed (default none)."""
        return {}

    def caution(self, state: StateT, seat: str, action: ActionT) -> str | None:
        """A legal move a person should confirm first (``you will lose 7``), else ``None`` (default)."""
        return None

    def form_choices(self, state: StateT, seat: str, field: str) -> tuple[str, ...] | None:
        """The choices a person's form offers in ``field`` now, where the moment allows fewer.

        The action model declares every value a field can ever hold (Cattle Trade's five seats
        and ten species); a person is offered only those the moment allows (the seats they can
        challenge now), in both front ends. ``None`` (default): the declared ones.
        """
        return None

    def entry_note(self, state: StateT, seat: str, field: str, text: str) -> str | None:
        """A line shown with a person's entry in ``field`` of ``seat``'s form, as it is typed.

        For a blank ``text``, what the person has to work with (``you hold 0 10 50``), shown
        with the field's allowed values; for a typed one, what it comes to now (a running
        total: ``= 70, price 60, 10 over``). Information only: the game's check still decides
        on submit. ``None`` (default): nothing to add. Must not change ``state``.
        """
        return None


class GameDefinition(ABC, Generic[OptionsT, ObservationT, StateT]):
    """A game's fixed facts and how to start it: fill in the class variables and the abstract methods.

    ``arena games`` and the app's game list load every definition module, so keep it cheap:
    import the state, the baselines and Rich inside the methods that use them.
    """

    name: ClassVar[str]
    """The registered name (``arena play NAME``)."""
    version: ClassVar[str]
    """The rules' version, stored with every episode: bump it with any rule change."""
    title: ClassVar[str]
    description: ClassVar[str]
    prompt_version: ClassVar[str]
    """``template_version(...)`` of every text the prompt is made from."""
    Options: type[OptionsT]
    """The options model: its defaults, ranges, choices and descriptions are the options."""
    private_information: ClassVar[bool | None] = None
    """Whether a seat holds something another seat must not see (a hand, a reservation value, a
    sealed bid), as OpenSpiel's ``GameType.information`` says. Declare it: ``check_game`` refuses
    ``None``. ``True`` promises that :meth:`GameState.with_sentinel` plants a sentinel over each
    seat's secrets, so the leak check has something to look for (declared with nothing planted
    fails); ``False`` that every seat sees everything (a sentinel planted then fails too)."""
    view: GameView[StateT, Any] = GameView()
    """How front ends show the game (a :class:`GameView` with every hook at its default unless set)."""
    summary_metrics: ClassVar[tuple[str, ...]] = ()
    """The metrics tables lead with (tournament reports); empty means every metric."""
    episode_metrics: ClassVar[frozenset[str]] = frozenset()
    """Metrics that describe the whole episode (a deal's price): the same for every seat, shown once.

    Tournament tables show them as facts of the deals (per line-up and overall), never in a
    player's row: they are what both sides made together, not what one of them earned.
    """
    dealt_metrics: ClassVar[frozenset[str]] = frozenset()
    """Per-seat metrics the deal hands a seat rather than anything it did (bargain's ``own_number``).

    Equal for every player on paired deals, so tournament tables show them with the deals, per seat.
    """
    seats_differ: ClassVar[bool] = True
    """Whether seats are roles or positions worth telling apart (seller/buyer, stand a/b).

    When true, tournament tables break each player's own metrics down by the seat it held.
    False for games whose seats face the same task side by side (paperclip's racers).
    """
    outcome_rule: ClassVar[str] = (
        "In each episode the seat with the highest score wins and every other seat loses; seats"
        " sharing the highest score draw. With two seats the ratings count the win, draw or loss"
        " (Bradley-Terry); with three or more they read the episode's whole order by score"
        " (Plackett-Luce), equal scores tied."
    )
    """What a win, a draw and a loss mean for the tournament tables, in plain words.

    Shown where people read (``arena games``, the rules screen, table captions, reports) and
    never in model prompts: the rules text is part of the prompt, this is not.
    """
    listing_order: ClassVar[int] = 100
    """Where lists of games put this one (lower first, then by name)."""
    rules_notes: ClassVar[str] = ""
    """What people may know beyond the told rules (the demand formula the baselines use), or empty.

    Shown with the rules on the app's rules screen, never in model prompts (the rules text
    is part of the prompt, this is not): a prompt change would be a new prompt version.
    """

    # -- required ---------------------------------------------------------------------
    @abstractmethod
    def seats(self, options: OptionsT) -> tuple[str, ...]:
        """Seat names in play order for ``options`` (the only place seats are declared)."""

    @abstractmethod
    def state_class(self) -> type[StateT]:
        """The state class: made as ``cls(definition, seed, options)``, rebuilt by ``cls.from_json``."""

    @property
    @abstractmethod
    def baselines(self) -> Mapping[str, BaselineInfo]:
        """The game's scripted players by name (:func:`arena.contract.baseline.baseline_table`)."""

    @abstractmethod
    def rules(self, options: OptionsT, seat: str) -> str:
        """The rules as ``seat`` is told them (plain text, no strategy hints)."""

    @abstractmethod
    def prompt(self, observation: ObservationT, rules: str) -> str:
        """The model prompt filled from one seat's observation (one template for every seat)."""

    # -- derived ----------------------------------------------------------------------
    def new_state(self, seed: int, options: OptionsT) -> StateT:
        """A fresh seeded state."""
        return self.state_class()(self, seed, options)

    def state_from_json(self, data: dict[str, Any]) -> StateT:
        """The state ``GameState.to_json()`` wrote."""
        return self.state_class().from_json(self, data)

    def create(self, seed: int, options: dict[str, Any] | None = None) -> StateT:
        """A new state from a seed and option values as given (validated over the defaults)."""
        return self.new_state(seed, self.parse_options(options or {}))

    def prompt_for(self, state: StateT, seat: str) -> str:
        """The prompt ``seat`` is given in ``state`` now."""
        return self.prompt(state.observation(seat), self.rules(state.options, seat))

    def seats_for(self, given: dict[str, Any] | None = None) -> tuple[str, ...]:
        """Seats for option values as given (the defaults when ``None``)."""
        return self.seats(self.parse_options(given or {}))

    @property
    def default_seats(self) -> tuple[str, ...]:
        """Seats with the default options."""
        return self.seats(self.Options())

    @property
    def options(self) -> tuple[GameOption, ...]:
        """The options as the CLI and the app list them."""
        return option_fields(self.Options)

    def parse_options(self, given: dict[str, Any]) -> OptionsT:
        """The options model for ``given`` values; raises ``ValueError`` with one line."""
        from pydantic import ValidationError

        resolved = self.resolve_options(given)
        try:
            return self.Options.model_validate(resolved)
        except ValidationError as exc:
            raise ValueError(f"option {one_line(exc, whole='options')}") from None

    def resolve_options(self, given: dict[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with ``given``; raises ValueError on unknown or bad values."""
        return resolve_options(self.name, self.Options, given)


class GameState(ABC, Generic[OptionsT, ObservationT, ActionT]):
    """One episode's state and rules. Subclasses implement the abstract methods.

    ``definition`` is the game this state belongs to, ``seed`` the episode seed, ``options``
    the validated options model it was made with and ``seats`` the definition's seats for them.
    The engine hands :meth:`validate` and :meth:`apply` only instances of
    ``action_model(seat)``.
    """

    def __init__(
        self, definition: GameDefinition[OptionsT, ObservationT, Any], seed: int, options: OptionsT
    ) -> None:
        self.definition = definition
        self.seed = seed
        self.options = options
        self.seats: tuple[str, ...] = definition.seats(options)

    @property
    def name(self) -> str:
        """The game's registered name."""
        return self.definition.name

    # -- required ---------------------------------------------------------------------
    @abstractmethod
    def pending(self) -> list[str]:
        """Seats that must act now (several for simultaneous moves, none when over)."""

    @abstractmethod
    def observation(self, seat: str) -> ObservationT:
        """Typed view of exactly what ``seat`` may know now."""

    @abstractmethod
    def action_model(self, seat: str) -> type[ActionT]:
        """Pydantic model of an action ``seat`` may submit now (moment-dependent choices included)."""

    @abstractmethod
    def fallback(self, seat: str) -> ActionT:
        """The conservative legal action used when ``seat`` gives no legal one."""

    @abstractmethod
    def sample_action(self, seat: str, rng: random.Random) -> ActionT:
        """A uniformly-ish random legal action (for random play and conformance)."""

    @abstractmethod
    def apply(self, actions: dict[str, ActionT]) -> None:
        """Apply one legal action for every pending seat and advance the game."""

    @abstractmethod
    def result(self) -> dict[str, SeatResult]:
        """Per-seat score (the return) and metrics; meaningful once over, defined at any time."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """JSON-able full state, hidden information included; ``from_json`` rebuilds it."""

    @classmethod
    @abstractmethod
    def from_json(cls, definition: GameDefinition[OptionsT, ObservationT, Any], data: dict[str, Any]) -> Self:
        """The state :meth:`to_json` wrote."""

    # -- optional ---------------------------------------------------------------------
    def validate(self, seat: str, action: ActionT) -> str | None:
        """Rule checks beyond the action model's own: an explanation if illegal, else ``None`` (default)."""
        return None

    def over(self) -> bool:
        """True once the episode has ended (default: nobody is pending)."""
        return not self.pending()

    def turn_state(self, seat: str) -> dict[str, Any]:
        """What ``seat``'s turn row stores as its ``state``, right after the step was applied.

        The game as it stands after the step, for the replay and the export (and, as a digest,
        the proof that a rebuilt episode is the one played). Default: the seat's observation
        after the step. It may hold hidden values: only the full view shows it during play.
        """
        return self.observation(seat).model_dump(mode="json")

    def with_sentinel(self, seat: str, sentinel: int) -> Self | None:
        """A copy where ``seat``'s private values read ``sentinel``; ``None`` (default) if it has none.

        The conformance checker looks for the sentinel in every other seat's observation,
        prompt and view: finding it there is a leak. A game whose definition declares
        ``private_information = True`` must plant one for some seat in its episodes; one that
        declares ``False`` must plant none.
        """
        return None

    # -- derived ----------------------------------------------------------------------
    def returns(self) -> dict[str, float]:
        """Per-seat score: the ``score`` of :meth:`result`."""
        return {seat: result.score for seat, result in self.result().items()}

    def clone(self) -> Self:
        """An independent copy (through the JSON round trip, so nothing is shared)."""
        return type(self).from_json(self.definition, self.to_json())
