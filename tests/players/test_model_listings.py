"""Real servers as their users start them: which model ids each one's ``GET /v1/models`` lets play.

llama-server answers to any name and lists its one model by the GGUF's path (or file name,
or ``--alias``); vLLM, Ollama and LiteLLM answer only to what they list, so they keep the
strict check. The replies are shaped as each server sends them (:mod:`tests.support.model_listings`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from arena.contract.player import PlayerSetupError
from arena.plugins.players import parse_player_spec
from players.models import ModelPlayer, ModelsConfig, build_model_player, describe_available
from players.models.listing import ListedModel, served_model
from tests.support import model_listings as shapes
from tests.support.modelkit import GOOD, make_request
from tests.support.wire_server import WireServer, reply

ConfigFor = Callable[..., ModelsConfig]
WINDOWS_PATH = "C:\\models\\gemma-3-270m-it-Q8_0.gguf"


def player(config: ModelsConfig) -> ModelPlayer:
    built = build_model_player(parse_player_spec("m"), seed=1, config=config)
    assert isinstance(built, ModelPlayer)
    return built


async def availability(config: ModelsConfig) -> tuple[bool, str]:
    item = next(i for i in await describe_available(config) if i.spec == "m")
    return item.available, item.reason


@pytest.mark.parametrize(
    ("listing", "asked", "listed_as", "why"),
    [
        # llama-server -m FILE: listed by the path, asked by any name.
        (shapes.llama_server(), "gemma", shapes.GGUF_PATH, "serves its one model"),
        (shapes.llama_server(), "gemma-3-270m-it-Q8_0", shapes.GGUF_PATH, "lists it by its file"),
        (shapes.llama_server(), "gemma-3-270m-it-Q8_0.gguf", shapes.GGUF_PATH, "lists it by its file"),
        (shapes.llama_server(WINDOWS_PATH), "gemma-3-270m-it-Q8_0", WINDOWS_PATH, "its file"),
        # A newer build lists the file name and an Ollama-style list beside "data".
        (shapes.llama_server_newer(), "gemma", "gemma-3-270m-it-Q8_0.gguf", "serves its one model"),
        (shapes.llama_server_newer(), "gemma-3-270m-it-Q8_0", "gemma-3-270m-it-Q8_0.gguf", "its file"),
    ],
)
async def test_a_llama_server_plays_whatever_name_it_is_asked_by_with_a_note_of_the_id_it_serves(
    listing: dict[str, Any], asked: str, listed_as: str, why: str, wire: WireServer, config_for: ConfigFor
) -> None:
    wire.models_reply = listing
    config = config_for("openai-compat", model=asked)
    available, reason = await availability(config)
    assert available and reason.startswith(f"server up at {wire.openai_url}; {asked!r} plays: llama-server")
    assert why in reason and repr(listed_as) in reason
    seat = player(config)
    await seat.prepare()  # refused before: "does not list model 'gemma'; it lists '<the path>'"
    wire.script(reply(GOOD, served_model=asked))  # llama-server names the model it was asked for
    decision = await seat.decide(make_request())
    assert decision.action is not None
    assert wire.posts()[0].body["model"] == asked
    assert decision.served == {"model": asked, "listed_as": listed_as}
    await seat.close()


async def test_a_llama_server_started_with_an_alias_plays_under_it_with_no_note(
    wire: WireServer, config_for: ConfigFor
) -> None:
    for listing in (shapes.llama_server("gemma"), shapes.llama_server_newer(aliases=("gemma", "g3"))):
        wire.models_reply = listing
        assert await availability(config_for("openai-compat", model="gemma")) == (
            True,
            f"server up at {wire.openai_url}",
        )
    seat = player(config_for("openai-compat", model="g3"))  # the second alias of a newer build
    await seat.prepare()
    wire.script(reply(GOOD, served_model="g3"))
    decision = await seat.decide(make_request())
    assert decision.served == {"model": "g3", "listed_as": "gemma"}
    await seat.close()


@pytest.mark.parametrize(
    ("listing", "asked"),
    [
        (shapes.vllm("Qwen/Qwen2.5-0.5B-Instruct"), "qwen"),
        (shapes.vllm("/models/gemma-3-270m-it-Q8_0.gguf"), "gemma-3-270m-it-Q8_0"),  # vLLM 404s the stem
        (shapes.ollama("llama3.2:latest"), "gemma"),
        (shapes.litellm("gpt-4o-mini"), "gemma"),
        (shapes.llama_server_router("gemma-3-270m-it-Q8_0", "qwen2.5-0.5b"), "gemma"),
        (shapes.llama_server_router("gemma-3-270m-it-Q8_0"), "gemma"),  # a router routes by name
    ],
)
async def test_servers_that_answer_only_to_what_they_list_keep_the_strict_check(
    listing: dict[str, Any], asked: str, wire: WireServer, config_for: ConfigFor
) -> None:
    wire.models_reply = listing
    ids = ", ".join(repr(entry["id"]) for entry in listing["data"])
    with pytest.raises(PlayerSetupError) as caught:
        await player(config_for("openai-compat", model=asked)).prepare()
    base = wire.openai_url
    assert str(caught.value) == f"m: the server at {base} does not list model {asked!r}; it lists {ids}"
    listed = listing["data"][0]["id"]
    exact = listed.removesuffix(":latest")  # Ollama answers to "llama3.2" for "llama3.2:latest"
    await player(config_for("openai-compat", model=exact)).prepare()
    assert wire.posts() == []


def test_the_rule_reads_each_servers_entries() -> None:
    class Entry:
        def __init__(self, data: dict[str, Any]) -> None:
            self.id, self.owned_by = data["id"], data.get("owned_by")
            self.model_extra = {k: v for k, v in data.items() if k not in ("id", "owned_by")}

    def rule(listing: dict[str, Any], asked: str) -> str | None:
        found = served_model(asked, [ListedModel.from_entry(Entry(d)) for d in listing["data"]])
        return None if found is None else found.id

    assert rule(shapes.llama_server(), "anything") == shapes.GGUF_PATH
    assert rule(shapes.llama_server_newer(aliases=("gemma", "g3")), "g3") == "gemma"
    assert rule(shapes.vllm("facebook/opt-125m"), "opt-125m") is None
    assert rule(shapes.ollama("llama3.2:latest", "gemma3:270m"), "gemma3:270m") == "gemma3:270m"
    assert rule(shapes.litellm("gpt-4o-mini", "claude"), "gpt-4o") is None
    assert rule(shapes.llama_server_router("a", "b"), "b") == "b"


async def test_with_openai_base_url_set_a_refusal_names_the_url_the_calls_go_to(
    wire: WireServer, canary_key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", wire.openai_url)
    monkeypatch.setenv("OPENAI_API_KEY", canary_key)
    wire.models_reply = shapes.litellm("gpt-4o-mini")
    config = ModelsConfig(models={})
    built = build_model_player(parse_player_spec("openai:gpt-5-mini"), seed=1, config=config)
    assert isinstance(built, ModelPlayer)
    with pytest.raises(PlayerSetupError) as caught:
        await built.prepare()
    assert str(caught.value) == (
        f"openai:gpt-5-mini: the server at {wire.openai_url} does not list model 'gpt-5-mini';"
        " it lists 'gpt-4o-mini'"
    )
    assert "api.openai.com" not in str(caught.value)
    await built.close()
