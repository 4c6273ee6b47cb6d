"""Real servers as their users start them: which model ids each one's ``GET /v1/models`` lets play.

llama-server answers to any name and lists its one model by the GGUF's path (or file name,
or ``--alias``); vLLM, Ollama and LiteLLM answer only to what they list, so they keep the
strict check. The replies are shaped as each server sends them (:mod:`tests.support.model_listings`).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from rich.console import Console

from arena.cli.main import main
from arena.contract.player import PlayerSetupError
from arena.display.tables import render_table
from arena.plugins.players import parse_player_spec, short_name, short_names
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import run_tournament
from arena.tournament.standings import tournament_table
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


LEMONADE = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady at the base price"}


@pytest.mark.parametrize(
    ("model", "shown"), [("gemma", "gemma"), (shapes.GGUF_PATH, "gemma-3-270m-it-Q8_0.gguf")]
)
def test_arena_play_against_llama_server_shows_a_short_name_in_the_results_and_the_full_spec_above(
    model: str, shown: str, wire: WireServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wire.models_reply = shapes.llama_server()
    wire.script(*[reply(LEMONADE, served_model=model) for _ in range(3)])
    spec = f"openai-compat:{model}@{wire.openai_url}"
    db = tmp_path / "arena.db"
    argv = ["--db", str(db), "play", "lemonade", "--seat", f"a={spec}", "--seat", "b=baseline:weather"]
    assert main([*argv, "--option", "days=3", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert f"a={spec}" in out  # the episode's first line: the full spec
    (header,) = [line for line in out.splitlines() if "a (" in line and "b (" in line]
    assert f"a ({shown})" in header and "b (baseline:weather)" in header
    store = Store(db)
    try:
        (episode,) = store.list_episodes()
        (seat,) = [s for s in store.seats(episode["id"]) if s["seat"] == "a"]
        served = [t["served"] for t in store.raw_turns(episode["id"]) if t["seat"] == "a" and t["served"]]
    finally:
        store.close()
    assert seat["player"] == spec  # the stored name is the spec, as before
    listed = {} if model == shapes.GGUF_PATH else {"listed_as": shapes.GGUF_PATH}
    assert served == [{"model": model, **listed}]


def test_short_names_keep_apart_what_would_look_alike() -> None:
    url = "http://127.0.0.1:8093/v1"
    assert short_name(f"openai-compat:gemma@{url}") == "gemma"
    assert short_name(f"openai-compat:{shapes.GGUF_PATH}@{url}") == "gemma-3-270m-it-Q8_0.gguf"
    assert short_name(f"openai-compat:{WINDOWS_PATH}@{url}") == "gemma-3-270m-it-Q8_0.gguf"
    for same in ("openai:gpt-5-mini", "baseline:honest", "gemma", f"openai-compat:g@{url} [cfg 1a2b]"):
        assert short_name(same) == same
    names = [
        f"openai-compat:gemma@{url}",
        "openai-compat:gemma@http://10.0.0.2:8080/v1",
        "openai-compat:q@" + url,
    ]
    assert short_names(names) == {names[0]: names[0], names[1]: names[1], names[2]: "q"}


async def test_a_tournament_against_llama_server_notes_its_id_every_episode_and_shows_short_names(
    wire: WireServer, store: Store
) -> None:
    wire.models_reply = shapes.llama_server()
    wire.script(*(reply(LEMONADE, served_model="gemma") for _ in range(6)))
    spec = f"openai-compat:gemma@{wire.openai_url}"
    lineup = {"players": (spec, "baseline:weather"), "seeds": 1, "seed": 4, "options": {"days": 3}}
    done = await run_tournament(store, build_config(game="lemonade", concurrency=1, retries=0, **lineup))
    assert done.status == "finished" and done.done == 2
    rows = store.conn.execute(
        "SELECT t.episode_id, t.served FROM turns t JOIN episodes e ON e.id = t.episode_id"
        " WHERE e.tournament_id = ? AND t.served IS NOT NULL ORDER BY t.episode_id",
        (done.tournament_id,),
    ).fetchall()
    # Each episode's fresh player shares the prepared one's client and what its probe found.
    assert [(orjson.loads(served)) for _, served in rows] == [
        {"model": "gemma", "listed_as": shapes.GGUF_PATH}
    ] * 2
    buffer = io.StringIO()
    Console(file=buffer, width=200, color_system=None).print(
        render_table(tournament_table(store, done.tournament_id))
    )
    text = buffer.getvalue()
    assert wire.openai_url not in text
    ratings = text[text.index("ratings") : text.index("each player's own metrics")]
    assert any(line.split("│")[2].strip() == "gemma" for line in ratings.splitlines() if line.count("│") > 3)
