"""Parsing player specs such as ``baseline:honest`` or ``openai-compat:qwen@http://host/v1``."""

from __future__ import annotations

from dataclasses import dataclass

MODEL_KINDS = ("openai", "anthropic", "openai-compat", "local")
SPEC_FORMS = (
    "baseline:NAME",
    "human",
    "openai:MODEL",
    "anthropic:MODEL",
    "openai-compat:MODEL@BASE_URL",
    "local:NAME",
    "NAME (a model defined in the models file)",
)


class SpecError(ValueError):
    """A player spec that cannot be parsed or resolved."""


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed player spec.

    ``kind`` is one of ``baseline``, ``human``, ``openai``, ``anthropic``,
    ``openai-compat``, ``local`` or ``named`` (resolved through the models file).
    """

    kind: str
    name: str
    base_url: str | None = None

    @property
    def text(self) -> str:
        """The canonical spec string."""
        if self.kind == "human":
            return "human"
        if self.kind == "named":
            return self.name
        if self.base_url:
            return f"{self.kind}:{self.name}@{self.base_url}"
        return f"{self.kind}:{self.name}"

    @property
    def is_model(self) -> bool:
        """True for anything that calls a language model."""
        return self.kind in MODEL_KINDS or self.kind == "named"


def parse_player_spec(text: str) -> PlayerSpec:
    """Parse ``text`` into a :class:`PlayerSpec`; raises :class:`SpecError` with a hint."""
    spec = text.strip()
    if not spec:
        raise SpecError("empty player spec; expected one of: " + ", ".join(SPEC_FORMS))
    if spec == "human":
        return PlayerSpec("human", "human")
    if ":" not in spec:
        if not _is_plain_name(spec):
            raise SpecError(f"cannot read player spec {text!r}; expected one of: " + ", ".join(SPEC_FORMS))
        return PlayerSpec("named", spec)
    kind, _, rest = spec.partition(":")
    kind = kind.strip().lower()
    rest = rest.strip()
    if kind == "baseline":
        if not rest:
            raise SpecError("baseline spec needs a name, e.g. baseline:weather")
        return PlayerSpec("baseline", rest)
    if kind == "openai-compat":
        model, sep, base_url = rest.partition("@")
        if not sep or not model or not base_url:
            raise SpecError(
                f"{text!r}: openai-compat needs MODEL@BASE_URL, e.g. openai-compat:qwen2.5@http://127.0.0.1:8000/v1"
            )
        if not base_url.startswith(("http://", "https://")):
            raise SpecError(f"{text!r}: base URL must start with http:// or https://")
        return PlayerSpec(kind, model, base_url)
    if kind in MODEL_KINDS:
        if not rest:
            raise SpecError(f"{kind} spec needs a model name, e.g. {kind}:NAME")
        return PlayerSpec(kind, rest)
    raise SpecError(f"unknown player kind {kind!r} in {text!r}; expected one of: " + ", ".join(SPEC_FORMS))


def _is_plain_name(text: str) -> bool:
    return all(ch.isalnum() or ch in "-_." for ch in text)
