"""One Arena definition per listed TextArena environment, built from the listing alone.

Making a definition imports no TextArena (``arena games`` prints every definition's facts and
TextArena takes ~1.4 s to import): the state, the rules text and the episodes import it when
a game is played. The options are data made from the listed constructor parameters and their
registered defaults, typed by the defaults, plus ``players`` for an environment that takes
more than one count; their pydantic model is made when a game is played, not when it is
listed. The rules a seat is told are the environment's own first message to that player (its
PROMPT), which the listed environments write from their parameters alone (a test checks it is
the same for every seed)."""

from __future__ import annotations

import functools
import importlib.metadata
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel

from arena.contract.game import GameDefinition
from arena.contract.options import GameOption, OptionError, OptionsOnDemand, options_model
from arena.contract.templates import template_version
from games.textarena_catalogue.listing import ADAPTER_VERSION, LIBRARY, LIBRARY_VERSION, ListedEnv
from games.textarena_catalogue.messages import Message, conversation
from games.textarena_catalogue.seats import seat_name
from games.textarena_catalogue.view import TextArenaView

if TYPE_CHECKING:
    from arena.contract.baseline import BaselineInfo
    from games.textarena_catalogue.episode import Episode
    from games.textarena_catalogue.observation import TextArenaObservation
    from games.textarena_catalogue.state import TextArenaState

PROMPT_TEMPLATE = """\
{rules}

What the game has told you so far:
{conversation}
{moves}
Your move, in the format the game asks for:"""
"""A seat's prompt: the environment's rules text, then its messages as TextArena's LLM wrapper writes them."""


class TextArenaDefinition(GameDefinition[BaseModel, "TextArenaObservation", "TextArenaState"]):
    """A TextArena environment as an Arena game (one subclass per environment: :func:`make_definition`)."""

    listing: ClassVar[ListedEnv]
    Options = OptionsOnDemand(lambda made: _options_model(made.listing))
    library: ClassVar[str] = LIBRARY
    library_version: ClassVar[str] = LIBRARY_VERSION
    prompt_version: ClassVar[str] = template_version(PROMPT_TEMPLATE)
    outcome_rule: ClassVar[str] = (
        "TextArena's rewards are the scores (usually +1 for a win, -1 for a loss, 0 for a draw); the"
        " seat with the highest score wins, seats sharing it draw."
    )
    listing_order: ClassVar[int] = 500
    private_information: ClassVar[bool] = True
    """Declared for every TextArena game, conservatively: TextArena says nothing of it, and any
    message the environment sends one player alone (a hand, a secret word, a board only its
    owner sees) is that seat's secret; ``with_sentinel`` marks each of them."""
    race_outcome_rule: ClassVar[str] = (
        "A race on one seeded puzzle: each seat's score is its own copy's TextArena reward less one"
        " millionth per step it used, so the higher reward wins and, between equal rewards, fewer"
        " steps; seats sharing the score draw."
    )

    def __init__(self) -> None:
        self.view = TextArenaView()

    @property
    def options(self) -> tuple[GameOption, ...]:
        """The options as listed: the data the model is made from."""
        return _option_list(self.listing)

    @property
    def default_seats(self) -> tuple[str, ...]:
        """:meth:`seats` with the default options (the fewest players), without making the model."""
        return self._seat_names(self.listing.players[0])

    def seats(self, options: BaseModel) -> tuple[str, ...]:
        """``p0`` ... for the environment's players."""
        return self._seat_names(int(getattr(options, "players", self.listing.players[0])))

    @staticmethod
    def _seat_names(count: int) -> tuple[str, ...]:
        return tuple(seat_name(i) for i in range(count))

    def state_class(self) -> type[TextArenaState]:
        """The TextArena state class, or the race's for a puzzle (TextArena is imported with it)."""
        if self.listing.race:
            from games.textarena_catalogue.race import TextArenaRaceState

            return TextArenaRaceState
        from games.textarena_catalogue.state import TextArenaState

        return TextArenaState

    @property
    def baselines(self) -> Mapping[str, BaselineInfo]:
        """``random``: a uniformly random legal move (a fixed move could tie HighSociety's bids forever);
        ``lazy``: half the time the first legal move, else a random one (a second player for tournaments)."""
        from games.textarena_catalogue.baselines import BASELINES

        return BASELINES

    def parse_options(self, given: dict[str, Any]) -> BaseModel:
        """The options, and the environment built once with them: a failure is a one-line ``OptionError``.

        TextArena checks no parameter: a value its code cannot play fails in the first reset or the
        first move list, which would otherwise happen after the episode is stored.
        """
        options = super().parse_options(given)
        problem = _start_problem(type(self), json.dumps(options.model_dump(mode="json"), sort_keys=True))
        if problem:
            raise OptionError(problem)
        return options

    def constructor_arguments(self, options: BaseModel) -> dict[str, Any]:
        """The environment's parameters as the options set them (``players`` is not one)."""
        return {name: value for name, value in options.model_dump().items() if name != "players"}

    def start_episode(self, seed: int, options: BaseModel) -> Episode:
        """A new isolated episode of the environment."""
        from games.textarena_catalogue.episode import Episode

        count = 1 if self.listing.race else len(self.seats(options))  # a racer plays a one-player copy
        kwargs = self.constructor_arguments(options)
        return Episode(self.listing.env_id, kwargs, count, seed, uses_numpy=self.listing.uses_numpy)

    def rules(self, options: BaseModel, seat: str) -> str:
        """The environment's own rules text for ``seat`` (its first message to that player)."""
        return _rules_text(type(self), json.dumps(options.model_dump(mode="json"), sort_keys=True), seat)

    def prompt(self, observation: TextArenaObservation, rules: str) -> str:
        """The rules, then every other message the player received, in TextArena's own wording.

        The rules are the environment's own first message in this episode when the observation
        holds it: a puzzle's may show its seeded board (they equal ``rules`` where it does not).
        """
        told = [Message(-1, m.sender, m.text, m.kind) for m in observation.messages if m.kind != "PROMPT"]
        own = "\n".join(m.text for m in observation.messages if m.kind == "PROMPT")
        return PROMPT_TEMPLATE.format(
            rules=own or rules, conversation=conversation(told).lstrip("\n"), moves=moves_text(observation)
        )


LISTED_MOVES_CAP = 300
"""Legal moves written out in a prompt at most (the schema's enum holds them all)."""


def moves_text(observation: TextArenaObservation) -> str:
    """The legal moves now, by the names the schema accepts; where none are listed, the format's examples."""
    moves = observation.moves
    if moves:
        shown = ", ".join(moves[:LISTED_MOVES_CAP])
        more = f" (the first {LISTED_MOVES_CAP} of {len(moves)})" if len(moves) > LISTED_MOVES_CAP else ""
        return f"\nYour legal moves now{more}; reply with exactly one of them, as written: {shown}\n"
    if observation.examples:
        examples = ", ".join(observation.examples)
        return f"\nMoves are not listed for this game; examples of its format: {examples}\n"
    return ""


@functools.lru_cache(maxsize=256)
def _rules_text(definition: type[TextArenaDefinition], options_json: str, seat: str) -> str:
    game = definition()
    options = game.Options.model_validate(json.loads(options_json))
    player = 0 if definition.listing.race else int(seat.removeprefix("p"))  # a racer is its copy's player 0
    texts = []
    for seed in (0, 1):
        episode = game.start_episode(seed, options)
        texts.append("\n".join(m.text for m in episode.histories[player] if m.kind == "PROMPT"))
    if texts[0] == texts[1]:
        return texts[0]
    # SimpleNegotiation's resources, TruthAndDeception's facts, SecretMafia's roles: the first message
    # carries the episode's own facts, so a model's prompt uses its episode's (see prompt())
    return f"{texts[0]}\n\n{SEEDED_RULES_NOTE}"


SEEDED_RULES_NOTE = (
    "(This is the environment's first message in the episode of seed 0: it writes each episode's"
    " own, with that episode's private facts, and a seat's prompt shows its own.)"
)
"""Said under the rules of an environment whose first message depends on the seed."""


@functools.lru_cache(maxsize=256)
def _start_problem(definition: type[TextArenaDefinition], options_json: str) -> str | None:
    """Why the environment cannot start with these options (one line), or ``None``: built once per process."""
    game = definition()
    options = game.Options.model_validate(json.loads(options_json))
    try:
        state = game.new_state(0, options)
        for seat in state.pending():  # what the first turn needs: the seat's view and a move to make
            state.observation(seat)
            state.fallback(seat)
    except Exception as exc:  # the library's code fails in its own ways: said in one line
        said = " ".join(str(exc).split())[:200] or "no message"
        return (
            f"{game.name} cannot be played with these options: TextArena fails ({type(exc).__name__}: {said})"
        )
    return None


@functools.cache
def _option_list(listing: ListedEnv) -> tuple[GameOption, ...]:
    low, high = listing.players
    players = (
        [GameOption("players", low, "how many players", minimum=low, maximum=high)] if low != high else []
    )
    ranges = {name: (low, high) for name, low, high in listing.ranges}
    return (
        *players,
        *(
            GameOption(name, default, f"TextArena's {name} parameter", (), *ranges.get(name, (None, None)))
            for name, default in listing.options
        ),
    )


def _options_model(listing: ListedEnv) -> type[BaseModel]:
    name = "Options_" + "".join(ch if ch.isalnum() else "_" for ch in listing.env_id)
    return options_model(name, _option_list(listing), module=__name__)


@functools.cache
def installed_version() -> str:
    """The installed TextArena's version (stored episodes say what they were played with), read once."""
    return importlib.metadata.version("textarena")


def make_definition(listing: ListedEnv) -> TextArenaDefinition:
    """The definition of a listed environment (``textarena:ID``, version ``LIBRARY/ADAPTER``: ``0.7.4/1``)."""
    installed = installed_version()
    attributes: dict[str, Any] = {
        "name": f"textarena:{listing.env_id}",
        "version": f"{installed}/{ADAPTER_VERSION}",
        "title": f"{listing.title} (TextArena)",
        "description": f"{listing.description} {listing.summary} TextArena environment {listing.env_id}.",
        "listing": listing,
        **(
            {"outcome_rule": TextArenaDefinition.race_outcome_rule, "seats_differ": False}
            if listing.race
            else {}
        ),
        "library_version": installed,
        "__module__": __name__,  # else "abc" (ABCMeta): a report discloses the source of this module
    }
    made = type(f"TextArena_{listing.env_id.replace('-', '_')}", (TextArenaDefinition,), attributes)
    definition: TextArenaDefinition = made()
    return definition
