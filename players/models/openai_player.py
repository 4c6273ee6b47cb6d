"""OpenAI (Responses or Chat Completions) and OpenAI-compatible servers (vLLM, Ollama…).

Structured output: Responses ``text.format = {type: json_schema, name, schema,
strict: false}``; Chat Completions ``response_format = {type: json_schema,
json_schema: {name, schema, strict: false}}``. The SDK's own retries are off
(``max_retries=0``): :mod:`players.models.retry` runs the only retry loop.

Seeds: Chat Completions calls carry ``seed`` (see :func:`players.models.prompting.decision_seed`);
the Responses API has no seed parameter, so OpenAI Responses seats are not seeded.

Before a match the server's ``GET /models`` is probed (compatible servers always,
OpenAI for its key): a 404 there means a wrong base URL, and a model id the server does
not list is refused unless ``check_model_listed = false``.
"""

from __future__ import annotations

import hashlib
from typing import Any

import openai

from arena.contract.player import DecisionRequest, ErrorClass, Player, PlayerSetupError
from arena.contract.playerconfig import masked_url
from arena.contract.usage import NO_USAGE, Usage

from .base import ChatMessage, Completion, ModelPlayer, sdk_message, shared_ssl_context
from .calls import served_by
from .config import ModelSettings
from .listing import ListedModel, served_model
from .retry import ProviderFailure
from .schema import schema_name
from .sdkutil import connection_problem

CHECK_TIMEOUT = 3.0


class OpenAIPlayer(ModelPlayer):
    """A seat played by an OpenAI model (``openai:MODEL``) or a compatible server."""

    provider = "openai"

    def __init__(self, spec: str, settings: ModelSettings, *, seed: int, official: bool) -> None:
        super().__init__(spec, settings, seed=seed)
        # OpenAI itself (Responses API, prompt_cache_key, key probe), not a compatible server.
        self.official = official
        self._client: openai.AsyncOpenAI | None = None
        self.listed_as: str | None = None
        """The id the server lists for the model when it is not the id asked for (llama-server's
        GGUF path, say): found by the probe, recorded in each reply's ``served`` facts."""

    @property
    def takes_seed(self) -> bool:
        """Chat Completions takes ``seed`` (OpenAI and compatible servers); Responses has none."""
        return not self.use_responses

    def configuration(self) -> dict[str, Any]:
        """The base configuration plus which OpenAI API is called."""
        return {**super().configuration(), "api": "responses" if self.use_responses else "chat"}

    @property
    def use_responses(self) -> bool:
        """True when calls go to the Responses API (OpenAI only, the default)."""
        return self.official and (self.settings.api or "responses") == "responses"

    def client(self) -> openai.AsyncOpenAI:
        """The SDK client (created on first use, SDK retries disabled)."""
        if self._client is None:
            kwargs: dict[str, Any] = {}
            if self.settings.endpoint:
                kwargs["base_url"] = self.settings.endpoint
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
        sampling = self.sampling(request)
        if self.use_responses:
            return await self._responses(system, messages, request, name, schema, sampling)
        return await self._chat(system, messages, request, name, schema, sampling)

    @property
    def prompt_cache(self) -> str | None:
        """OpenAI: the stable prefix leads and ``prompt_cache_key`` names the episode and seat."""
        if self.official:
            return "stable prefix + prompt_cache_key per episode and seat"
        return "stable prefix"

    def _cache_key(self, request: DecisionRequest) -> dict[str, str]:
        """``prompt_cache_key`` (OpenAI only: compatible servers may reject unknown fields)."""
        if not self.official:
            return {}
        digest = hashlib.sha256(f"{request.episode}\x00{request.game}\x00{request.seat}".encode()).hexdigest()
        return {"prompt_cache_key": f"arena-{digest[:32]}"}

    def sampling(self, request: DecisionRequest) -> dict[str, Any]:
        """Wire names: ``max_output_tokens`` (Responses), ``max_completion_tokens`` (OpenAI chat)."""
        sent = super().sampling(request)
        cap = sent.pop("max_tokens")
        if self.use_responses:
            sent["max_output_tokens"] = cap
        elif self.official:
            sent["max_completion_tokens"] = cap
        else:
            sent["max_tokens"] = cap
        effort = self.settings.reasoning_effort
        if effort is not None and self.use_responses:
            # A summary of the reasoning comes back only when asked for; it is stored as the thinking.
            sent["reasoning"] = {"effort": effort, "summary": "auto"}
        elif effort is not None:
            sent["reasoning_effort"] = effort
        return sent

    @property
    def extra_body(self) -> dict[str, Any]:
        """A compatible server's ``extra_body`` from the models file, sent with every call as given."""
        return dict(self.settings.extra_body or {})

    async def _responses(
        self,
        system: str,
        messages: list[ChatMessage],
        request: DecisionRequest,
        name: str,
        schema: dict[str, object],
        sampling: dict[str, Any],
    ) -> Completion:
        extra = dict(sampling)
        response = await self.client().responses.create(
            model=self.settings.model,
            instructions=system,
            input=[{"role": m.role, "content": m.content} for m in messages],
            max_output_tokens=extra.pop("max_output_tokens"),
            store=False,
            # extra_body skips the SDK's per-call transform of the schema; same wire body.
            extra_body={
                **self.extra_body,
                **extra,
                **self._cache_key(request),
                "text": {"format": {"type": "json_schema", "name": name, "schema": schema, "strict": False}},
            },
        )
        if response.error is not None:
            raise ProviderFailure(ErrorClass.PROVIDER_ERROR, f"response failed: {response.error.message}")
        texts: list[str] = []
        refusals: list[str] = []
        summaries: list[str] = []
        hidden = False
        for item in response.output:
            if item.type == "reasoning":
                said = [part.text for part in item.summary or [] if part.text]
                summaries += said
                hidden = hidden or not said  # reasoning whose summary was not sent: encrypted only
                continue
            if item.type != "message":
                continue
            for part in item.content:
                if part.type == "output_text":
                    texts.append(part.text)
                elif part.type == "refusal":
                    refusals.append(part.refusal)
        usage = _responses_usage(response.usage)
        # The Responses API documents no system_fingerprint; a server that sends one is heard.
        fingerprint = getattr(response, "system_fingerprint", None)
        served = served_by(model=response.model, system_fingerprint=fingerprint, listed_as=self.listed_as)
        completion = Completion("".join(texts), usage, served=served)
        completion.thinking, completion.thinking_hidden = "\n\n".join(summaries), hidden
        incomplete = response.incomplete_details.reason if response.incomplete_details else None
        if refusals:
            completion.finish, completion.refusal = "refusal", " ".join(refusals)
        elif response.status == "incomplete" and incomplete == "content_filter":
            completion.finish, completion.refusal = "refusal", "stopped by the content filter"
        elif response.status == "incomplete":
            completion.finish = "truncated"
        return completion

    async def _chat(
        self,
        system: str,
        messages: list[ChatMessage],
        request: DecisionRequest,
        name: str,
        schema: dict[str, object],
        sampling: dict[str, Any],
    ) -> Completion:
        extra = dict(sampling)
        chat_messages: list[Any] = [{"role": "system", "content": system}]
        chat_messages += [{"role": m.role, "content": m.content} for m in messages]
        response = await self.client().chat.completions.create(
            model=self.settings.model,
            messages=chat_messages,
            # Sent as extra_body: the SDK would otherwise walk the whole schema through its
            # typed-params transform on every call (about 1.3 ms of CPU), the wire body is the same.
            extra_body={
                **self.extra_body,
                **self._cache_key(request),
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {"name": name, "schema": schema, "strict": False},
                },
            },
            **extra,
        )
        if not response.choices:
            raise ProviderFailure(ErrorClass.PROVIDER_ERROR, "the reply had no choices")
        choice = response.choices[0]
        usage = _chat_usage(response.usage)
        served = served_by(
            model=response.model, system_fingerprint=response.system_fingerprint, listed_as=self.listed_as
        )
        completion = Completion(choice.message.content or "", usage, served=served)
        completion.thinking = _chat_thinking(choice.message)
        if choice.message.refusal:
            completion.finish, completion.refusal = "refusal", choice.message.refusal
        elif choice.finish_reason == "content_filter":
            completion.finish, completion.refusal = "refusal", "stopped by the content filter"
        elif choice.finish_reason == "length":
            completion.finish = "truncated"
        return completion

    async def prepare(self) -> None:
        """Check the key, then probe ``GET /models``: reachable, right URL, key taken, model listed.

        OpenAI itself is probed too (the listing is free): a closed port or a server that
        never answers stops the match here, in one line, instead of an episode of fallbacks.
        """
        self.require_key()
        ok, reason = await self._probe()
        if not ok:
            raise PlayerSetupError(f"{self.spec}: {reason}")

    def _rejected_key_message(self) -> str:
        env = self.settings.key_env or "the configured key"
        return f"the provider rejected the key in {env} (HTTP 401/403)"

    async def check(self) -> tuple[bool, str]:
        """Key present (OpenAI: no network call); a compatible server is also probed."""
        ok, reason = await super().check()
        if not ok or self.official:
            return ok, reason
        return await self._probe()

    async def _probe(self) -> tuple[bool, str]:
        """``GET /models``: must answer (compatible servers), accept the key and list the model id.

        A server that cannot be reached or does not answer within :data:`CHECK_TIMEOUT` fails
        it; so do a refused key, a 404 and an unlisted id. For OpenAI itself other statuses
        are left for the first call to classify. Which listed model serves
        the id is :func:`players.models.listing.served_model`'s rule.
        """
        compat = not self.official
        # The player's own client (shared connection pool and TLS context), with a short timeout.
        client = self.client()
        # Where calls really go: the SDK reads OPENAI_BASE_URL when no base_url is configured.
        base = masked_url(str(client.base_url).rstrip("/"))  # in messages: no password or token
        fine = (True, f"server up at {base}" if compat else "key set")
        probe = client.with_options(timeout=CHECK_TIMEOUT)
        try:
            page = await probe.models.list()
            listed = [ListedModel.from_entry(model) for model in page.data]
        except openai.APITimeoutError:
            return False, f"server down: no answer within {CHECK_TIMEOUT:g}s at {base}"
        except openai.APIConnectionError as exc:
            return False, f"server down: {connection_problem(exc)} at {base}"
        except openai.APIStatusError as exc:
            if exc.status_code in (401, 403) and not compat:
                return False, self._rejected_key_message()
            return _probe_status(exc, base, compat) or fine
        if not self.settings.check_model_listed:
            return fine
        model = self.settings.model
        served = served_model(model, listed)
        if served is None:
            ids = [entry.id for entry in listed]
            listing = ", ".join(repr(i) for i in ids[:20]) or "none"
            more = f" and {len(ids) - 20} more" if len(ids) > 20 else ""
            hint = "" if ids else " (set check_model_listed = false for a server that lists nothing)"
            refusal = f"the server at {base} does not list model {model!r}; it lists {listing}{more}{hint}"
            return False, refusal
        self.listed_as = served.id if served.note else None
        return (True, f"{fine[1]}; {model!r} plays: {served.note}") if served.note else fine

    def share_transport(self, prepared: Player) -> bool:
        """Also take the listed id ``prepared``'s probe found serving the model (see :attr:`listed_as`)."""
        shared = super().share_transport(prepared)
        if shared and isinstance(prepared, OpenAIPlayer):
            self.listed_as = prepared.listed_as
        return shared


def _probe_status(exc: openai.APIStatusError, base: str, compat: bool) -> tuple[bool, str] | None:
    """The verdict of a ``GET /models`` that answered an error status (``None``: no verdict)."""
    status = exc.status_code
    if status in (401, 403):
        return False, f"server refused the key (HTTP {status}) at {base}"
    if status in (404, 405):
        doubled = base.rstrip("/").endswith("/v1/v1")
        hint = "remove the extra /v1" if doubled else "check the base URL (a missing or extra /v1?)"
        return False, f"no models endpoint at {base}/models (HTTP {status}); {hint}"
    if compat and 400 <= status < 500:
        return False, f"GET {base}/models answered HTTP {status}: {sdk_message(exc)}"
    if compat:
        return True, f"server up at {base} (GET /models: HTTP {status})"
    return None


def _chat_thinking(message: Any) -> str:
    """The thinking a compatible server sends beside the message: ``reasoning_content`` (vLLM,
    SGLang, llama.cpp server, DeepSeek) or ``reasoning`` (OpenRouter, newer vLLM); ``""``: none."""
    for name in ("reasoning_content", "reasoning"):
        value = getattr(message, name, None)
        if isinstance(value, str) and value.strip():
            return value
    return ""


def _responses_usage(raw: Any) -> Usage:
    """The tokens a Responses API reply reports (none when it reports no usage)."""
    if raw is None:
        return NO_USAGE
    details = raw.input_tokens_details
    out_details = raw.output_tokens_details
    return Usage(
        input_tokens=raw.input_tokens,
        output_tokens=raw.output_tokens,
        cached_tokens=(details.cached_tokens or 0) if details is not None else 0,
        cache_write_tokens=(details.cache_write_tokens or 0) if details is not None else 0,
        reasoning_tokens=(out_details.reasoning_tokens or 0) if out_details is not None else 0,
    )


def _chat_usage(raw: Any) -> Usage:
    """The tokens a chat completion reports (none when it reports no usage)."""
    if raw is None:
        return NO_USAGE
    prompt_details = raw.prompt_tokens_details
    out_details = raw.completion_tokens_details
    return Usage(
        input_tokens=raw.prompt_tokens or 0,
        output_tokens=raw.completion_tokens or 0,
        cached_tokens=(prompt_details.cached_tokens or 0) if prompt_details else 0,
        cache_write_tokens=_chat_cache_writes(raw),
        reasoning_tokens=(out_details.reasoning_tokens or 0) if out_details else 0,
    )


def _chat_cache_writes(usage: Any) -> int:
    """Input tokens a Chat Completions server says it wrote to its prompt cache (0: none said).

    OpenAI and OpenRouter report ``prompt_tokens_details.cache_write_tokens``; LiteLLM in front
    of Anthropic reports ``cache_creation_input_tokens`` (also as ``cache_creation_tokens`` in the
    details). Each counts tokens inside ``prompt_tokens``.
    """
    details = usage.prompt_tokens_details
    for source, name in (
        (details, "cache_write_tokens"),
        (details, "cache_creation_tokens"),
        (usage, "cache_creation_input_tokens"),
    ):
        value = getattr(source, name, None) if source is not None else None
        if isinstance(value, int) and value > 0:
            return value
    return 0
