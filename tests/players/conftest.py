"""Fixtures for model-player tests: the wire server, a canary key, configs."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from players.models import ModelsConfig
from tests.support.modelkit import CANARY_KEY, KEY_ENV, settings_for
from tests.support.wire_server import WireServer


@pytest.fixture
def wire() -> Iterator[WireServer]:
    """A fresh wire-level server for one test."""
    with WireServer() as server:
        yield server


@pytest.fixture
def canary_key(monkeypatch: pytest.MonkeyPatch) -> str:
    """Put the canary key in the environment variable the test configs name."""
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    return CANARY_KEY


@pytest.fixture
def config_for(wire: WireServer, canary_key: str) -> Callable[..., ModelsConfig]:
    """Build a one-model config named 'm' for a provider, with setting overrides."""

    def build(provider: str, **overrides: Any) -> ModelsConfig:
        return ModelsConfig(models={"m": settings_for(provider, wire, **overrides)})

    return build
