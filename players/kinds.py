"""The model player kinds: ``openai:``, ``anthropic:``, ``openai-compat:``, ``local:`` and
plain names from the models file. Registered through ``arena.players``; the SDKs are
imported only when a player is built.
"""

from __future__ import annotations

import os
from typing import ClassVar

from arena.contract.player import Player
from arena.plugins.players import BuildContext, PlayerKind, PlayerSpec, PromptTemplates, SpecError


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
        from players.models.prompting import FEEDBACK_TEMPLATE, SYSTEM_TEMPLATE, templates_sha256

        texts = {"system": SYSTEM_TEMPLATE, "re-ask": FEEDBACK_TEMPLATE}
        return PromptTemplates(texts, templates_sha256(), "system_prompt_version")

    def builtin_price_source(self) -> dict[str, str]:
        """The source and date of the built-in cached-input and cache-write price ratios."""
        from players.models.config import BUILTIN_PRICE_SOURCE

        return dict(BUILTIN_PRICE_SOURCE)


class _KeyedKind(_ModelKind):
    """A hosted provider whose key comes from one environment variable."""

    key_variable: ClassVar[str]

    def status_lines(self) -> list[str]:
        if os.environ.get(self.key_variable):
            return [f"{self.forms[0]}\tavailable: {self.key_variable} is set"]
        return [f"{self.forms[0]}\tunavailable: {self.key_variable} is not set"]


class OpenAIKind(_KeyedKind):
    """OpenAI's API (Responses or Chat Completions)."""

    name: ClassVar[str] = "openai"
    forms: ClassVar[tuple[str, ...]] = ("openai:MODEL",)
    listing_order: ClassVar[int] = 10
    key_variable: ClassVar[str] = "OPENAI_API_KEY"


class AnthropicKind(_KeyedKind):
    """Anthropic's Messages API."""

    name: ClassVar[str] = "anthropic"
    forms: ClassVar[tuple[str, ...]] = ("anthropic:MODEL",)
    listing_order: ClassVar[int] = 11
    key_variable: ClassVar[str] = "ANTHROPIC_API_KEY"


class OpenAICompatKind(_ModelKind):
    """Any OpenAI-compatible server (vLLM, Ollama, llama.cpp server) at a base URL."""

    name: ClassVar[str] = "openai-compat"
    forms: ClassVar[tuple[str, ...]] = ("openai-compat:MODEL@BASE_URL",)
    listing_order: ClassVar[int] = 12

    def status_lines(self) -> list[str]:
        return [f"{self.forms[0]}\tany OpenAI-compatible server (checked when the match starts)"]

    def parse(self, rest: str, text: str) -> PlayerSpec:
        model, sep, base_url = rest.partition("@")
        if not sep or not model or not base_url:
            raise SpecError(
                f"{text!r}: openai-compat needs MODEL@BASE_URL, e.g. openai-compat:qwen2.5@http://127.0.0.1:8000/v1"
            )
        if not base_url.startswith(("http://", "https://")):
            raise SpecError(f"{text!r}: base URL must start with http:// or https://")
        return PlayerSpec(self.name, model, base_url)


class LocalKind(_ModelKind):
    """An offline model running in-process."""

    name: ClassVar[str] = "local"
    forms: ClassVar[tuple[str, ...]] = ("local:NAME",)
    listing_order: ClassVar[int] = 13


class NamedKind(_ModelKind):
    """A model defined in the models file, written as its plain name."""

    name: ClassVar[str] = "named"
    forms: ClassVar[tuple[str, ...]] = ("NAME (a model defined in the models file)",)
    plain_names: ClassVar[bool] = True
    listing_order: ClassVar[int] = 90


OPENAI = OpenAIKind()
ANTHROPIC = AnthropicKind()
OPENAI_COMPAT = OpenAICompatKind()
LOCAL = LocalKind()
NAMED = NamedKind()
