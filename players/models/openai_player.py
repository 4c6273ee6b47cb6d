"""OpenAI (Responses or Chat Completions) and OpenAI-compatible servers (vLLM, Ollama…).

Structured output: Responses ``text.format = {type: json_schema, name, schema,
strict: false}``; Chat Completions ``response_format = {type: json_schema,
json_schema: {name, schema, strict: false}}``. The SDK's own retries are off
(``max_retries=0``): :mod:`players.models.retry` runs the only retry loop.
"""

from __future__ import annotations

from typing import Any

import openai

from arena.player import DecisionRequest, ErrorClass, PlayerSetupError, Usage

from .base import ChatMessage, Completion, ModelPlayer, http_headers, sdk_message, shared_ssl_context
from .config import ModelSettings
from .retry import ProviderFailure, failure_from_status
from .schema import schema_name

CHECK_TIMEOUT = 3.0


class OpenAIPlayer(ModelPlayer):
    """A seat played by an OpenAI model (``openai:MODEL``) or a compatible server."""

    provider = "openai"

    def __init__(self, spec: str, settings: ModelSettings, *, seed: int) -> None:
        super().__init__(spec, settings, seed=seed)
        self._client: openai.AsyncOpenAI | None = None

    @property
    def use_responses(self) -> bool:
        """True when calls go to the Responses API (OpenAI only, the default)."""
        return self.settings.provider == "openai" and (self.settings.api or "responses") == "responses"

    def client(self) -> openai.AsyncOpenAI:
        """The SDK client (created on first use, SDK retries disabled)."""
        if self._client is None:
            kwargs: dict[str, Any] = {}
            if self.settings.base_url:
                kwargs["base_url"] = self.settings.base_url
            self._client = openai.AsyncOpenAI(
                api_key=self.require_key(),
                max_retries=0,
                timeout=self.settings.turn_timeout,
                http_client=openai.DefaultAsyncHttpxClient(verify=shared_ssl_context()),
                **kwargs,
            )
        return self._client

    async def _complete(
        self, system: str, messages: list[ChatMessage], request: DecisionRequest, schema: dict[str, object]
    ) -> Completion:
        name = schema_name(request.action_model)
        if self.use_responses:
            return await self._responses(system, messages, name, schema)
        return await self._chat(system, messages, name, schema)

    async def _responses(
        self, system: str, messages: list[ChatMessage], name: str, schema: dict[str, object]
    ) -> Completion:
        extra: dict[str, Any] = {}
        if self.settings.temperature is not None:
            extra["temperature"] = self.settings.temperature
        response = await self.client().responses.create(
            model=self.settings.model,
            instructions=system,
            input=[{"role": m.role, "content": m.content} for m in messages],
            max_output_tokens=self.settings.output_tokens,
            store=False,
            # extra_body skips the SDK's per-call transform of the schema; same wire body.
            extra_body={
                **extra,
                "text": {"format": {"type": "json_schema", "name": name, "schema": schema, "strict": False}},
            },
        )
        if response.error is not None:
            raise ProviderFailure(ErrorClass.PROVIDER_ERROR, f"response failed: {response.error.message}")
        texts: list[str] = []
        refusals: list[str] = []
        for item in response.output:
            if item.type != "message":
                continue
            for part in item.content:
                if part.type == "output_text":
                    texts.append(part.text)
                elif part.type == "refusal":
                    refusals.append(part.refusal)
        usage = Usage()
        if response.usage is not None:
            usage.input_tokens = response.usage.input_tokens
            usage.output_tokens = response.usage.output_tokens
            details = response.usage.input_tokens_details
            usage.cached_tokens = (details.cached_tokens or 0) if details is not None else 0
            out_details = response.usage.output_tokens_details
            usage.reasoning_tokens = (out_details.reasoning_tokens or 0) if out_details is not None else 0
        completion = Completion("".join(texts), usage)
        incomplete = response.incomplete_details.reason if response.incomplete_details else None
        if refusals:
            completion.finish, completion.refusal = "refusal", " ".join(refusals)
        elif response.status == "incomplete" and incomplete == "content_filter":
            completion.finish, completion.refusal = "refusal", "stopped by the content filter"
        elif response.status == "incomplete":
            completion.finish = "truncated"
        return completion

    async def _chat(
        self, system: str, messages: list[ChatMessage], name: str, schema: dict[str, object]
    ) -> Completion:
        extra: dict[str, Any] = {}
        if self.settings.temperature is not None:
            extra["temperature"] = self.settings.temperature
        if self.settings.provider == "openai":
            extra["max_completion_tokens"] = self.settings.output_tokens
        else:
            extra["max_tokens"] = self.settings.output_tokens
        chat_messages: list[Any] = [{"role": "system", "content": system}]
        chat_messages += [{"role": m.role, "content": m.content} for m in messages]
        response = await self.client().chat.completions.create(
            model=self.settings.model,
            messages=chat_messages,
            # Sent as extra_body: the SDK would otherwise walk the whole schema through its
            # typed-params transform on every call (about 1.3 ms of CPU), the wire body is the same.
            extra_body={
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {"name": name, "schema": schema, "strict": False},
                }
            },
            **extra,
        )
        if not response.choices:
            raise ProviderFailure(ErrorClass.PROVIDER_ERROR, "the reply had no choices")
        choice = response.choices[0]
        usage = Usage()
        if response.usage is not None:
            usage.input_tokens = response.usage.prompt_tokens or 0
            usage.output_tokens = response.usage.completion_tokens or 0
            prompt_details = response.usage.prompt_tokens_details
            usage.cached_tokens = (prompt_details.cached_tokens or 0) if prompt_details else 0
            out_details = response.usage.completion_tokens_details
            usage.reasoning_tokens = (out_details.reasoning_tokens or 0) if out_details else 0
        completion = Completion(choice.message.content or "", usage)
        if choice.message.refusal:
            completion.finish, completion.refusal = "refusal", choice.message.refusal
        elif choice.finish_reason == "content_filter":
            completion.finish, completion.refusal = "refusal", "stopped by the content filter"
        elif choice.finish_reason == "length":
            completion.finish = "truncated"
        return completion

    def _classify(self, exc: Exception) -> ProviderFailure | None:
        return classify_openai_error(exc)

    async def prepare(self) -> None:
        """Check the key; for a compatible server also check it answers (short probe)."""
        await super().prepare()
        if self.settings.provider == "openai-compat":
            ok, reason = await self.check()
            if not ok:
                raise PlayerSetupError(f"{self.spec}: {reason}")

    async def _key_rejected(self) -> bool:
        if self.settings.provider != "openai":
            return False  # a compatible server's key is checked by the probe in check()
        try:
            await self.client().with_options(timeout=CHECK_TIMEOUT).models.list()
        except (openai.AuthenticationError, openai.PermissionDeniedError):
            return True
        except openai.OpenAIError:
            return False
        return False

    async def check(self) -> tuple[bool, str]:
        """Key present (OpenAI); for a compatible server also probe ``GET /models``."""
        ok, reason = await super().check()
        if not ok or self.settings.provider != "openai-compat":
            return ok, reason
        # The player's own client (shared connection pool and TLS context), with a short timeout.
        probe = self.client().with_options(timeout=CHECK_TIMEOUT)
        try:
            page = await probe.models.list()
            ids = [model.id for model in page.data]
        except openai.APITimeoutError:
            return False, f"server down: no answer within {CHECK_TIMEOUT:g}s at {self.settings.base_url}"
        except openai.APIConnectionError:
            return False, f"server down: connection refused at {self.settings.base_url}"
        except openai.APIStatusError as exc:
            if exc.status_code in (401, 403):
                return False, f"server refused the key (HTTP {exc.status_code}) at {self.settings.base_url}"
            return True, f"server up at {self.settings.base_url} (GET /models: HTTP {exc.status_code})"
        if ids and self.settings.model not in ids:
            return True, f"server up; model {self.settings.model!r} not listed (has {', '.join(ids[:5])})"
        return True, f"server up at {self.settings.base_url}"


def classify_openai_error(exc: Exception) -> ProviderFailure | None:
    """Map an ``openai`` SDK exception to a :class:`ProviderFailure`."""
    if isinstance(exc, openai.APITimeoutError):
        return ProviderFailure(ErrorClass.TIMEOUT, "the request timed out")
    if isinstance(exc, openai.APIConnectionError):
        return ProviderFailure(ErrorClass.PROVIDER_ERROR, f"connection failed: {exc}", retryable=True)
    if isinstance(exc, openai.APIStatusError):
        return failure_from_status(exc.status_code, http_headers(exc), sdk_message(exc))
    if isinstance(exc, openai.APIResponseValidationError | openai.APIError):
        return ProviderFailure(ErrorClass.PROVIDER_ERROR, f"unexpected reply: {sdk_message(exc)}")
    return None
