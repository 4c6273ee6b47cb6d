"""``openai-compat:MODEL@BASE_URL``: any OpenAI-compatible server (vLLM, Ollama, llama.cpp server).

Chat Completions at the given base URL; no key unless ``api_key_env`` names one ("EMPTY" is
sent), a 1024-token reply cap, 60 s per decision. The server's ``GET /models`` is probed
before a match. Errors are classified as the ``openai`` SDK reports them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from arena.plugins.players import PlayerSpec, SpecError
from players.providers import BUILTIN_PRICE_SOURCE
from players.providers.openai import OpenAIProvider

if TYPE_CHECKING:
    from players.models.config import ModelSettings


class OpenAICompatProvider(OpenAIProvider):
    """Any OpenAI-compatible server at a base URL.

    Subclass it for a hosted OpenAI-compatible API with defaults of its own: with a
    :attr:`base_url` its specs are ``NAME:MODEL``, without one ``NAME:MODEL@BASE_URL``.
    """

    name: ClassVar[str] = "openai-compat"
    spec_form: ClassVar[str] = "openai-compat:MODEL@BASE_URL"
    listing_order: ClassVar[int] = 12
    key_env: ClassVar[str | None] = None
    max_output_tokens: ClassVar[int] = 1024
    price_source: ClassVar[dict[str, str] | None] = BUILTIN_PRICE_SOURCE
    settings_keys: ClassVar[frozenset[str]] = frozenset({"reasoning_effort", "extra_body"})
    official: ClassVar[bool] = False

    def parse_spec(self, rest: str, text: str) -> PlayerSpec:
        """``MODEL@BASE_URL``, both parts, the URL with its scheme (``MODEL`` with a default base URL)."""
        spec = super().parse_spec(rest, text)
        if spec.base_url is None and not self.base_url:
            example = f"{self.name}:qwen2.5@http://127.0.0.1:8000/v1"
            raise SpecError(f"{text!r}: {self.name} needs MODEL@BASE_URL, e.g. {example}")
        return spec

    def status_lines(self) -> list[str]:
        """Whether the key is set; with no key to check, the server is probed when the match starts."""
        if self.key_env is not None:
            return super().status_lines()
        return [f"{self.spec_form}\tany OpenAI-compatible server (checked when the match starts)"]

    def settings_problem(self, settings: ModelSettings) -> str | None:
        """Without a default address, the models file must give one."""
        if not settings.base_url and not self.base_url:
            return f"{self.name} needs base_url, e.g. http://127.0.0.1:8000/v1"
        return None

    def reasoning_allowance(self, settings: ModelSettings) -> int:
        """None: a compatible server's reasoning tokens are not known to count as output."""
        return 0


OPENAI_COMPAT = OpenAICompatProvider()
