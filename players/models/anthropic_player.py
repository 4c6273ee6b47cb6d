"""Anthropic Messages API players (``anthropic:MODEL``).

Structured output, two modes (``anthropic_mode`` in the models file):

* ``tool`` (default): one tool whose ``input_schema`` is the action schema, forced with
  ``tool_choice={"type": "tool", "name": ...}``; works with every Claude model. The
  tool input is the action and ``Decision.raw`` is its JSON (several tool calls: one per
  line, and the last one is played).
* ``output_config``: ``output_config={"format": {"type": "json_schema", "schema": ...}}``
  (objects closed with ``additionalProperties: false``) for models that support it.

anthropic >= 1 dropped ``temperature`` from ``messages.create``; it goes in
``extra_body``. The Messages API takes no sampling seed, so none is sent. SDK retries
are off (``max_retries=0``) and OpenTelemetry spans are disabled
(``open_telemetry=False``) so prompts never leave through tracing.
"""

from __future__ import annotations

import json
from typing import Any

import anthropic

from arena.contract.player import DecisionRequest, PlayerSetupError
from arena.contract.usage import NO_USAGE, Usage

from .base import ChatMessage, Completion, ModelPlayer, shared_ssl_context
from .calls import served_by
from .config import ModelSettings
from .schema import closed_schema, schema_name
from .sdkutil import connection_problem

KEY_PROBE_TIMEOUT = 3.0

EPHEMERAL = {"type": "ephemeral"}
"""Anthropic's cache breakpoint (5-minute cache; writes cost 1.25x input, reads 0.1x)."""
TOOL_DESCRIPTION = "Submit your action for this turn. The input must match the schema."


class AnthropicPlayer(ModelPlayer):
    """A seat played by a Claude model through the Messages API."""

    provider = "anthropic"

    def __init__(self, spec: str, settings: ModelSettings, *, seed: int) -> None:
        super().__init__(spec, settings, seed=seed)
        self._client: anthropic.AsyncAnthropic | None = None

    def client(self) -> anthropic.AsyncAnthropic:
        """The SDK client (created on first use, SDK retries and tracing disabled)."""
        if self._client is None:
            self._client = anthropic.AsyncAnthropic(
                api_key=self.require_key(),
                base_url=self.settings.base_url,
                max_retries=0,
                timeout=self.settings.turn_timeout,
                open_telemetry=False,
                http_client=anthropic.DefaultAsyncHttpxClient(verify=shared_ssl_context()),
            )
        return self._client

    async def prepare(self) -> None:
        """Check the key, then list one model (free): the server answers and takes the key.

        A closed port, no answer within :data:`KEY_PROBE_TIMEOUT`, a refused key or no models
        endpoint (a wrong base URL) stop the match here in one line; another error status is
        left for the first call to classify (the server did answer).
        """
        self.require_key()
        problem = await self._probe()
        if problem:
            raise PlayerSetupError(f"{self.spec}: {problem}")

    async def _probe(self) -> str:
        """What stops this player from playing, found by ``GET /v1/models?limit=1`` (``""``: nothing)."""
        client = self.client()
        base = str(client.base_url).rstrip("/")
        try:
            await client.with_options(timeout=KEY_PROBE_TIMEOUT).models.list(limit=1)
        except (anthropic.AuthenticationError, anthropic.PermissionDeniedError) as exc:
            env = self.settings.key_env or "the configured key"
            return f"the provider rejected the key in {env} (HTTP {exc.status_code})"
        except anthropic.APITimeoutError:
            return f"server down: no answer within {KEY_PROBE_TIMEOUT:g}s at {base}"
        except anthropic.APIConnectionError as exc:
            return f"server down: {connection_problem(exc)} at {base}"
        except anthropic.NotFoundError:
            return f"no models endpoint at {base}/v1/models (HTTP 404); check the base URL"
        except anthropic.AnthropicError:
            return ""
        return ""

    async def _complete(
        self, system: str, messages: list[ChatMessage], request: DecisionRequest, schema: dict[str, object]
    ) -> Completion:
        name = schema_name(request.action_model)
        # Everything that carries the schema goes through extra_body: the SDK would otherwise
        # walk it through its typed-params transform on every call; the wire body is the same.
        body = self.sampling(request)
        max_tokens = body.pop("max_tokens")
        mode = self.structured_mode
        if mode == "tool":
            body["tools"] = [{"name": name, "description": TOOL_DESCRIPTION, "input_schema": schema}]
            body["tool_choice"] = {"type": "tool", "name": name}
        else:
            body["output_config"] = {"format": {"type": "json_schema", "schema": closed_schema(schema)}}
        kwargs: dict[str, Any] = {"extra_body": body}
        conversation: list[Any] = [{"role": m.role, "content": _content(m)} for m in messages]
        blocks: list[Any] = [{"type": "text", "text": system, "cache_control": EPHEMERAL}]
        message = await self.client().messages.create(
            model=self.settings.model,
            max_tokens=max_tokens,
            system=blocks,
            messages=conversation,
            **kwargs,
        )
        texts: list[str] = []
        tool_inputs: list[str] = []
        thoughts: list[str] = []
        hidden = False
        for block in message.content:
            if block.type == "thinking":
                thoughts.append(block.thinking)
            elif block.type == "redacted_thinking":
                hidden = True
            elif block.type == "text":
                texts.append(block.text)
            elif block.type == "tool_use":
                tool_inputs.append(json.dumps(dict(block.input), ensure_ascii=False))
        # Every tool call, one per line: the parser plays the last and marks a reply that changed its mind.
        raw = "\n".join(tool_inputs) if tool_inputs else "".join(texts)
        completion = Completion(raw, _usage(message.usage), served=served_by(model=message.model))
        completion.thinking, completion.thinking_hidden = "\n\n".join(thoughts), hidden and not thoughts
        if message.stop_reason == "refusal":
            details = message.stop_details
            explanation = (details.explanation if details is not None else None) or "".join(texts)
            completion.finish, completion.refusal = "refusal", explanation or "the model refused to answer"
        elif message.stop_reason in ("max_tokens", "model_context_window_exceeded"):
            completion.finish = "truncated"
        return completion

    @property
    def structured_mode(self) -> str:
        """``tool`` unless set otherwise; ``output_config`` with thinking (a forced tool call and
        thinking together are refused with HTTP 400)."""
        if self.settings.thinks:
            return "output_config"
        return self.settings.anthropic_mode or "tool"

    def sampling(self, request: DecisionRequest) -> dict[str, Any]:
        """The base settings plus ``thinking`` (a budget, or adaptive) when the models file asks for it."""
        sent = super().sampling(request)
        budget = self.settings.thinking_budget_tokens
        if budget is not None:
            sent["thinking"] = {"type": "enabled", "budget_tokens": budget}
        elif self.settings.thinking == "adaptive":
            sent["thinking"] = {"type": "adaptive"}
        return sent

    @property
    def prompt_cache(self) -> str | None:
        """Cache breakpoints on the stable prefix."""
        return "cache_control: tools+system, rules, remembered turns"

    def configuration(self) -> dict[str, Any]:
        """The base configuration plus the structured-output mode."""
        return {
            **super().configuration(),
            "anthropic_mode": self.structured_mode,
            "price_cache_write_per_mtok": self.settings.cache_write_price,
        }


def _content(message: ChatMessage) -> str | list[dict[str, Any]]:
    """A message's content, split into text blocks where a cache breakpoint goes.

    The rules head ends with a breakpoint, and so does the last remembered turn, so every
    turn after the first reads the prefix (tool schema, system, rules, history) from cache.
    """
    text = message.content
    if message.cache_mark:
        return [{"type": "text", "text": text, "cache_control": EPHEMERAL}]
    if 0 < message.head < len(text) and text[message.head :].strip():
        return [
            {"type": "text", "text": text[: message.head], "cache_control": EPHEMERAL},
            {"type": "text", "text": text[message.head :]},
        ]
    if message.head:
        return [{"type": "text", "text": text, "cache_control": EPHEMERAL}]
    return text


def _usage(raw: Any) -> Usage:
    """The tokens a message reports; Anthropic counts cache reads and writes apart from ``input_tokens``."""
    if raw is None:
        return NO_USAGE
    cached = raw.cache_read_input_tokens or 0
    created = raw.cache_creation_input_tokens or 0
    details = raw.output_tokens_details
    return Usage(
        input_tokens=(raw.input_tokens or 0) + cached + created,
        output_tokens=raw.output_tokens or 0,
        cached_tokens=cached,
        cache_write_tokens=created,
        reasoning_tokens=(details.thinking_tokens or 0) if details is not None else 0,
    )
