"""The common body of every model player: conversation, deadline, retries, parsing.

A provider subclass only implements :meth:`ModelPlayer._complete` (one call, returning a
:class:`Completion`); its provider plugin classifies the SDK's exceptions
(:meth:`players.providers.Provider.classify`).
Everything else - the system message, the re-ask conversation, the per-turn deadline,
the per-model concurrency cap, retries, usage and cost, error classes and key
scrubbing - lives here once.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from typing import Any

from pydantic import BaseModel

from arena.contract.player import (
    MAX_REPLY_CHARS,
    Decision,
    DecisionRequest,
    ErrorClass,
    FatalPlayerError,
    Player,
    PlayerSetupError,
    cut_reply,
    oversized,
)
from arena.contract.playerconfig import public_url

from .calls import ClosableClient, Completion, concurrency_gate
from .config import ModelSettings
from .memory import ChatMessage, TranscriptMemory, split_head
from .parsing import ReplyParseError, parse_reply
from .prompting import SYSTEM_PROMPT_VERSION, SYSTEM_TEMPLATE, decision_seed, feedback_note
from .retry import ProviderFailure, RetryLog, RetryPolicy, call_with_retries
from .schema import (
    DEFAULT_STRING_CAP,
    OUTPUT_CAP_RULE,
    action_schema,
    capped_schema,
    lists_new_choices,
    output_estimate,
    standing_model,
)
from .sdkutil import http_headers, scrub, scrub_value, sdk_message, shared_ssl_context

__all__ = [
    "ChatMessage",
    "Completion",
    "ModelPlayer",
    "http_headers",
    "scrub",
    "scrub_value",
    "sdk_message",
    "shared_ssl_context",
]

MAX_DETAIL = 600


class ModelPlayer(Player):
    """Base of all model players. Subclasses implement ``_complete`` and ``_classify``."""

    kind: str = "model"
    provider: str = ""
    estimates_output_cap = True
    """False: the reply cap is the configured one, never estimated from the schema (grammar decoding)."""
    string_cap: int | None = DEFAULT_STRING_CAP
    """The cap on free-text fields this player records in its configuration (``None``: none)."""
    _client: ClosableClient | None = None
    _owns_client = True
    """False once :meth:`share_transport` borrowed another player's client."""

    def __init__(self, spec: str, settings: ModelSettings, *, seed: int) -> None:
        self.spec = spec
        self.settings = settings
        self.seed = seed
        self.rng = random.Random(seed)
        self.retry_policy = RetryPolicy(max_retries=settings.max_retries)
        self.last_retry_log = RetryLog()
        self._last_reply: tuple[tuple[str, str, int], str] | None = None
        transcript = settings.memory == "transcript"
        self.memory = TranscriptMemory(settings.memory_budget) if transcript else None

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
        """Close the SDK client if one was created and is this player's own."""
        if self._client is not None and self._owns_client:
            await self._client.close()
        self._client = None

    def client(self) -> ClosableClient | None:
        """The SDK client, made on first use; ``None`` for a player that calls no SDK client (offline)."""
        return None

    def share_transport(self, prepared: Player) -> bool:
        """Use ``prepared``'s SDK client: same class and settings, already probed.

        A tournament prepares each model once and seats a fresh player per episode (its
        own seed and memory); sharing the client keeps the connection pool warm instead of
        building a client per episode. The client stays ``prepared``'s to close.
        """
        if type(prepared) is not type(self) or not isinstance(prepared, ModelPlayer):
            return False
        if prepared.settings != self.settings:
            return False
        client = prepared.client()
        if client is None:
            return False
        self._client = client
        self._owns_client = False
        return True

    def disclosed_settings(self) -> dict[str, Any] | None:
        """The model settings as a report discloses them (the report drops anything named like a key)."""
        return self.settings.model_dump(mode="json")

    def configuration(self) -> dict[str, Any]:
        """The resolved configuration this seat plays with (stored per seat; never a key).

        Defaults are filled in (output token cap, timeout); ``temperature`` is ``None``
        when none is sent (the provider's default applies). ``memory_budget_tokens`` is the budget
        in effect; ``memory_budget_configured`` appears when the context made it smaller.
        """
        settings = self.settings
        capped = self.memory is not None and settings.memory_budget < settings.memory_budget_tokens
        configured = {"memory_budget_configured": settings.memory_budget_tokens} if capped else {}
        return {
            "kind": self.kind,
            "name": self.spec,
            "provider": settings.provider,
            "model": settings.model,
            "base_url": public_url(settings.base_url),
            "key_env": settings.key_env,
            "temperature": self.temperature,
            "max_output_tokens": self.output_cap_setting,
            "string_max_length": self.string_cap,
            "memory": settings.memory,
            "memory_budget_tokens": settings.memory_budget if self.memory else None,
            **configured,
            "prompt_cache": self.prompt_cache,
            "timeout": settings.turn_timeout,
            "max_retries": settings.max_retries,
            "max_concurrency": settings.max_concurrency,
            "max_consecutive_errors": settings.max_consecutive_errors,
            "check_model_listed": settings.check_model_listed,
            "price_input_per_mtok": settings.price_input_per_mtok,
            "price_output_per_mtok": settings.price_output_per_mtok,
            "price_cached_input_per_mtok": settings.cached_input_price,
            # Only when given, so configurations (and their hashes) made without one stay as they were.
            **({"price_source": settings.price_source.as_dict()} if settings.price_source else {}),
            # Only for a model priced at 0 on purpose (a price left out also reads 0, but is unknown).
            **({"free": True} if settings.explicitly_free else {}),
            "seed": "per decision: sha256(episode seed, seat, step, attempt)" if self.takes_seed else None,
            "system_prompt_version": SYSTEM_PROMPT_VERSION,
            # Only when set, so configurations (and hashes) made without reasoning settings stay as they were.
            **self.reasoning_configuration(),
        }

    def reasoning_configuration(self) -> dict[str, Any]:
        """The reasoning settings that were set (effort, thinking, a compatible server's extra body):
        part of the configuration, so one model at two effort levels is two players."""
        settings = self.settings
        given = {
            "reasoning_effort": settings.reasoning_effort,
            "thinking_budget_tokens": settings.thinking_budget_tokens,
            "thinking": settings.thinking,
            "extra_body": settings.extra_body,
        }
        return {key: value for key, value in given.items() if value is not None}

    @property
    def failure_limit(self) -> int | None:
        """``max_consecutive_errors`` from the models file (``None``: the runner's limit)."""
        return self.settings.max_consecutive_errors

    def decides_from_request_alone(self, request: DecisionRequest) -> bool:
        """True without transcript memory, except on a re-ask (which shows the previous reply).

        A decision's sampling seed comes from the request (:func:`decision_seed`) and a prompt
        cache changes no reply, so nothing else an earlier decision left changes this one. A
        subclass that keeps state of its own between decisions must say ``False`` for it.
        """
        return self.memory is None and request.feedback is None

    @property
    def takes_seed(self) -> bool:
        """True when the provider's API accepts a sampling seed (then one is sent per decision)."""
        return False

    @property
    def temperature(self) -> float | None:
        """The temperature sent with every call (``None``: none is sent)."""
        return self.settings.temperature

    @property
    def output_cap_setting(self) -> int | str:
        """The output cap as configured: a number, or the rule it is estimated by."""
        settings = self.settings
        if settings.max_output_tokens is not None or not self.estimates_output_cap:
            return settings.output_tokens
        extra = settings.reasoning_allowance
        rule = f"{OUTPUT_CAP_RULE} (at most {settings.output_tokens})"
        return f"{rule} + {extra} reasoning" if extra else rule

    def output_cap(self, request: DecisionRequest) -> int:
        """Output tokens allowed for ``request``: the models-file cap, else estimated from its schema.

        The estimate (:func:`players.models.schema.estimate_output_tokens`, at most the
        provider default) plus the reasoning allowance of OpenAI reasoning models.
        """
        settings = self.settings
        if settings.max_output_tokens is not None or not self.estimates_output_cap:
            return settings.output_tokens
        estimate = output_estimate(request.action_model)
        return min(estimate, settings.output_tokens) + settings.reasoning_allowance

    @property
    def prompt_cache(self) -> str | None:
        """How this player asks for provider prompt caching (recorded in the configuration)."""
        return None

    def sampling(self, request: DecisionRequest) -> dict[str, Any]:
        """The sampling settings sent for ``request``, under their wire names.

        Providers build their calls from this, so what is recorded is what is sent.
        """
        sent: dict[str, Any] = {"max_tokens": self.output_cap(request)}
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
        """Turn an SDK exception into a failure (the provider plugin's classification); ``None``: unknown."""
        return self.settings.provider_plugin.classify(exc)

    # -- the decision -------------------------------------------------------------------

    def reply_model(self, action_model: type[BaseModel]) -> type[BaseModel]:
        """The action model whose schema the reply is asked in (structured output).

        A hosted model gets the game's standing model where the moment only narrows numbers
        (a morning's affordable cups): the schema leads what a provider caches (OpenAI:
        instructions and schema, then messages), so a schema that changed every morning left
        nothing cached; those bounds are in the prompt's words and the game checks them. Where
        the moment lists the legal moves as a choice the standing model leaves open, the
        moment's model is kept: a provider that enforces the schema can then only pick a legal
        move. The offline model overrides this: its grammar makes every bound binding.
        """
        standing = standing_model(action_model)
        return action_model if lists_new_choices(action_model, standing) else standing

    def system_message(self, schema: dict[str, object]) -> str:
        """The short system message: reply with JSON matching the schema, nothing more."""
        return SYSTEM_TEMPLATE.format(schema=json.dumps(schema, separators=(",", ":")))

    def conversation(self, request: DecisionRequest, system: str = "") -> list[ChatMessage]:
        """The prompt, plus the previous reply and the validation error on a re-ask.

        With transcript memory the seat's earlier turns of the episode come first (see
        :mod:`players.models.memory`); ``system`` counts towards its token budget, and so
        does a re-ask's extra text when the model's context is known.
        """
        note = feedback_note(request.feedback, request.feedback_error) if request.feedback else ""
        last, extra = self._last_reply, list[ChatMessage]()
        if (
            note
            and last is not None
            and last[0] == (request.game, request.seat, request.step)
            and last[1].strip()
        ):
            extra = [ChatMessage("assistant", last[1]), ChatMessage("user", note)]
        if self.memory is not None:
            reserve = 0
            if note and self.settings.context_tokens is not None:
                reserve = sum(self.memory.count(m.content) for m in extra or [ChatMessage("user", note)])
            messages = self.memory.messages(request, system, reserve)
        else:
            head, _ = split_head(request.prompt, request.rules)
            messages = [ChatMessage("user", request.prompt, len(head))]
        if extra:
            messages += extra
        elif note:
            messages[-1].content = f"{messages[-1].content}\n\n{note}"
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
        if decision.thinking:
            decision.thinking = scrub(decision.thinking, secrets)
        decision.error_detail = scrub(decision.error_detail, secrets)[:MAX_DETAIL]
        if isinstance(decision.action, dict):
            decision.action = scrub_value(decision.action, secrets)
        return decision

    async def _decide(self, request: DecisionRequest) -> Decision:
        timeout = self.settings.turn_timeout
        self.last_retry_log = log = RetryLog()
        try:
            schema: dict[str, object] = action_schema(self.reply_model(request.action_model))
            sent = capped_schema(schema)
            system = self.system_message(capped_schema(action_schema(standing_model(request.action_model))))
            messages = self.conversation(request, system)
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
                        lambda: self._attempt(system, messages, request, sent),
                        policy=self.retry_policy,
                        rng=self.rng,
                        deadline=deadline,
                        log=log,
                    )
        except TimeoutError:
            detail = f"no reply within {timeout:g}s"
            return Decision(
                None, error=ErrorClass.TIMEOUT, error_detail=detail, sampling=sampling, system=system
            )
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
                system=system,
            )
        decision = self._read(completion, request, schema)
        decision.sampling = sampling
        decision.system = system
        decision.served = completion.served
        decision.thinking = completion.thinking_record()
        return decision

    async def _attempt(
        self, system: str, messages: list[ChatMessage], request: DecisionRequest, schema: dict[str, object]
    ) -> Completion:
        try:
            return await self._complete(system, messages, request, schema)
        except (ProviderFailure, FatalPlayerError, asyncio.CancelledError, TimeoutError):
            raise
        except Exception as exc:
            failure = self._classify(exc)
            if failure is None:
                failure = ProviderFailure(ErrorClass.PLAYER_CRASH, f"{type(exc).__name__}: {exc}")
            raise failure from exc

    def _read(self, completion: Completion, request: DecisionRequest, schema: dict[str, object]) -> Decision:
        usage = self.settings.priced(completion.usage)
        raw = completion.text
        length = len(raw)
        if length > MAX_REPLY_CHARS:  # cut before anything keeps it (memory, the store); never parsed
            raw = cut_reply(raw)
        self._last_reply = ((request.game, request.seat, request.step), raw)
        if self.memory is not None:
            self.memory.record(request.episode, request.seat, request.step, request.prompt, raw)
        if length > MAX_REPLY_CHARS:
            return oversized(Decision(None, raw=raw, usage=usage), length)
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
                error_detail=f"the reply hit the output token limit ({self.output_cap(request)} tokens)",
            )
        try:
            parsed = parse_reply(raw, schema)
        except ReplyParseError as exc:
            return Decision(None, raw=raw, usage=usage, error=exc.error_class, error_detail=str(exc))
        return Decision(parsed.action, reason=parsed.reason, raw=raw, usage=usage, revised=parsed.revised)
