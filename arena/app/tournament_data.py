"""The tournament being set up, as plain objects: players, seeds, options, concurrency.

Texts are kept as typed and checked into a :class:`~arena.tournament.config.TournamentConfig`;
every problem is one line keyed by the field it belongs to, so the screen marks it inline.
A player may be any spec: a baseline, a name from the models file, or a typed model spec
such as ``openai-compat:MODEL@URL``. Nothing here imports Textual.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, get_args

from arena.app.home_data import SEED_FIELD, MatchDraft, SeatOption, seat_options
from arena.app.model_catalog import ModelCatalog
from arena.app.setup_memory import TournamentSetup
from arena.contract.game import GameDefinition
from arena.plugins.players import SpecError, parse_player_spec
from arena.tournament.cluster import parse_cluster
from arena.tournament.config import DEFAULT_CONCURRENCY, MAX_CONCURRENCY, TournamentConfig, build_config
from arena.tournament.schedule import lineups

SEEDS_FIELD = "seeds"
CONCURRENCY_FIELD = "concurrency"
CLUSTER_FIELD = "cluster"
ON_INVALID_FIELD = "on_invalid"
ON_INVALID_FIELD_INFO = TournamentConfig.model_fields["on_invalid"]
ON_INVALID_CHOICES: tuple[str, ...] = get_args(ON_INVALID_FIELD_INFO.annotation)
"""The invalid-move policies, as the configuration (CLI, TOML) takes them: the default first."""
PLAYERS_FIELD = "players"
NEW_PLAYER_FIELD = "new-player"
MAX_SEEDS = 100_000
DEFAULT_SEEDS = 10


def player_key(index: int) -> str:
    """The error key of the ``index``-th player."""
    return f"player:{index}"


def _seats_a_person(text: str) -> bool:
    """True for ``human``: a tournament cannot seat a person, so the home screen's is left out."""
    try:
        return parse_player_spec(text).kind == "human"
    except SpecError:
        return False


def player_problem(text: str, definition: GameDefinition, catalog: ModelCatalog) -> str:
    """Why ``text`` cannot play a tournament of ``definition`` (``""`` when it can, as far as known).

    Keys and servers are only probed when the tournament starts; here a spec is checked
    for its form, a baseline for the game, a models-file name against the file, and a
    model the models file lists as unavailable gives that reason.
    """
    try:
        parsed = parse_player_spec(text)
    except SpecError as exc:
        return str(exc)
    if parsed.kind == "human":
        return "a tournament plays every episode unattended, so it cannot seat a human"
    if parsed.kind == "baseline":
        if parsed.name not in definition.baselines:
            known = ", ".join(f"baseline:{name}" for name in definition.baselines) or "none"
            return f"{definition.name} has no baseline {parsed.name!r} (baselines: {known})"
        return ""
    for entry in catalog.entries:
        if str(getattr(entry, "spec", "")) == parsed.text and not getattr(entry, "available", True):
            return f"{parsed.text} is unavailable: {getattr(entry, 'reason', '') or 'no reason given'}"
    if parsed.kind == "named" and catalog.loaded:
        resolve = getattr(catalog.config, "resolve", None)
        if resolve is None:
            return (
                f"no model named {parsed.name!r}: no models file was found"
                " (or type a spec such as openai:MODEL or openai-compat:MODEL@BASE_URL)"
            )
        try:
            resolve(parsed)
        except SpecError as exc:
            return str(exc)
    return ""


def player_choices(definition: GameDefinition, catalog: ModelCatalog) -> list[SeatOption]:
    """The players to pick from: the game's baselines and the models file's models (no human)."""
    return [choice for choice in seat_options(definition, catalog) if choice.kind != "human"]


@dataclass
class TournamentDraft:
    """The tournament being set up, as typed."""

    definition: GameDefinition
    players: list[str] = field(default_factory=list)
    seeds: str = str(DEFAULT_SEEDS)
    concurrency: str = str(DEFAULT_CONCURRENCY)
    cluster: str = ""
    """``ray`` or ``ray=ADDRESS`` to play on a Ray cluster; empty: in this process."""
    name: str = ""
    on_invalid: str = str(ON_INVALID_FIELD_INFO.default)
    """``fallback`` (the game's fallback move) or ``forfeit`` after a model's failed re-ask."""
    match: MatchDraft = field(init=False)

    def __post_init__(self) -> None:
        self.match = MatchDraft(self.definition)

    @classmethod
    def from_match(
        cls,
        match: MatchDraft,
        seeds: str = str(DEFAULT_SEEDS),
        kept: TournamentSetup | None = None,
        defaults: dict[str, str] | None = None,
    ) -> TournamentDraft:
        """A tournament of the home screen's set-up: its game, seed, options and seat players.

        With ``kept`` (the last tournament set-up of this game), the tournament starts from it
        and takes from the home screen only what was changed there: a seat given a player
        other than its default (``defaults``, seat to spec) adds that player, a seed typed
        there, an option not at its default, a count of deal seeds other than the default.
        """
        if kept is None:
            draft = cls(match.definition, seeds=seeds.strip() or str(DEFAULT_SEEDS))
            # A blank seed is a person's secret deal at home; a tournament's master seed is
            # never secret, so it keeps its own default rather than start as an error.
            draft.match.seed = match.seed if match.seed.strip() else draft.match.seed
            draft.match.options = dict(match.options)
            for seat in match.seat_names():
                chosen = match.seats.get(seat)
                if chosen and not _seats_a_person(chosen):
                    draft.add(chosen)
            return draft
        draft = cls(match.definition)
        draft.restore(kept)
        if seeds.strip() and seeds.strip() != str(DEFAULT_SEEDS):
            draft.seeds = seeds.strip()
        if match.seed_given and match.seed.strip():
            draft.seed = match.seed
        for option in match.definition.options:
            text = match.options.get(option.name)
            if text is not None and text != str(option.default):
                draft.options[option.name] = text
        for seat in match.seat_names():
            chosen = match.seats.get(seat)
            if chosen and chosen != (defaults or {}).get(seat) and not _seats_a_person(chosen):
                draft.add(chosen)
        return draft

    def setup(self) -> TournamentSetup:
        """What has been entered, to keep for the next time this game's tournament is set up."""
        return TournamentSetup(
            players=tuple(self.players),
            options=dict(self.options),
            seeds=self.seeds,
            seed=self.seed,
            concurrency=self.concurrency,
            name=self.name,
            cluster=self.cluster,
            on_invalid=self.on_invalid,
        )

    def restore(self, setup: TournamentSetup) -> None:
        """Take back a kept set-up: the options this game still has, every player that still parses.

        A player the lists do not offer (typed, or a model the models file no longer lists)
        comes back as typed, marked on the screen if it cannot play; one that is no longer a
        valid spec is left out.
        """
        self.options.update({name: text for name, text in setup.options.items() if name in self.options})
        self.players = []
        for text in setup.players:
            try:
                parse_player_spec(text)
            except SpecError:
                continue
            self.add(text)
        self.seeds = setup.seeds or self.seeds
        self.seed = setup.seed
        self.concurrency = setup.concurrency or self.concurrency
        self.name, self.cluster = setup.name, setup.cluster
        if setup.on_invalid in ON_INVALID_CHOICES:  # a file edited by hand keeps the default
            self.on_invalid = setup.on_invalid

    @property
    def seed(self) -> str:
        """The master seed as typed."""
        return self.match.seed

    @seed.setter
    def seed(self, value: str) -> None:
        self.match.seed = value

    @property
    def options(self) -> dict[str, str]:
        """The game options as typed, by name."""
        return self.match.options

    def add(self, text: str) -> bool:
        """Add player ``text`` (stripped) unless it is empty or already in; True if added."""
        text = text.strip()
        if not text or text in self.players:
            return False
        self.players.append(text)
        return True

    def remove(self, index: int) -> None:
        """Drop the ``index``-th player (nothing if out of range)."""
        if 0 <= index < len(self.players):
            del self.players[index]

    def seat_count(self) -> int:
        """Seats of one episode with the current options."""
        return len(self.match.seat_names())

    def slot_count(self) -> int | None:
        """How many episodes the tournament will play, if seeds, options and players allow."""
        try:
            seats = self.definition.create(0, self.match.resolved_options()).seats
            return len(lineups(seats, self.players)) * int(self.seeds.strip())
        except ValueError:
            return None

    def errors(self, catalog: ModelCatalog) -> dict[str, str]:
        """Every problem, keyed by ``seeds``, ``seed``, ``concurrency``, an option name,
        ``players`` or ``player:N``."""
        errors: dict[str, str] = {}
        _whole(errors, SEEDS_FIELD, self.seeds, "deal seeds", 1, MAX_SEEDS)
        _whole(errors, SEED_FIELD, self.seed, "master seed", 0, 2**63 - 1)
        _whole(errors, CONCURRENCY_FIELD, self.concurrency, "episodes at once", 1, MAX_CONCURRENCY)
        if self.cluster.strip():
            try:
                parse_cluster(self.cluster)
            except ValueError as exc:
                errors[CLUSTER_FIELD] = str(exc)
        errors.update(self.match.option_errors())
        for index, text in enumerate(self.players):
            problem = player_problem(text, self.definition, catalog)
            if problem:
                errors[player_key(index)] = problem
        seats = self.seat_count()
        least = 2 if seats >= 2 else 1
        if len(self.players) < least:
            errors[PLAYERS_FIELD] = (
                f"add at least {least} player{'s' if least > 1 else ''} "
                f"({self.definition.name} has {seats} seat{'s' if seats != 1 else ''})"
            )
        return errors

    def config(self) -> TournamentConfig:
        """The checked configuration (call :meth:`errors` first); raises ``TournamentConfigError``."""
        fields: dict[str, Any] = {
            "game": self.definition.name,
            "players": tuple(self.players),
            "seeds": int(self.seeds.strip()),
            "seed": int(self.seed.strip()),
            "options": self.match.resolved_options(),
            "concurrency": int(self.concurrency.strip()),
            "on_invalid": self.on_invalid,
        }
        if self.name.strip():
            fields["name"] = self.name.strip()
        if self.cluster.strip():
            fields["cluster"] = self.cluster.strip()
        return build_config(**fields)


def _whole(errors: dict[str, str], key: str, text: str, what: str, low: int, high: int) -> None:
    try:
        value = int(text.strip())
    except ValueError:
        errors[key] = f"{what} must be a whole number, not {text.strip()!r}"
        return
    if not low <= value <= high:
        errors[key] = f"{what} must be from {low} to {high:,}, not {value}"


def suggestions(choices: Sequence[SeatOption]) -> list[str]:
    """What the add-a-player box completes: every offered spec, then the typed forms."""
    return [choice.spec for choice in choices] + [
        "openai:",
        "anthropic:",
        "openai-compat:",
        "local:",
        "baseline:",
    ]
