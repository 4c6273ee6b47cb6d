"""Helpers shared by the SDK-backed players: one TLS context, key scrubbing, SDK error text."""

from __future__ import annotations

import functools
import re
import socket
import ssl
from typing import Any

_KEY_PATTERN = re.compile(r"\b(sk-[A-Za-z0-9_\-]{6,}|sk-ant-[A-Za-z0-9_\-]{6,})")


@functools.cache
def shared_ssl_context() -> ssl.SSLContext:
    """One TLS context for every SDK client in the process.

    Each client otherwise loads the CA bundle itself (about 20 ms of CPU), which
    stalls the event loop when many seats start at once.
    """
    import httpx2  # only a client needs it; listing which models can play does not

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


def connection_problem(exc: BaseException) -> str:
    """What an SDK's connection error was, from the errors it wraps: a host name DNS cannot resolve,
    a refused connection, or the innermost error's own words (the SDK's own says only "Connection error.")."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen and len(seen) < 16:
        seen.append(current)
        current = current.__cause__ or current.__context__
    for error in seen:
        if isinstance(error, socket.gaierror):
            return f"DNS lookup failed: the host name does not resolve ({error.strerror or error})"
    for error in seen:
        if isinstance(error, ConnectionRefusedError):
            return "connection refused"
    innermost = str(seen[-1]).strip()
    return f"cannot connect: {innermost}" if innermost else "cannot connect"


def sdk_message(exc: Exception) -> str:
    """A short message for an SDK error: the provider's error message when present."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return str(error["message"])
    message = getattr(exc, "message", None)
    return str(message) if message else str(exc)
