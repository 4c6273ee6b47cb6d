"""Player kinds found through the ``arena.players`` entry point group, and the specs that name them.

A spec such as ``baseline:honest`` or ``openai-compat:qwen@http://host/v1`` names a kind and a player of it.

A kind turns the part of a player spec after ``KIND:`` into a :class:`PlayerSpec` and a
spec into a player. Built-in kinds (``baseline``, ``human``, the model providers, names
from the models file) register the same way as a third party's, read through
:mod:`arena.plugins.entry_points`; the engine names none of them. A kind module is imported when specs
are first parsed, so it must be light: import SDKs inside ``build``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import PureWindowsPath
from typing import Any, ClassVar

from arena.contract.game import GameDefinition
from arena.contract.player import Player
from arena.plugins import entry_points as plugins

PLAYERS_GROUP = "arena.players"


class SpecError(ValueError):
    """A player spec that cannot be parsed or resolved."""


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed player spec: ``kind`` names a kind registered in ``arena.players``."""

    kind: str
    name: str
    base_url: str | None = None

    @property
    def text(self) -> str:
        """The canonical spec string."""
        kind = _kind(self.kind)
        if kind is not None and (kind.bare or kind.plain_names):
            return self.name
        if self.base_url:
            return f"{self.kind}:{self.name}@{self.base_url}"
        return f"{self.kind}:{self.name}"

    @property
    def is_model(self) -> bool:
        """True for anything that calls a language model."""
        kind = _kind(self.kind)
        return kind is not None and kind.is_model


def parse_player_spec(text: str) -> PlayerSpec:
    """Parse ``text`` into a :class:`PlayerSpec`; raises :class:`SpecError` with a hint."""
    kinds = player_kinds()
    expected = "expected one of: " + ", ".join(spec_forms())
    spec = text.strip()
    if not spec:
        raise SpecError(f"empty player spec; {expected}")
    if ":" not in spec:
        bare = kinds.get(spec)
        if bare is not None and bare.bare:
            return PlayerSpec(bare.name, bare.name)
        plain = next((kind for kind in kinds.values() if kind.plain_names), None)
        if plain is None or not _is_plain_name(spec):
            raise SpecError(f"cannot read player spec {text!r}; {expected}")
        return PlayerSpec(plain.name, spec)
    name, _, rest = spec.partition(":")
    kind = kinds.get(name.strip().lower())
    if kind is None or kind.bare or kind.plain_names:
        raise SpecError(f"unknown player kind {name.strip().lower()!r} in {text!r}; {expected}")
    return kind.parse(rest.strip(), text)


def _kind(name: str) -> PlayerKind | None:
    return player_kinds().get(name)


def short_name(text: str) -> str:
    """How a table shows the player ``text``: a spec with a base URL as its model's file name.

    ``openai-compat:gemma@http://127.0.0.1:8093/v1`` shows as ``gemma`` (the name the server
    was asked by, an alias), ``openai-compat:/models/gemma-3-270m-it-Q8_0.gguf@http://...``
    as ``gemma-3-270m-it-Q8_0.gguf``; anything else (``openai:gpt-5-mini``, a models-file
    name, a labelled ``name [cfg HEX]``) as it is. The full spec stays in the details.
    """
    try:
        spec = parse_player_spec(text)
    except SpecError:
        return text
    if not spec.base_url or spec.text != text.strip() or any(ch.isspace() for ch in spec.base_url):
        return text
    return PureWindowsPath(spec.name).name or spec.name  # both separators: a Windows path too


def short_names(names: Iterable[str]) -> dict[str, str]:
    """Each name to its :func:`short_name`, unless two different names would show the same."""
    distinct = list(dict.fromkeys(names))
    shown = {name: short_name(name) for name in distinct}
    taken = Counter(shown.values())
    return {name: short if taken[short] == 1 else name for name, short in shown.items()}


def _is_plain_name(text: str) -> bool:
    return all(ch.isalnum() or ch in "-_." for ch in text)


HumanFactory = Callable[[str], Player]
"""Builds the human player for a seat; each front end brings its own."""


@dataclass(frozen=True)
class PromptTemplates:
    """The fixed texts a kind sends besides the game's prompt, for reports.

    ``sha256`` is the full digest the players' configurations record the start of, under
    ``version_key`` (the first 12 hex digits), so a report can tell whether these texts are
    the ones a stored seat played with.
    """

    texts: dict[str, str]
    sha256: str
    version_key: str


@dataclass(frozen=True)
class BuildContext:
    """What a kind may use to build a player for one seat of one run."""

    game: GameDefinition
    seed: int
    seat: str
    human_factory: HumanFactory | None = None
    models_config: Any = None


class PlayerKind(ABC):
    """One kind of player. Subclass, set the class variables and implement :meth:`build`."""

    name: ClassVar[str]
    forms: ClassVar[tuple[str, ...]]
    """How specs of this kind are written, for help texts (``openai:MODEL``)."""
    is_model: ClassVar[bool] = False
    """True for anything that calls a language model."""
    bare: ClassVar[bool] = False
    """The spec is the kind's name alone (``human``)."""
    plain_names: ClassVar[bool] = False
    """This kind takes specs that are a plain name without a colon (names in a models file)."""
    listing_order: ClassVar[int] = 100

    def parse(self, rest: str, text: str) -> PlayerSpec:
        """The spec for ``KIND:rest`` (``text`` is the whole spec, for messages)."""
        if not rest:
            raise SpecError(f"{self.name} spec needs a name, e.g. {self.forms[0]}")
        return PlayerSpec(self.name, rest)

    def status_lines(self) -> list[str]:
        """Lines ``arena models`` prints for this kind (``SPEC<tab>status``); none by default."""
        return []

    def prompt_templates(self) -> PromptTemplates | None:
        """The texts this kind sends besides the game's prompt (a model's system message); none by default."""
        return None

    def builtin_price_source(self) -> dict[str, str] | None:
        """Where this kind's built-in prices come from (``source``, ``date``); ``None``: it has none."""
        return None

    @abstractmethod
    def build(self, spec: PlayerSpec, context: BuildContext) -> Player:
        """The player for ``spec``; raises :class:`SpecError` with a hint if it cannot be built."""


@cache
def player_kinds() -> dict[str, PlayerKind]:
    """Every installed kind by name, in listing order (a broken plugin is left out).

    An entry names a kind, a kind class, or a function returning several kinds (the model
    providers' family: one kind per installed ``arena.providers`` plugin).
    """
    found: list[PlayerKind] = plugins.installed(PLAYERS_GROUP, PlayerKind)
    return {kind.name: kind for kind in sorted(found, key=lambda k: (k.listing_order, k.name))}


def spec_forms() -> list[str]:
    """Every way to write a player spec, for messages and help."""
    return [form for kind in player_kinds().values() for form in kind.forms]
