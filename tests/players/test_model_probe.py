"""The pre-match probe: a wrong base path, an unlisted model id or a refused key stop the match early."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from arena.contract.player import PlayerSetupError
from arena.plugins.players import parse_player_spec
from players.models import ModelPlayer, ModelsConfig, build_model_player, describe_available
from tests.support.wire_server import WireServer

ConfigFor = Callable[..., ModelsConfig]


def player(config: ModelsConfig) -> ModelPlayer:
    built = build_model_player(parse_player_spec("m"), seed=1, config=config)
    assert isinstance(built, ModelPlayer)
    return built


async def availability(config: ModelsConfig) -> tuple[bool, str]:
    item = next(i for i in await describe_available(config) if i.spec == "m")
    return item.available, item.reason


@pytest.mark.parametrize(
    ("path", "hint"),
    [
        ("/v2", "check the base URL (a missing or extra /v1?)"),
        ("", "a missing or extra /v1"),
        ("/v1/v1", "remove the extra /v1"),
    ],
)
async def test_a_wrong_base_path_is_not_available(
    path: str, hint: str, wire: WireServer, config_for: ConfigFor
) -> None:
    config = config_for("openai-compat", base_url=wire.url + path)
    available, reason = await availability(config)
    assert not available
    assert reason.startswith(f"no models endpoint at {wire.url}{path}/models (HTTP 404)")
    assert hint in reason
    with pytest.raises(PlayerSetupError, match="no models endpoint"):
        await player(config).prepare()
    assert wire.posts() == []


@pytest.mark.parametrize("provider", ["openai-compat", "openai-chat", "openai-responses"])
async def test_a_model_id_the_server_does_not_list_is_refused_naming_the_ones_it_does(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    wire.models = ["llama-3.1-8b", "gemma-3-270m"]
    with pytest.raises(PlayerSetupError) as caught:
        await player(config_for(provider, model="gemma3")).prepare()
    assert str(caught.value) == (
        f"m: the server at {wire.openai_url} does not list model 'gemma3';"
        " it lists 'llama-3.1-8b', 'gemma-3-270m'"
    )
    await player(config_for(provider, model="gemma-3-270m")).prepare()
    wire.models = ["llama3.2:latest"]  # Ollama's listing of a model it answers to as "llama3.2"
    await player(config_for(provider, model="llama3.2")).prepare()


async def test_the_listing_check_can_be_skipped_for_servers_that_list_nothing(
    wire: WireServer, config_for: ConfigFor
) -> None:
    wire.models = []
    with pytest.raises(PlayerSetupError, match=r"lists none \(set check_model_listed = false"):
        await player(config_for("openai-compat")).prepare()
    config = config_for("openai-compat", check_model_listed=False)
    await player(config).prepare()
    assert await availability(config) == (True, f"server up at {wire.openai_url}")


async def test_a_gateway_answering_a_bad_key_with_400_is_not_available(
    wire: WireServer, config_for: ConfigFor, canary_key: str
) -> None:
    wire.accepted_keys, wire.key_reject_status = {"sk-the-real-one"}, 400
    config = config_for("openai-compat", api_key_env="ARENA_TEST_CANARY_KEY")
    available, reason = await availability(config)
    assert not available and reason.startswith(f"GET {wire.openai_url}/models answered HTTP 400")
    assert "Invalid proxy server token" in reason and canary_key not in reason
    with pytest.raises(PlayerSetupError, match="HTTP 400"):
        await player(config).prepare()
