"""The home screen's logic as plain objects: who can take a seat, and the match being set up.

The models a seat may take come from :mod:`arena.app.model_catalog` (read after the screen
is up); this module brings the engine, so the home screen imports it once its frame is painted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from arena.app.model_catalog import ModelCatalog
from arena.app.setup_memory import Setup
from arena.contract.game import GameDefinition
from arena.contract.labels import label
from arena.contract.options import GameOption
from arena.engine.deal_seed import has_human_seat
from arena.engine.lineup import baseline_choices
from arena.engine.user_input import parse_seed
from arena.plugins.players import SpecError, parse_player_spec

if TYPE_CHECKING:
    from arena.engine.match import MatchConfig

SEED_FIELD = "seed"


@dataclass(frozen=True, slots=True)
class SeatOption:
    """A player a seat can be given; ``label`` and ``reason`` may come from a models file."""

    spec: str
    description: str
    kind: str
    available: bool = True
    reason: str = ""


def seat_options(
    definition: GameDefinition, catalog: ModelCatalog, extra: Iterable[str] = ()
) -> list[SeatOption]:
    """Every player for ``definition``'s seats: baselines, human, models (available or not), extras."""
    options = [
        SeatOption(c.spec, c.description, "human" if c.spec == "human" else "baseline")
        for c in baseline_choices(definition)
    ]
    for entry in catalog.entries:
        available = bool(getattr(entry, "available", True))
        reason = str(getattr(entry, "reason", "") or "")
        description = str(getattr(entry, "description", "") or (reason if available else "") or "model")
        options.append(
            SeatOption(
                spec=str(getattr(entry, "spec", entry)),
                description=description,
                kind="model",
                available=available,
                reason=reason,
            )
        )
    options += [SeatOption(name, "supplied by this app", "extra") for name in extra]
    return options


TYPED = "typed on this screen"
"""The description of a player option typed as ``SEAT=SPEC`` (kept when the lists refresh)."""


def typed_seat(text: str, seats: Sequence[str]) -> tuple[str, SeatOption]:
    """``SEAT=SPEC`` typed on the home screen: the seat and a player option for the spec.

    Raises ``ValueError`` with one line for an unknown seat or a spec no kind accepts
    (``openai-compat:MODEL@URL`` and ``openai:MODEL`` are accepted without a models file).
    """
    seat, sep, spec = text.partition("=")
    seat, spec = seat.strip(), spec.strip()
    if not sep or not seat or not spec:
        raise ValueError(f"type SEAT=SPEC, e.g. {seats[0] if seats else 'a'}=openai:MODEL")
    if seat not in seats:
        raise ValueError(f"no seat {seat!r} (seats: {', '.join(seats)})")
    try:
        parsed = parse_player_spec(spec)
    except SpecError as exc:
        raise ValueError(str(exc)) from None
    kind = "human" if parsed.kind == "human" else "baseline" if parsed.kind == "baseline" else "model"
    return seat, SeatOption(parsed.text, TYPED, kind)


def default_seats(seats: Sequence[str], options: Sequence[SeatOption]) -> dict[str, str]:
    """Baselines in turn for every seat (a different one per seat while there are enough)."""
    baselines = [o.spec for o in options if o.kind == "baseline"] or [options[0].spec]
    return {seat: baselines[i % len(baselines)] for i, seat in enumerate(seats)}


def option_kind(option: GameOption) -> str:
    """``integer``, ``number``, ``choice`` or ``text`` (for the input widget)."""
    if option.choices:
        return "choice"
    if isinstance(option.default, bool):
        return "choice"
    if isinstance(option.default, int):
        return "integer"
    if isinstance(option.default, float):
        return "number"
    return "text"


def option_title(option: GameOption) -> str:
    """``days (1 to 365)``: the option's name in words (``turn cap``) and its range, on one line."""
    if option.minimum is not None and option.maximum is not None:
        return f"{label(option.name)} ({option.minimum:g} to {option.maximum:g})"
    return label(option.name)


def rules_by_seat(
    definition: GameDefinition, given: dict[str, Any] | None = None
) -> list[tuple[list[str], str]]:
    """The rules each seat is told with the ``given`` options (the defaults where they are bad).

    Grouped by identical text; the game's description if even the defaults do not validate.
    """
    try:
        try:
            options = definition.parse_options(dict(given or {}))
        except ValueError:  # an option being typed: show the rules as they stand by default
            options = definition.parse_options({})
        groups: dict[str, list[str]] = {}
        for seat in definition.seats(options):
            groups.setdefault(definition.rules(options, seat), []).append(seat)
    except Exception:  # a game whose defaults do not validate still shows its description
        return [(list(definition.default_seats), definition.description)]
    return [(seats, text) for text, seats in groups.items()]


def reflow(text: str) -> str:
    """Join hard-wrapped lines into paragraphs; keep blank lines, bullets and indented lines.

    An indented line right under a bullet continues that bullet and joins it (bargain's
    "- offer: ... The offer is binding:" then "  if the buyer accepts it ..."); a line
    starting at the margin after a bullet starts a new paragraph.
    """
    lines = text.splitlines()
    out: list[str] = []
    in_bullet = False
    for line in lines:
        bullet = line.lstrip()[:1] in "-*•" and bool(line.strip())
        if in_bullet and line[:1].isspace() and line.strip() and not bullet:
            out[-1] = f"{out[-1].rstrip()} {line.strip()}"
            continue
        starts_block = not line.strip() or line[:1].isspace() or bullet or line[:1].isdigit() or in_bullet
        if out and out[-1].strip() and not starts_block and not out[-1].rstrip().endswith(":"):
            out[-1] = f"{out[-1].rstrip()} {line.strip()}"
        else:
            out.append(line)
        in_bullet = bullet
    return "\n".join(out)


@dataclass
class MatchDraft:
    """The match being set up: texts as typed, checked into a :class:`MatchConfig`."""

    definition: GameDefinition
    seed: str = "0"
    options: dict[str, str] = field(default_factory=dict)
    seats: dict[str, str] = field(default_factory=dict)
    seed_given: bool = False
    """The person typed the seed; if not, a human seat plays a secret deal (:meth:`seed_value`)."""

    def __post_init__(self) -> None:
        for option in self.definition.options:
            self.options.setdefault(option.name, str(option.default))

    def option_errors(self) -> dict[str, str]:
        """One message per bad option text, keyed by option name."""
        errors = {}
        optional = {o.name for o in self.definition.options if option_kind(o) == "text" and o.default == ""}
        for name, text in self.options.items():
            if not text.strip() and name not in optional:
                # a text whose default is empty may stay empty (OpenSpiel bargaining's
                # instances file: empty means the library's own instances)
                errors[name] = f"{name} needs a value"
                continue
            try:
                self.definition.resolve_options({name: text})
            except ValueError as exc:
                errors[name] = str(exc)
        return errors

    def resolved_options(self) -> dict[str, Any]:
        """The options as values; raises ``ValueError`` for the first bad one."""
        return self.definition.resolve_options(dict(self.options))

    def seat_names(self) -> tuple[str, ...]:
        """The seats with these options (a game option may change them), else the default seats."""
        try:
            return self.definition.seats_for(self.resolved_options())
        except Exception:  # options not valid yet: keep showing the default seats
            return self.definition.default_seats

    def errors(self, choices: Sequence[SeatOption]) -> dict[str, str]:
        """Every problem, keyed by ``seed``, an option name, or ``seat:NAME``."""
        errors: dict[str, str] = {}
        try:
            self.seed_value()
        except ValueError as exc:
            errors[SEED_FIELD] = str(exc)
        errors.update(self.option_errors())
        by_spec = {choice.spec: choice for choice in choices}
        for seat in self.seat_names():
            chosen = self.seats.get(seat)
            choice = by_spec.get(chosen or "")
            if chosen is None or choice is None:
                errors[f"seat:{seat}"] = f"choose a player for seat {seat}"
            elif not choice.available:
                errors[f"seat:{seat}"] = f"{choice.spec} is unavailable: {choice.reason or 'no reason given'}"
        return errors

    def config(self) -> MatchConfig:
        """The checked configuration (call :meth:`errors` first)."""
        # The match engine (its recorder, runner and store writes) loads when a match starts,
        # not on the home screen's way to its first game's set-up.
        from arena.engine.match import MatchConfig

        return MatchConfig(
            game=self.definition.name,
            seats=self.seated(),
            seed=self.seed_value(),
            options=self.resolved_options(),
        )

    def seated(self) -> dict[str, str]:
        """The spec of every seat chosen so far, in seat order."""
        return {seat: self.seats[seat] for seat in self.seat_names() if seat in self.seats}

    def secret_deal(self) -> bool:
        """True if a person is seated and no seed was typed: the match plays a secret seed."""
        return (not self.seed.strip() or not self.seed_given) and has_human_seat(self.seated())

    def setup(self) -> Setup:
        """What has been entered, to keep when the person goes to another game."""
        return Setup(dict(self.seats), dict(self.options), self.seed, self.seed_given)

    def restore(self, setup: Setup, choices: list[SeatOption]) -> None:
        """Take back a kept set-up: the options this game still has, the seats a player can take.

        A kept player the lists do not offer (typed as ``SEAT=SPEC``, or a model the models
        file has not listed yet) is added to ``choices`` as typed; one that is no longer a
        valid spec is left out and the seat keeps its default.
        """
        self.options.update({name: text for name, text in setup.options.items() if name in self.options})
        self.seed, self.seed_given = setup.seed, setup.seed_given
        offered = {choice.spec for choice in choices}
        for seat, spec in setup.seats.items():
            if spec not in offered:
                try:
                    _, option = typed_seat(f"{seat}={spec}", [seat])
                except ValueError:
                    continue
                spec = option.spec
                if spec not in offered:
                    choices.append(option)
                    offered.add(spec)
            self.seats[seat] = spec

    def seed_value(self) -> int | None:
        """The seed typed, or ``None`` for the engine to choose: secret with a person, else 0
        (a blank field too). Raises ``ValueError`` for a seed that is not a usable integer."""
        if not self.seed.strip() or self.secret_deal():
            return None
        return parse_seed(self.seed)
