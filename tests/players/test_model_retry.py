"""The shared retry loop, Retry-After parsing and HTTP status classification."""

from __future__ import annotations

import asyncio
import email.utils
import random

import pytest

from arena.contract.player import ErrorClass
from players.models.retry import (
    ProviderFailure,
    RetryLog,
    RetryPolicy,
    call_with_retries,
    failure_from_status,
    parse_retry_after,
)

NOW = 1_800_000_000.0


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "7"}, 7.0),
        ({"retry-after": "0.5"}, 0.5),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
        ({"Retry-After": email.utils.formatdate(NOW + 30, usegmt=True)}, 30.0),
        ({"Retry-After": email.utils.formatdate(NOW - 30, usegmt=True)}, 0.0),
        ({"Retry-After": "soon"}, None),
        ({}, None),
        (None, None),
    ],
)
def test_parse_retry_after(headers: dict[str, str] | None, expected: float | None) -> None:
    assert parse_retry_after(headers, now=NOW) == expected


@pytest.mark.parametrize(
    ("status", "error_class", "retryable"),
    [
        (401, ErrorClass.AUTH_ERROR, False),
        (403, ErrorClass.AUTH_ERROR, False),
        (429, ErrorClass.RATE_LIMITED, True),
        (408, ErrorClass.TIMEOUT, True),
        (500, ErrorClass.PROVIDER_ERROR, True),
        (503, ErrorClass.PROVIDER_ERROR, True),
        (529, ErrorClass.PROVIDER_ERROR, True),
        (400, ErrorClass.PROVIDER_ERROR, False),
        (404, ErrorClass.PROVIDER_ERROR, False),
    ],
)
def test_status_classification(status: int, error_class: ErrorClass, retryable: bool) -> None:
    failure = failure_from_status(status, {"retry-after": "2"}, "boom")
    assert failure.error_class is error_class
    assert failure.retryable is retryable
    assert str(status) in failure.detail


def test_backoff_is_exponential_with_seeded_jitter() -> None:
    policy = RetryPolicy(max_retries=5, base_delay=1.0, max_delay=8.0)
    first = [policy.backoff(n, random.Random(3)) for n in range(1, 6)]
    again = [policy.backoff(n, random.Random(3)) for n in range(1, 6)]
    assert first == again
    for n, delay in enumerate(first, start=1):
        ceiling = min(8.0, 2.0 ** (n - 1))
        assert ceiling / 2 <= delay <= ceiling


async def test_retries_until_success_and_logs_waits() -> None:
    outcomes: list[object] = [
        ProviderFailure(ErrorClass.PROVIDER_ERROR, "500", retryable=True, status=500),
        ProviderFailure(ErrorClass.RATE_LIMITED, "429", retryable=True, retry_after=0.0, status=429),
        "ok",
    ]

    async def call() -> str:
        outcome = outcomes.pop(0)
        if isinstance(outcome, ProviderFailure):
            raise outcome
        assert isinstance(outcome, str)
        return outcome

    log = RetryLog()
    deadline = asyncio.get_running_loop().time() + 10
    policy = RetryPolicy(max_retries=3, base_delay=0.01)
    result = await call_with_retries(call, policy=policy, rng=random.Random(1), deadline=deadline, log=log)
    assert result == "ok"
    assert log.attempts == 3
    assert [r.status for r in log.retries] == [500, 429]
    assert log.retries[1].delay <= 0.01 / 4


async def test_non_retryable_and_exhausted_failures_propagate() -> None:
    attempts = 0

    async def always(failure: ProviderFailure) -> None:
        nonlocal attempts
        attempts += 1
        raise failure

    deadline = asyncio.get_running_loop().time() + 10
    policy = RetryPolicy(max_retries=2, base_delay=0.001)
    with pytest.raises(ProviderFailure) as caught:
        await call_with_retries(
            lambda: always(ProviderFailure(ErrorClass.AUTH_ERROR, "401")),
            policy=policy,
            rng=random.Random(0),
            deadline=deadline,
        )
    assert caught.value.error_class is ErrorClass.AUTH_ERROR and attempts == 1
    attempts = 0
    with pytest.raises(ProviderFailure):
        await call_with_retries(
            lambda: always(ProviderFailure(ErrorClass.PROVIDER_ERROR, "502", retryable=True)),
            policy=policy,
            rng=random.Random(0),
            deadline=deadline,
        )
    assert attempts == 3


async def test_gives_up_when_the_wait_would_pass_the_deadline() -> None:
    async def limited() -> None:
        raise ProviderFailure(ErrorClass.RATE_LIMITED, "429", retryable=True, retry_after=60.0)

    deadline = asyncio.get_running_loop().time() + 5
    log = RetryLog()
    with pytest.raises(ProviderFailure, match="429") as caught:
        await call_with_retries(
            limited, policy=RetryPolicy(), rng=random.Random(0), deadline=deadline, log=log
        )
    assert "deadline" in caught.value.detail
    assert log.attempts == 1 and log.retries == []
