"""Provider failures, their classes, and the one retry loop every provider uses.

Each provider turns its SDK's exceptions into :class:`ProviderFailure` (via
:func:`failure_from_status` for HTTP errors); :func:`call_with_retries` retries the
retryable ones with exponential backoff and jitter, honours ``Retry-After``, and gives
up early when the wait would overrun the turn's deadline.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from arena.contract.player import ErrorClass

T = TypeVar("T")

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})


class ProviderFailure(Exception):
    """A call that produced no usable reply, with its :class:`ErrorClass`."""

    def __init__(
        self,
        error_class: ErrorClass,
        detail: str,
        *,
        retryable: bool = False,
        retry_after: float | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(detail)
        self.error_class = error_class
        self.detail = detail
        self.retryable = retryable
        self.retry_after = retry_after
        self.status = status


def parse_retry_after(headers: Mapping[str, str] | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` / ``Retry-After`` (seconds or HTTP date)."""
    if not headers:
        return None
    lowered = {k.lower(): v for k, v in headers.items()}
    millis = lowered.get("retry-after-ms")
    if millis:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


def failure_from_status(status: int, headers: Mapping[str, str] | None, message: str) -> ProviderFailure:
    """Classify an HTTP error status into a :class:`ProviderFailure`."""
    detail = f"HTTP {status}: {message}".strip()
    if status in (401, 403):
        return ProviderFailure(ErrorClass.AUTH_ERROR, detail, status=status)
    retry_after = parse_retry_after(headers)
    if status in (408, 429):
        kind = ErrorClass.RATE_LIMITED if status == 429 else ErrorClass.TIMEOUT
        return ProviderFailure(kind, detail, retryable=True, retry_after=retry_after, status=status)
    retryable = status in RETRYABLE_STATUS or status >= 500
    return ProviderFailure(
        ErrorClass.PROVIDER_ERROR, detail, retryable=retryable, retry_after=retry_after, status=status
    )


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how patiently to retry."""

    max_retries: int = 4
    base_delay: float = 0.5
    max_delay: float = 30.0

    def backoff(self, retry: int, rng: random.Random) -> float:
        """Exponential backoff with jitter for the ``retry``-th retry (1-based)."""
        ceiling = min(self.max_delay, self.base_delay * (2.0 ** (retry - 1)))
        return ceiling / 2 + rng.uniform(0.0, ceiling / 2)


@dataclass(slots=True)
class RetryRecord:
    """One failed attempt that was retried: its class, status and the chosen wait."""

    error_class: ErrorClass
    status: int | None
    delay: float


@dataclass(slots=True)
class RetryLog:
    """What the retry loop did during one decision (for tests and diagnostics)."""

    attempts: int = 0
    retries: list[RetryRecord] = field(default_factory=list)


async def call_with_retries(
    call: Callable[[], Awaitable[T]],
    *,
    policy: RetryPolicy,
    rng: random.Random,
    deadline: float,
    log: RetryLog | None = None,
) -> T:
    """Run ``call`` until it succeeds, fails for good, or retrying would pass ``deadline``.

    ``deadline`` is on the event loop's clock. A retryable :class:`ProviderFailure` is
    retried after ``Retry-After`` (plus a little jitter) or an exponential backoff; when
    that wait would end past the deadline the failure is raised at once instead.
    """
    loop = asyncio.get_running_loop()
    log = log if log is not None else RetryLog()
    retry = 0
    while True:
        log.attempts += 1
        try:
            return await call()
        except ProviderFailure as failure:
            if not failure.retryable or retry >= policy.max_retries:
                raise
            retry += 1
            if failure.retry_after is not None:
                delay = failure.retry_after + rng.uniform(0.0, policy.base_delay / 4)
            else:
                delay = policy.backoff(retry, rng)
            if loop.time() + delay >= deadline:
                failure.detail += f" (gave up: a {delay:.1f}s wait would pass the turn deadline)"
                raise
            log.retries.append(RetryRecord(failure.error_class, failure.status, delay))
            await asyncio.sleep(delay)
