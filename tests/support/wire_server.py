"""A scriptable local HTTP server speaking the OpenAI and Anthropic wire formats.

Tests point the real SDKs at it (``base_url``) and queue behaviours: a good reply,
fenced JSON, prose, 429 with ``Retry-After``, a 500, a slow reply, a truncated or
refused reply, a 401, a 400 (an invalid model name, a prompt over the context size).
Every request is recorded (path, headers, JSON body).

A ``responder`` answers a request from its body once the queue is empty: a test can play a
whole game, reading each prompt (:func:`prompt_of`) and answering it.

With ``prompt_cache = True`` it reports cached input tokens the way each API does
(:class:`tests.support.wire_cache.PromptCache`).

Endpoints: ``POST /v1/chat/completions``, ``POST /v1/responses``, ``POST /v1/messages``
and ``GET /v1/models`` (listing ``models``). Anything outside ``/v1/`` is a 404, as on a
real server reached through a wrong base path. A key outside ``accepted_keys`` gets
``key_reject_status`` (401; LiteLLM without a database answers 400). It listens on
127.0.0.1 on a free port, in a daemon thread.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.support.wire_cache import PromptCache


@dataclass
class Behaviour:
    """What the server does for one request."""

    status: int = 200
    text: str | None = None
    finish: str = "stop"  # "stop" | "length" | "refusal"
    refusal: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    error_message: str = ""
    delay: float = 0.0
    input_tokens: int = 120
    output_tokens: int = 30
    cached_tokens: int = 0
    reasoning_tokens: int = 0
    cache_write_tokens: int = 0
    usage_extra: dict[str, Any] = field(default_factory=dict)
    """More keys for a Chat Completions ``usage`` (as gateways such as LiteLLM add them)."""
    served_model: str | None = None
    """The ``model`` the reply names (a dated snapshot, say); ``None``: the model asked for."""
    system_fingerprint: str | None = None
    """Chat Completions' ``system_fingerprint`` (sent as null when ``None``, as OpenAI does)."""
    tool_inputs: list[dict[str, Any]] | None = None
    """Messages API in tool mode: one ``tool_use`` block per input, in order (a model calling twice)."""
    thinking: str | None = None
    """The model's thinking: a Responses ``reasoning`` item's summary, a Messages ``thinking`` block,
    a Chat Completions message's ``reasoning_content``."""
    thinking_redacted: bool = False
    """Thinking the provider does not show: a reasoning item with only ``encrypted_content``, a
    ``redacted_thinking`` block (Chat Completions has no such thing: nothing is sent)."""


@dataclass
class RecordedRequest:
    """One request as the server saw it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


def reply(content: Any, **kwargs: Any) -> Behaviour:
    """A normal reply: a dict is sent as compact JSON, a string as is."""
    text = content if isinstance(content, str) else json.dumps(content)
    return Behaviour(text=text, **kwargs)


def revised(first: Any, last: Any) -> Behaviour:
    """A reply that states one answer, then changes its mind: the last object is the answer."""
    return reply(f"I considered {json.dumps(first)} at first.\nFinal answer: {json.dumps(last)}")


def fenced(content: Any) -> Behaviour:
    """JSON inside a markdown code fence with some words around it."""
    return reply(f"Here is my move:\n```json\n{json.dumps(content, indent=2)}\n```\nGood luck!")


def prose(content: Any) -> Behaviour:
    """JSON embedded in a paragraph of prose."""
    return reply(f"I thought about it carefully. My decision is {json.dumps(content)} and that is final.")


def rate_limited(retry_after: str | None = "1") -> Behaviour:
    """HTTP 429, optionally with a ``Retry-After`` header."""
    headers = {"retry-after": retry_after} if retry_after is not None else {}
    return Behaviour(status=429, headers=headers, error_message="Rate limit reached. Slow down.")


def server_error(status: int = 500) -> Behaviour:
    """An HTTP 5xx error."""
    return Behaviour(status=status, error_message="The server had an error while processing your request.")


def slow(seconds: float, then: Behaviour | None = None) -> Behaviour:
    """Wait ``seconds`` (interruptible at shutdown) before answering like ``then``."""
    behaviour = then or reply({"ok": True})
    behaviour.delay = seconds
    return behaviour


def thinking(content: Any, thought: str, *, reasoning_tokens: int = 40, **kwargs: Any) -> Behaviour:
    """A reply that thought first: ``thought`` comes back as the API carries thinking."""
    return reply(content, thinking=thought, reasoning_tokens=reasoning_tokens, **kwargs)


def truncated(text: str = '{"price": 1.5, "produce": 4') -> Behaviour:
    """A reply cut off by the output token limit."""
    return Behaviour(text=text, finish="length")


def refusal(message: str = "I can't help with that.") -> Behaviour:
    """A refusal (OpenAI refusal field / Anthropic stop_reason "refusal")."""
    return Behaviour(finish="refusal", refusal=message)


def unauthorized(message: str = "Incorrect API key provided.") -> Behaviour:
    """HTTP 401."""
    return Behaviour(status=401, error_message=message)


def bad_request(message: str) -> Behaviour:
    """HTTP 400 with ``message``."""
    return Behaviour(status=400, error_message=message)


def invalid_model(model: str = "m") -> Behaviour:
    """HTTP 400 as LiteLLM answers a model name it does not route."""
    return bad_request(
        f"Invalid model name passed in model={model}. Call `/v1/models` to view available models"
    )


def context_exceeded() -> Behaviour:
    """HTTP 400 as llama.cpp's server answers a prompt longer than its context window."""
    return bad_request(
        "the request exceeds the available context size, try increasing it (n_prompt_tokens=812, n_ctx=512)"
    )


LITELLM_BAD_KEY = "Authentication Error, Invalid proxy server token passed. Received API Key = sk-...7890"
DEFAULT_MODELS = ("test-model", "gpt-test", "qwen-test", "claude-test", "t")
"""Model ids ``GET /v1/models`` lists by default: every id the test configs use."""


class _Server(ThreadingHTTPServer):
    # socketserver's default backlog of 5 drops SYNs when many seats connect at once,
    # and the kernel retries them only after a second.
    request_queue_size = 256


class WireServer:
    """The server: ``script()`` behaviours, read ``requests``; use as a context manager."""

    def __init__(self) -> None:
        self.queue: deque[Behaviour] = deque()
        self.requests: list[RecordedRequest] = []
        self.stopping = threading.Event()
        self.in_flight = 0
        self.max_in_flight = 0
        self.accepted_keys: set[str] | None = None  # None: any key is fine
        self.key_reject_status = 401
        self.models: list[str] = list(DEFAULT_MODELS)
        self.models_reply: dict[str, Any] | None = None
        """The whole ``GET /v1/models`` body, shaped as a real server sends it
        (:mod:`tests.support.model_listings`); ``None``: ``models`` in OpenAI's shape."""
        self.prompt_cache = False
        self.cache = PromptCache()
        self.responder: Callable[[Any], Behaviour] | None = None
        """Answers a request's JSON body when nothing is queued (one call at a time)."""
        self._responding = threading.Lock()
        self._lock = threading.Lock()
        self._httpd = _Server(("127.0.0.1", 0), _make_handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, name="wire-server", daemon=True
        )

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT`` (Anthropic base URL)."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def openai_url(self) -> str:
        """``http://127.0.0.1:PORT/v1`` (OpenAI base URL)."""
        return self.url + "/v1"

    def script(self, *behaviours: Behaviour) -> None:
        """Queue behaviours, consumed one per request in order."""
        with self._lock:
            self.queue.extend(behaviours)

    def behaviour_for(self, body: Any) -> Behaviour:
        """What to answer a request with: the responder's answer to ``body`` when nothing is
        queued and there is a responder, else :meth:`next_behaviour`."""
        if self.responder is not None:
            with self._lock:
                queued = bool(self.queue)
            if not queued:
                with self._responding:
                    return self.responder(body)
        return self.next_behaviour()

    def next_behaviour(self) -> Behaviour:
        """The next queued behaviour, or a 500 saying nothing was scripted."""
        with self._lock:
            if self.queue:
                return self.queue.popleft()
        return Behaviour(status=500, error_message="wire server: no behaviour scripted for this request")

    def record(self, request: RecordedRequest) -> None:
        """Remember a request."""
        with self._lock:
            self.requests.append(request)

    def enter(self) -> None:
        """Count a POST in progress (for concurrency checks)."""
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def leave(self) -> None:
        """A POST finished."""
        with self._lock:
            self.in_flight -= 1

    def rejects(self, headers: dict[str, str]) -> bool:
        """True when ``accepted_keys`` is set and the request's key is not among them."""
        if self.accepted_keys is None:
            return False
        bearer = headers.get("authorization", "").removeprefix("Bearer ")
        return not ({bearer, headers.get("x-api-key", "")} & self.accepted_keys)

    def posts(self) -> list[RecordedRequest]:
        """Recorded POST requests."""
        with self._lock:
            return [r for r in self.requests if r.method == "POST"]

    def start(self) -> WireServer:
        """Start serving in a daemon thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; slow replies in progress are woken up."""
        self.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> WireServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _make_handler(server: WireServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out as separate writes

        def log_message(self, format: str, *args: Any) -> None:
            """Keep test output quiet."""

        def do_GET(self) -> None:
            if self._gone():
                return
            headers = _headers(self)
            server.record(RecordedRequest("GET", self.path, headers, None))
            path = self.path.split("?")[0].rstrip("/")
            if not path.startswith("/v1/"):
                self._not_found(path)
            elif server.rejects(headers):
                self._reject(headers)
            elif path == "/v1/models" and server.models_reply is not None:
                self._send(200, server.models_reply, {})
            elif path == "/v1/models":
                data = [{"id": m, "object": "model", "created": 0, "owned_by": "wire"} for m in server.models]
                self._send(200, {"object": "list", "data": data}, {})
            else:
                self._not_found(path)

        def _not_found(self, path: str) -> None:
            self._send(404, {"error": {"message": f"File Not Found: {path}", "type": "not_found_error"}}, {})

        def _reject(self, headers: dict[str, str]) -> None:
            status = server.key_reject_status
            message = LITELLM_BAD_KEY if status == 400 else "Incorrect API key provided."
            behaviour = Behaviour(status=status, error_message=message)
            self._send(status, _error_body(behaviour, "anthropic-version" in headers), {})

        def _gone(self) -> bool:
            """A stopped server drops the connections it still holds (kept alive) without a reply."""
            if server.stopping.is_set():
                self.close_connection = True
                return True
            return False

        def do_POST(self) -> None:
            if self._gone():
                return
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"null")
            except ValueError:
                body = raw.decode("utf-8", "replace")
            headers = _headers(self)
            server.record(RecordedRequest("POST", self.path, headers, body))
            if not self.path.startswith("/v1/"):
                self._not_found(self.path.split("?")[0])
                return
            if server.rejects(headers):
                self._reject(headers)
                return
            server.enter()
            try:
                behaviour = server.behaviour_for(body)
                if server.prompt_cache and behaviour.status == 200 and isinstance(body, dict):
                    behaviour = server.cache.account(behaviour, self.path, body)
                self._answer(behaviour, body)
            finally:
                server.leave()

        def _answer(self, behaviour: Behaviour, body: Any) -> None:
            if behaviour.delay and server.stopping.wait(behaviour.delay):
                return
            path = self.path.split("?")[0].rstrip("/")
            anthropic = path.endswith("/messages")
            if anthropic and _forced_tool_with_thinking(body):  # as Anthropic answers it
                behaviour = bad_request("Thinking may not be enabled when tool_choice forces tool use.")
            if behaviour.status != 200:
                self._send(behaviour.status, _error_body(behaviour, anthropic), behaviour.headers)
            elif path.endswith("/chat/completions"):
                self._send(200, _chat_body(behaviour, body), behaviour.headers)
            elif path.endswith("/responses"):
                self._send(200, _responses_body(behaviour, body), behaviour.headers)
            elif anthropic:
                self._send(200, _messages_body(behaviour, body), behaviour.headers)
            else:
                self._send(404, {"error": {"message": f"unknown path {path}", "type": "not_found"}}, {})

        def _send(self, status: int, payload: Any, headers: dict[str, str]) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

    return Handler


def prompt_of(body: Any) -> str:
    """The user text of a request body (Chat Completions, Responses or Messages), oldest first.

    A re-ask's user turns are the prompt and the feedback, joined by a blank line.
    """
    if not isinstance(body, dict):
        return ""
    turns = body.get("messages") or body.get("input") or []
    if isinstance(turns, str):
        return turns
    parts: list[str] = []
    for turn in turns:
        if not isinstance(turn, dict) or turn.get("role") != "user":
            continue
        content = turn.get("content")
        if isinstance(content, list):  # text blocks (a cached head, then the rest): one text
            content = "".join(c.get("text", "") for c in content if isinstance(c, dict))
        if isinstance(content, str):
            parts.append(content)
    return "\n\n".join(parts)


def _forced_tool_with_thinking(body: Any) -> bool:
    """A Messages request forcing a tool call with thinking on (Anthropic answers HTTP 400)."""
    if not isinstance(body, dict):
        return False
    forced = (body.get("tool_choice") or {}).get("type") in ("tool", "any")
    return forced and (body.get("thinking") or {}).get("type") in ("enabled", "adaptive")


def _headers(handler: BaseHTTPRequestHandler) -> dict[str, str]:
    return {k.lower(): v for k, v in handler.headers.items()}


def _error_body(behaviour: Behaviour, anthropic: bool) -> dict[str, Any]:
    kinds = {401: "authentication_error", 403: "permission_error", 429: "rate_limit_error"}
    kind = kinds.get(behaviour.status, "api_error" if behaviour.status >= 500 else "invalid_request_error")
    if anthropic:
        return {"type": "error", "error": {"type": kind, "message": behaviour.error_message}}
    return {"error": {"message": behaviour.error_message, "type": kind, "param": None, "code": None}}


def _served_model(behaviour: Behaviour, request: Any) -> str:
    """The model id a reply names: the scripted one, else the one asked for."""
    return behaviour.served_model or (request or {}).get("model", "test-model")


def _chat_body(behaviour: Behaviour, request: Any) -> dict[str, Any]:
    finish = {"stop": "stop", "length": "length", "refusal": "stop"}[behaviour.finish]
    message: dict[str, Any] = {"role": "assistant", "content": behaviour.text, "refusal": None}
    if behaviour.finish == "refusal":
        message = {"role": "assistant", "content": None, "refusal": behaviour.refusal}
    if behaviour.thinking is not None:
        message["reasoning_content"] = behaviour.thinking  # vLLM, SGLang, llama.cpp server, DeepSeek
    return {
        "id": "chatcmpl-wire",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": _served_model(behaviour, request),
        "system_fingerprint": behaviour.system_fingerprint,
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        "usage": {
            "prompt_tokens": behaviour.input_tokens,
            "completion_tokens": behaviour.output_tokens,
            "total_tokens": behaviour.input_tokens + behaviour.output_tokens,
            "prompt_tokens_details": {
                "cached_tokens": behaviour.cached_tokens,
                "cache_write_tokens": behaviour.cache_write_tokens,
            },
            "completion_tokens_details": {"reasoning_tokens": behaviour.reasoning_tokens},
            **behaviour.usage_extra,
        },
    }


def _responses_body(behaviour: Behaviour, request: Any) -> dict[str, Any]:
    if behaviour.finish == "refusal":
        content: list[dict[str, Any]] = [{"type": "refusal", "refusal": behaviour.refusal}]
    else:
        content = [{"type": "output_text", "text": behaviour.text or "", "annotations": []}]
    incomplete = behaviour.finish == "length"
    reasoning: list[dict[str, Any]] = []
    if behaviour.thinking_redacted:
        reasoning = [{"type": "reasoning", "id": "rs-wire", "summary": [], "encrypted_content": "gAAAAwire"}]
    elif behaviour.thinking is not None:
        summary = [{"type": "summary_text", "text": behaviour.thinking}]
        reasoning = [{"type": "reasoning", "id": "rs-wire", "summary": summary}]
    return {
        "id": "resp-wire",
        "object": "response",
        "created_at": time.time(),
        "model": _served_model(behaviour, request),
        "status": "incomplete" if incomplete else "completed",
        "incomplete_details": {"reason": "max_output_tokens"} if incomplete else None,
        "error": None,
        "output": [
            *reasoning,
            {
                "type": "message",
                "id": "msg-wire",
                "role": "assistant",
                "status": "incomplete" if incomplete else "completed",
                "content": content,
            },
        ],
        "parallel_tool_calls": False,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": behaviour.input_tokens,
            "input_tokens_details": {
                "cached_tokens": behaviour.cached_tokens,
                "cache_write_tokens": behaviour.cache_write_tokens,
            },
            "output_tokens": behaviour.output_tokens,
            "output_tokens_details": {"reasoning_tokens": behaviour.reasoning_tokens},
            "total_tokens": behaviour.input_tokens + behaviour.output_tokens,
        },
    }


def _messages_body(behaviour: Behaviour, request: Any) -> dict[str, Any]:
    request = request or {}
    tool_choice = request.get("tool_choice") or {}
    content: list[dict[str, Any]] = []
    stop_reason = {"stop": "end_turn", "length": "max_tokens", "refusal": "refusal"}[behaviour.finish]
    if behaviour.finish == "refusal":
        content = [{"type": "text", "text": behaviour.refusal}]
    else:
        parsed: Any = None
        if tool_choice.get("type") == "tool" and behaviour.finish == "stop":
            try:
                parsed = json.loads(behaviour.text or "")
            except ValueError:
                parsed = None
        inputs = behaviour.tool_inputs or ([parsed] if isinstance(parsed, dict) else [])
        if inputs and tool_choice.get("type") == "tool":
            content = [
                {"type": "tool_use", "id": f"toolu_wire{n}", "name": tool_choice["name"], "input": given}
                for n, given in enumerate(inputs)
            ]
            stop_reason = "tool_use"
        else:
            content = [{"type": "text", "text": behaviour.text or ""}]
    if behaviour.thinking_redacted:
        content.insert(0, {"type": "redacted_thinking", "data": "EmwKAhgBwire"})
    elif behaviour.thinking is not None:
        content.insert(0, {"type": "thinking", "thinking": behaviour.thinking, "signature": "sig-wire"})
    return {
        "id": "msg_wire",
        "type": "message",
        "role": "assistant",
        "model": _served_model(behaviour, request),
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {
            "input_tokens": behaviour.input_tokens,
            "output_tokens": behaviour.output_tokens,
            "cache_read_input_tokens": behaviour.cached_tokens,
            "cache_creation_input_tokens": behaviour.cache_write_tokens,
        },
    }
