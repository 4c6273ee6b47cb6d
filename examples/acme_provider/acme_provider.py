"""Acme Inference, a made-up hosted API that speaks OpenAI's Chat Completions: an example provider.

Everything Arena needs to play ``acme:MODEL`` is here: its defaults (key variable, base URL,
reply cap, timeout, prices and where they come from) and one error of its own to classify
(Acme answers a rate limit with HTTP 420). Calls, retries, the ``GET /models`` probe, usage
and cost come from the OpenAI-compatible provider it extends. The ``openai`` SDK is imported
only once a call has failed or a player is built, so listing kinds stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from players.providers.openai_compat import OpenAICompatProvider

if TYPE_CHECKING:
    from players.models.retry import ProviderFailure

RATE_LIMIT_STATUS = 420
"""Acme's "slow down" status (elsewhere 429): retried after its ``Retry-After``."""


class AcmeProvider(OpenAICompatProvider):
    """Acme Inference's hosted OpenAI-compatible API."""

    name: ClassVar[str] = "acme"
    spec_form: ClassVar[str] = "acme:MODEL"
    listing_order: ClassVar[int] = 20
    key_env: ClassVar[str | None] = "ACME_API_KEY"
    base_url: ClassVar[str | None] = "https://api.acme-inference.example/v1"
    max_output_tokens: ClassVar[int] = 512
    timeout: ClassVar[float] = 30.0
    cached_input_ratio: ClassVar[float] = 0.5
    prices: ClassVar[dict[str, tuple[float, float]]] = {"acme-small": (0.2, 0.8), "acme-large": (1.0, 4.0)}
    price_source: ClassVar[dict[str, str] | None] = {
        "source": "https://acme-inference.example/pricing",
        "date": "2026-12-01",
    }

    def classify(self, exc: Exception) -> ProviderFailure | None:
        """HTTP 420 is Acme's rate limit; everything else as the OpenAI SDK reports it."""
        import openai  # loaded already: the call that failed went through it

        from arena.contract.player import ErrorClass
        from players.models.retry import ProviderFailure, parse_retry_after
        from players.models.sdkutil import http_headers, sdk_message

        if isinstance(exc, openai.APIStatusError) and exc.status_code == RATE_LIMIT_STATUS:
            wait = parse_retry_after(http_headers(exc))
            detail = f"HTTP {RATE_LIMIT_STATUS}: {sdk_message(exc)}"
            return ProviderFailure(
                ErrorClass.RATE_LIMITED, detail, retryable=True, retry_after=wait, status=RATE_LIMIT_STATUS
            )
        return super().classify(exc)


ACME = AcmeProvider()
