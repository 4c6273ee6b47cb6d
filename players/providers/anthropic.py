"""``anthropic:MODEL``: Anthropic's Messages API.

Defaults: key in ``ANTHROPIC_API_KEY``, a 2048-token reply cap, 60 s per decision; cache
reads at 0.1x and 5-minute cache writes at 1.25x the input price. The player is
:class:`players.models.anthropic_player.AnthropicPlayer`; the ``anthropic`` SDK is imported
when one is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from players.providers import BUILTIN_PRICE_SOURCE, Provider

if TYPE_CHECKING:
    from players.models.base import ModelPlayer
    from players.models.config import ModelSettings
    from players.models.retry import ProviderFailure


class AnthropicProvider(Provider):
    """Anthropic's Messages API."""

    name: ClassVar[str] = "anthropic"
    spec_form: ClassVar[str] = "anthropic:MODEL"
    listing_order: ClassVar[int] = 11
    key_env: ClassVar[str | None] = "ANTHROPIC_API_KEY"
    max_output_tokens: ClassVar[int] = 2048
    cache_write_ratio: ClassVar[float] = 1.25
    price_source: ClassVar[dict[str, str] | None] = BUILTIN_PRICE_SOURCE
    settings_keys: ClassVar[frozenset[str]] = frozenset(
        {"anthropic_mode", "thinking_budget_tokens", "thinking"}
    )

    def classify(self, exc: Exception) -> ProviderFailure | None:
        """Timeouts, connection failures, HTTP statuses and malformed replies of the ``anthropic`` SDK."""
        import anthropic  # loaded already: the call that failed went through it

        from arena.contract.player import ErrorClass
        from players.models.retry import ProviderFailure, failure_from_status
        from players.models.sdkutil import connection_problem, http_headers, sdk_message

        if isinstance(exc, anthropic.APITimeoutError):
            return ProviderFailure(ErrorClass.TIMEOUT, "the request timed out")
        if isinstance(exc, anthropic.APIConnectionError):
            return ProviderFailure(
                ErrorClass.PROVIDER_ERROR, f"connection failed: {connection_problem(exc)}", retryable=True
            )
        if isinstance(exc, anthropic.APIStatusError):
            return failure_from_status(exc.status_code, http_headers(exc), sdk_message(exc))
        if isinstance(exc, anthropic.APIError):
            return ProviderFailure(ErrorClass.PROVIDER_ERROR, f"unexpected reply: {sdk_message(exc)}")
        return None

    def player(self, spec: str, settings: ModelSettings, *, seed: int) -> ModelPlayer:
        """An :class:`~players.models.anthropic_player.AnthropicPlayer`."""
        from players.models.anthropic_player import AnthropicPlayer

        return AnthropicPlayer(spec, settings, seed=seed)


ANTHROPIC = AnthropicProvider()
