"""The model player kinds: one per installed provider plugin (``openai:``, ``anthropic:``,
``openai-compat:``, ``local:`` and any third party's) and plain names from the models file.

Registered through ``arena.players``: :func:`provider_kinds` is one entry that stands for every
provider in ``arena.providers`` (:mod:`players.providers`). The SDKs are imported only when a
player is built.
"""

from __future__ import annotations

from typing import ClassVar

from arena.contract.player import Player
from arena.plugins.players import BuildContext, PlayerKind, PlayerSpec, PromptTemplates, SpecError
from players.providers import BUILTIN_PRICE_SOURCE, Provider, providers


class _ModelKind(PlayerKind):
    """Shared build step: resolve through the models file and make the provider's player."""

    is_model: ClassVar[bool] = True

    def build(self, spec: PlayerSpec, context: BuildContext) -> Player:
        try:
            from players.models import build_model_player
        except ImportError as exc:  # pragma: no cover - only when the package is broken
            raise SpecError(f"model players are unavailable: {exc}") from None
        player: Player = build_model_player(spec, seed=context.seed, config=context.models_config)
        return player

    def prompt_templates(self) -> PromptTemplates:
        """The system message and the re-ask note every model seat is sent."""
        from players.models.prompting import (
            FEEDBACK_BY_CLASS,
            FEEDBACK_TEMPLATE,
            SYSTEM_TEMPLATE,
            templates_sha256,
        )

        texts = {"system": SYSTEM_TEMPLATE, "re-ask": FEEDBACK_TEMPLATE}
        texts |= {f"re-ask ({error})": text for error, text in FEEDBACK_BY_CLASS.items()}
        return PromptTemplates(texts, templates_sha256(), "system_prompt_version")

    def builtin_price_source(self) -> dict[str, str] | None:
        """The source and date of the built-in cached-input and cache-write price ratios."""
        return dict(BUILTIN_PRICE_SOURCE)


class ProviderKind(_ModelKind):
    """The kind of a provider's specs (``NAME:MODEL``); :func:`provider_kinds` makes one per provider."""

    provider: ClassVar[Provider]

    def parse(self, rest: str, text: str) -> PlayerSpec:
        """The provider's spec shape (``MODEL``, or ``MODEL@BASE_URL`` for a server without a default)."""
        return self.provider.parse_spec(rest, text)

    def status_lines(self) -> list[str]:
        """The provider's lines for ``arena models`` (whether its key is set)."""
        return self.provider.status_lines()

    def builtin_price_source(self) -> dict[str, str] | None:
        """Where the provider's own prices and ratios come from."""
        source = self.provider.price_source
        return dict(source) if source is not None else None


def provider_kinds() -> list[PlayerKind]:
    """One player kind per installed provider, named and ordered as the provider is."""
    kinds: list[PlayerKind] = []
    for provider in providers().values():
        attributes = {
            "__doc__": type(provider).__doc__,
            "name": provider.name,
            "forms": (provider.spec_form,),
            "listing_order": provider.listing_order,
            "provider": provider,
        }
        kind_class: type[ProviderKind] = type(f"{type(provider).__name__}Kind", (ProviderKind,), attributes)
        kinds.append(kind_class())
    return kinds


class NamedKind(_ModelKind):
    """A model defined in the models file, written as its plain name."""

    name: ClassVar[str] = "named"
    forms: ClassVar[tuple[str, ...]] = ("NAME (a model defined in the models file)",)
    plain_names: ClassVar[bool] = True
    listing_order: ClassVar[int] = 90


NAMED = NamedKind()
