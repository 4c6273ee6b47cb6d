"""The common body of every model player: conversation, deadline, retries, parsing.

A provider subclass only implements :meth:`ModelPlayer._complete` (one call, returning a
:class:`Completion`) and :meth:`ModelPlayer._classify` (SDK exception -> failure).
Everything else - the system message, the re-ask conversation, the per-turn deadline,
the per-model concurrency cap, retries, usage and cost, error classes and key
scrubbing - lives here once.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import os
import random
import re
import ssl
import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import httpx2

from arena.player import Decision, DecisionRequest, ErrorClass, FatalPlayerError, PlayerSetupError, Usage
from arena.playerconfig import public_url

from .config import ModelSettings
from .parsing import ReplyParseError, parse_reply
from .retry import ProviderFailure, RetryLog, RetryPolicy, call_with_retries
from .schema import action_schema

SYSTEM_TEMPLATE = (
    "You are a player in a game. Each turn you get the rules and the current state. "
    "Reply with a single JSON object that matches this JSON schema, and nothing else:\n{schema}"
)
FEEDBACK_TEMPLATE = (
    "Your previous reply could not be used: {feedback}\n"
    "Reply again with a single JSON object that matches the schema."
)
SYSTEM_PROMPT_VERSION = hashlib.sha256(f"{SYSTEM_TEMPLATE}\n{FEEDBACK_TEMPLATE}".encode()).hexdigest()[:12]
"""Hash of the system and re-ask templates, recorded in every model seat's configuration."""
MAX_DETAIL = 600
_KEY_PATTERN = re.compile(r"\b(sk-[A-Za-z0-9_\-]{6,}|sk-ant-[A-Za-z0-9_\-]{6,})")

Finish = Literal["stop", "truncated", "refusal"]


class ClosableClient(Protocol):
    """What :meth:`ModelPlayer.close` needs of an SDK client."""

    async def close(self) -> None:
        """Release the client's connections."""
        ...


@dataclass(slots=True)
class ChatMessage:
    """One turn of the conversation sent to a provider."""

    role: Literal["user", "assistant"]
    content: str


@dataclass(slots=True)
class Completion:
    """What one provider call produced: the reply text, how it ended, and its usage."""

    text: str
    usage: Usage = field(default_factory=Usage)
    finish: Finish = "stop"
    refusal: str = ""


@functools.cache
def shared_ssl_context() -> ssl.SSLContext:
    """One TLS context for every SDK client in the process.

    Each client otherwise loads the CA bundle itself (about 20 ms of CPU), which
    stalls the event loop when many seats start at once.
    """
    return httpx2.create_ssl_context()


def scrub(text: str, secrets: list[str]) -> str:
    """Remove ``secrets`` and anything shaped like an API key from ``text``."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, "[redacted]")
    return _KEY_PATTERN.sub("[redacted]", text)


def scrub_value(value: Any, secrets: list[str]) -> Any:
    """:func:`scrub` every string inside a JSON-like value."""
    if isinstance(value, str):
        return scrub(value, secrets)
    if isinstance(value, dict):
        return {key: scrub_value(item, secrets) for key, item in value.items()}
    if isinstance(value, list):
        return [scrub_value(item, secrets) for item in value]
    return value


_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[str, str, str], asyncio.Semaphore]]
_gates = weakref.WeakKeyDictionary()


def concurrency_gate(key: tuple[str, str, str], limit: int) -> asyncio.Semaphore:
    """The semaphore shared by every player of one (provider, model, base URL) in this loop."""
    loop = asyncio.get_running_loop()
    per_loop = _gates.setdefault(loop, {})
    gate = per_loop.get(key)
    if gate is None:
        gate = per_loop[key] = asyncio.Semaphore(limit)
    return gate


def decision_seed(episode_seed: int, seat: str, step: int, attempt: int) -> int:
    """The sampling seed of one decision: a stable 31-bit function of episode, seat, step, attempt."""
    digest = hashlib.sha256(f"arena-decision:{episode_seed}:{seat}:{step}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


class ModelPlayer:
    """Base of all model players. Subclasses implement ``_complete`` and ``_classify``."""

    kind: str = "model"
    provider: str = ""
    _client: ClosableClient | None = None

    def __init__(self, spec: str, settings: ModelSettings, *, seed: int) -> None:
        self.spec = spec
        self.settings = settings
        self.seed = seed
        self.rng = random.Random(seed)
        self.retry_policy = RetryPolicy(max_retries=settings.max_retries)
        self.last_retry_log = RetryLog()
        self._last_reply: tuple[tuple[str, str, int], str] | None = None

    # -- set-up -----------------------------------------------------------------------

    @property
    def api_key(self) -> str | None:
        """The key from the configured environment variable, if one is configured and set."""
        env = self.settings.key_env
        return os.environ.get(env) or None if env else None

    def _secrets(self) -> list[str]:
        key = self.api_key
        return [key] if key else []

    def require_key(self) -> str:
        """The API key, or :class:`PlayerSetupError` naming the missing variable."""
        env = self.settings.key_env
        key = self.api_key
        if env and not key:
            raise PlayerSetupError(f"{self.spec}: {env} is not set (export it to play this model)")
        return key or "EMPTY"

    async def prepare(self) -> None:
        """Check the key is present, then that the provider accepts it (one cheap call).

        A rejected key stops the match before the first turn; any other failure of
        the probe is left for the first real call to classify.
        """
        self.require_key()
        if await self._key_rejected():
            env = self.settings.key_env or "the configured key"
            raise PlayerSetupError(f"{self.spec}: the provider rejected the key in {env} (HTTP 401/403)")

    async def _key_rejected(self) -> bool:
        """True only when the provider answers a key probe with 401 or 403."""
        return False

    async def check(self) -> tuple[bool, str]:
        """Whether this player could play now, and why not (used by ``arena models``)."""
        env = self.settings.key_env
        if env and not self.api_key:
            return False, f"{env} not set"
        return True, "key set" if env else "ready"

    async def close(self) -> None:
        """Close the SDK client if one was created (HTTP providers set ``_client``)."""
        if self._client is not None:
            await self._client.close()
            self._client = None

    def configuration(self) -> dict[str, Any]:
        """The resolved configuration this seat plays with (stored per seat; never a key).

        Defaults are filled in (output token cap, timeout); ``temperature`` is ``None``
        when none is sent (the provider's default applies).
        """
        settings = self.settings
        return {
            "kind": self.kind,
            "name": self.spec,
            "provider": settings.provider,
            "model": settings.model,
            "base_url": public_url(settings.base_url),
            "key_env": settings.key_env,
            "temperature": self.temperature,
            "max_output_tokens": settings.output_tokens,
            "timeout": settings.turn_timeout,
            "max_retries": settings.max_retries,
            "max_concurrency": settings.max_concurrency,
            "max_consecutive_errors": settings.max_consecutive_errors,
            "check_model_listed": settings.check_model_listed,
            "price_input_per_mtok": settings.price_input_per_mtok,
            "price_output_per_mtok": settings.price_output_per_mtok,
            "seed": "per decision: sha256(episode seed, seat, step, attempt)" if self.takes_seed else None,
            "system_prompt_version": SYSTEM_PROMPT_VERSION,
        }

    @property
    def failure_limit(self) -> int | None:
        """``max_consecutive_errors`` from the models file (``None``: the runner's limit)."""
        return self.settings.max_consecutive_errors

    @property
    def takes_seed(self) -> bool:
        """True when the provider's API accepts a sampling seed (then one is sent per decision)."""
        return False

    @property
    def temperature(self) -> float | None:
        """The temperature sent with every call (``None``: none is sent)."""
        return self.settings.temperature

    def sampling(self, request: DecisionRequest) -> dict[str, Any]:
        """The sampling settings sent for ``request``, under their wire names.

        Providers build their calls from this, so what is recorded is what is sent.
        """
        sent: dict[str, Any] = {"max_tokens": self.settings.output_tokens}
        if self.temperature is not None:
            sent["temperature"] = self.temperature
        if self.takes_seed:
            sent["seed"] = decision_seed(self.seed, request.seat, request.step, request.attempt)
        return sent

    # -- provider hooks ---------------------------------------------------------------

    @property
    def gate_key(self) -> tuple[str, str, str]:
        """Key of the shared concurrency cap."""
        return (self.provider, self.settings.model, self.settings.base_url or "")

    async def _complete(
        self, system: str, messages: list[ChatMessage], request: DecisionRequest, schema: dict[str, object]
    ) -> Completion:
        raise NotImplementedError

    def _classify(self, exc: Exception) -> ProviderFailure | None:
        """Turn an SDK exception into a failure; ``None`` for unknown exceptions."""
        return None

    # -- the decision -------------------------------------------------------------------

    def system_message(self, schema: dict[str, object]) -> str:
        """The short system message: reply with JSON matching the schema, nothing more."""
        return SYSTEM_TEMPLATE.format(schema=json.dumps(schema, separators=(",", ":")))

    def conversation(self, request: DecisionRequest) -> list[ChatMessage]:
        """The prompt, plus the previous reply and the validation error on a re-ask."""
        messages = [ChatMessage("user", request.prompt)]
        if request.feedback:
            note = FEEDBACK_TEMPLATE.format(feedback=request.feedback)
            key = (request.game, request.seat, request.step)
            if self._last_reply is not None and self._last_reply[0] == key and self._last_reply[1].strip():
                messages += [ChatMessage("assistant", self._last_reply[1]), ChatMessage("user", note)]
            else:
                messages[0] = ChatMessage("user", f"{request.prompt}\n\n{note}")
        return messages

    async def decide(self, request: DecisionRequest) -> Decision:
        """Ask the model once (with retries inside the turn deadline) and read its action."""
        started = time.perf_counter()
        secrets = self._secrets()
        try:
            decision = await self._decide(request)
        except FatalPlayerError as exc:
            raise FatalPlayerError(scrub(str(exc), secrets)) from None
        decision.latency = time.perf_counter() - started
        decision.raw = scrub(decision.raw, secrets)
        decision.reason = scrub(decision.reason, secrets)
        decision.error_detail = scrub(decision.error_detail, secrets)[:MAX_DETAIL]
        if isinstance(decision.action, dict):
            decision.action = scrub_value(decision.action, secrets)
        return decision

    async def _decide(self, request: DecisionRequest) -> Decision:
        timeout = self.settings.turn_timeout
        self.last_retry_log = log = RetryLog()
        try:
            schema: dict[str, object] = action_schema(request.action_model)
            system = self.system_message(schema)
            messages = self.conversation(request)
            sampling = self.sampling(request)
        except Exception as exc:  # a broken action model or prompt is not the model's fault
            detail = f"cannot build the request: {exc}"
            return Decision(None, error=ErrorClass.PLAYER_CRASH, error_detail=detail)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        try:
            async with asyncio.timeout(timeout):
                async with concurrency_gate(self.gate_key, self.settings.max_concurrency):
                    completion = await call_with_retries(
                        lambda: self._attempt(system, messages, request, schema),
                        policy=self.retry_policy,
                        rng=self.rng,
                        deadline=deadline,
                        log=log,
                    )
        except TimeoutError:
            detail = f"no reply within {timeout:g}s"
            return Decision(None, error=ErrorClass.TIMEOUT, error_detail=detail, sampling=sampling)
        except ProviderFailure as failure:
            if failure.error_class is ErrorClass.AUTH_ERROR:
                raise FatalPlayerError(f"{self.spec}: authentication failed ({failure.detail})") from None
            permanent = failure.error_class is ErrorClass.PROVIDER_ERROR and not failure.retryable
            return Decision(
                None,
                error=failure.error_class,
                error_detail=failure.detail,
                permanent=permanent,
                sampling=sampling,
            )
        decision = self._read(completion, request, schema)
        decision.sampling = sampling
        return decision

    async def _attempt(
        self, system: str, messages: list[ChatMessage], request: DecisionRequest, schema: dict[str, object]
    ) -> Completion:
        try:
            return await self._complete(system, messages, request, schema)
        except (ProviderFailure, asyncio.CancelledError, TimeoutError):
            raise
        except Exception as exc:
            failure = self._classify(exc)
            if failure is None:
                failure = ProviderFailure(ErrorClass.PLAYER_CRASH, f"{type(exc).__name__}: {exc}")
            raise failure from exc

    def _read(self, completion: Completion, request: DecisionRequest, schema: dict[str, object]) -> Decision:
        usage = completion.usage
        usage.cost_usd = self.settings.cost(usage.input_tokens, usage.output_tokens)
        raw = completion.text
        self._last_reply = ((request.game, request.seat, request.step), raw)
        if completion.finish == "refusal":
            detail = completion.refusal or "the model refused to answer"
            return Decision(
                None,
                raw=raw or completion.refusal,
                usage=usage,
                error=ErrorClass.REFUSAL,
                error_detail=detail,
            )
        if completion.finish == "truncated":
            return Decision(
                None,
                raw=raw,
                usage=usage,
                error=ErrorClass.TRUNCATED,
                error_detail=f"the reply hit the output token limit ({self.settings.output_tokens} tokens)",
            )
        try:
            parsed = parse_reply(raw, schema)
        except ReplyParseError as exc:
            return Decision(None, raw=raw, usage=usage, error=exc.error_class, error_detail=str(exc))
        return Decision(parsed.action, reason=parsed.reason, raw=raw, usage=usage)


def http_headers(exc: Exception) -> dict[str, str]:
    """Response headers of an SDK status error, if it carries a response."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return {}
    try:
        return {str(k): str(v) for k, v in headers.items()}
    except AttributeError:
        return {}


def sdk_message(exc: Exception) -> str:
    """A short message for an SDK error: the provider's error message when present."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return str(error["message"])
    message = getattr(exc, "message", None)
    return str(message) if message else str(exc)
