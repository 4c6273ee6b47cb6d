"""``openai:MODEL``: OpenAI's API (Responses by default, or Chat Completions with ``api = "chat"``).

Defaults: key in ``OPENAI_API_KEY``, a 4096-token reply cap (plus 4096 for the hidden
reasoning of gpt-5 and o-series models), 60 s per decision, cached input at 0.1x the input
price. The player is :class:`players.models.openai_player.OpenAIPlayer`; the ``openai`` SDK
is imported when one is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from players.providers import BUILTIN_PRICE_SOURCE, Provider

if TYPE_CHECKING:
    from players.models.base import ModelPlayer
    from players.models.config import ModelSettings
    from players.models.retry import ProviderFailure

REASONING_ALLOWANCE = 4096
"""Output tokens added to the schema estimate for OpenAI reasoning models (thinking is output)."""
REASONING_FAMILIES = ("gpt-5", "o1", "o3", "o4")


class OpenAIProvider(Provider):
    """OpenAI's API (Responses or Chat Completions)."""

    name: ClassVar[str] = "openai"
    spec_form: ClassVar[str] = "openai:MODEL"
    listing_order: ClassVar[int] = 10
    key_env: ClassVar[str | None] = "OPENAI_API_KEY"
    max_output_tokens: ClassVar[int] = 4096
    price_source: ClassVar[dict[str, str] | None] = BUILTIN_PRICE_SOURCE
    settings_keys: ClassVar[frozenset[str]] = frozenset({"api", "reasoning_effort"})
    official: ClassVar[bool] = True
    """OpenAI itself: the Responses API, ``prompt_cache_key``, ``max_completion_tokens``."""

    def reasoning_allowance(self, settings: ModelSettings) -> int:
        """:data:`REASONING_ALLOWANCE` for gpt-5 and the o-series, whose reasoning counts as output."""
        return REASONING_ALLOWANCE if settings.model.startswith(REASONING_FAMILIES) else 0

    def classify(self, exc: Exception) -> ProviderFailure | None:
        """Timeouts, connection failures, HTTP statuses and malformed replies of the ``openai`` SDK."""
        return classify_openai_error(exc)

    def player(self, spec: str, settings: ModelSettings, *, seed: int) -> ModelPlayer:
        """An :class:`~players.models.openai_player.OpenAIPlayer`."""
        from players.models.openai_player import OpenAIPlayer

        return OpenAIPlayer(spec, settings, seed=seed, official=self.official)


def classify_openai_error(exc: Exception) -> ProviderFailure | None:
    """Map an ``openai`` SDK exception to a :class:`~players.models.retry.ProviderFailure`."""
    import openai  # loaded already: the call that failed went through it

    from arena.contract.player import ErrorClass
    from players.models.retry import ProviderFailure, failure_from_status
    from players.models.sdkutil import connection_problem, http_headers, sdk_message

    if isinstance(exc, openai.APITimeoutError):
        return ProviderFailure(ErrorClass.TIMEOUT, "the request timed out")
    if isinstance(exc, openai.APIConnectionError):
        return ProviderFailure(
            ErrorClass.PROVIDER_ERROR, f"connection failed: {connection_problem(exc)}", retryable=True
        )
    if isinstance(exc, openai.APIStatusError):
        return failure_from_status(exc.status_code, http_headers(exc), sdk_message(exc))
    if isinstance(exc, openai.APIResponseValidationError | openai.APIError):
        return ProviderFailure(ErrorClass.PROVIDER_ERROR, f"unexpected reply: {sdk_message(exc)}")
    return None


OPENAI = OpenAIProvider()
