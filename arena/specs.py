"""Parsing player specs such as ``baseline:honest`` or ``openai-compat:qwen@http://host/v1``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arena.player_kinds import PlayerKind


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
    from arena.player_kinds import player_kinds, spec_forms

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
    from arena.player_kinds import player_kinds

    return player_kinds().get(name)


def _is_plain_name(text: str) -> bool:
    return all(ch.isalnum() or ch in "-_." for ch in text)
