"""Whole matches with model seats: the real SDKs against the wire server, and the offline model."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from rich.console import Console

from arena.cli.main import main
from arena.contract.player import PlayerSetupError
from arena.display.tables import render_table
from arena.engine.export import export_episode
from arena.engine.match import MatchConfig, play_match
from arena.engine.run_control import Budget
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.report import build_report
from arena.tournament.run import run_tournament
from arena.tournament.standings import tournament_table
from players.models import ModelsConfig
from players.models.local_runtime import missing_requirement
from players.models.prompting import SYSTEM_PROMPT_VERSION
from tests.support.episodes import stored_turns
from tests.support.modelkit import CANARY_KEY, KEY_ENV, settings_for
from tests.support.wire_server import (
    WireServer,
    bad_request,
    context_exceeded,
    fenced,
    invalid_model,
    prose,
    rate_limited,
    reply,
    unauthorized,
)

GOOD = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady at the base price"}


def config(wire: WireServer, provider: str = "openai-chat", **overrides: object) -> ModelsConfig:
    return ModelsConfig(models={"m": settings_for(provider, wire, **overrides)})


@pytest.fixture
def wire() -> object:
    with WireServer() as server:
        yield server


@pytest.mark.parametrize("provider", ["openai-responses", "openai-chat", "anthropic", "openai-compat"])
async def test_a_model_seat_plays_and_everything_is_recorded(
    provider: str, wire: WireServer, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    # Day 1 fenced, day 2 prose, day 3 out of range then fixed on the re-ask.
    wire.script(fenced(GOOD), prose(GOOD), reply({**GOOD, "price": 30}), reply(GOOD))
    models = config(wire, provider, price_input_per_mtok=2.0, price_output_per_mtok=8.0)
    outcome = await play_match(
        MatchConfig("lemonade", {"a": "m", "b": "baseline:weather"}, seed=3, options={"days": 3}),
        store,
        models_config=models,
    )
    assert outcome.status == "finished"
    turns = [t for t in stored_turns(store, outcome.episode_id or 0) if t["seat"] == "a"]
    assert [t["valid"] for t in turns] == [1, 1, 0]
    assert turns[2]["error"] == "schema" and turns[2]["fallback"] == 0
    assert all(t["action"]["price"] == 3.0 and t["reason"] == GOOD["reason"] for t in turns)
    assert all(t["prompt"].startswith("You run a lemonade stand") for t in turns)
    episode = store.episode(outcome.episode_id or 0)
    assert episode is not None and {t["prompt_version"] for t in turns} == {episode["prompt_version"]}
    assert turns[0]["raw"].startswith("Here is my move")
    assert turns[2]["input_tokens"] == 240 and turns[2]["output_tokens"] == 60  # both attempts counted
    assert turns[0]["cost_usd"] == pytest.approx((120 * 2.0 + 30 * 8.0) / 1e6)
    seat = store.seats(outcome.episode_id or 0)[0]
    assert seat["kind"] == "model" and seat["input_tokens"] == 480
    assert CANARY_KEY.encode() not in Path(store.path).read_bytes()


async def test_rate_limits_are_retried_and_the_key_never_reaches_the_database(
    wire: WireServer, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    wire.script(rate_limited("0"), reply(GOOD), unauthorized(f"Incorrect API key provided: {CANARY_KEY}"))
    store = Store(db_path)
    outcome = await play_match(
        MatchConfig("lemonade", {"a": "m", "b": "baseline:weather"}, seed=1, options={"days": 5}),
        store,
        models_config=config(wire),
    )
    assert outcome.status == "failed"  # the revoked key stops the match at once
    assert len(stored_turns(store, outcome.episode_id or 0)) == 2
    episode = store.episode(outcome.episode_id or 0)
    assert episode is not None
    assert episode["message"] == "m: authentication failed (HTTP 401: Incorrect API key provided: [redacted])"
    store.close()
    for path in db_path.parent.iterdir():
        assert CANARY_KEY.encode() not in path.read_bytes(), path
    assert all(request.headers.get("authorization") == f"Bearer {CANARY_KEY}" for request in wire.posts())


async def test_a_token_budget_stops_the_episode(wire: WireServer, store: Store) -> None:
    wire.script(*[reply(GOOD) for _ in range(30)])
    outcome = await play_match(
        MatchConfig("lemonade", {"a": "m", "b": "baseline:weather"}, seed=1, budget=Budget(max_tokens=500)),
        store,
        models_config=config(wire, "openai-compat"),
    )
    assert outcome.status == "budget_exceeded"
    assert len(stored_turns(store, outcome.episode_id or 0)) == 8  # 150 tokens a day: day 4 crosses 500


def test_cli_plays_a_model_and_shows_tokens(
    wire: WireServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ARENA_MODELS", raising=False)  # main() sets it from --models; restore afterwards
    wire.script(*[reply(GOOD) for _ in range(2)])
    models = tmp_path / "models.toml"
    models.write_text(
        f'[models.wired]\nprovider = "openai-compat"\nmodel = "t"\nbase_url = "{wire.openai_url}"\n'
    )
    db = tmp_path / "arena.db"
    argv = ["--db", str(db), "--models", str(models), "play", "lemonade", "--seat", "a=wired"]
    code = main([*argv, "--seat", "b=baseline:weather", "--option", "days=2"])
    out = capsys.readouterr().out
    assert code == 0
    assert "steady at the base price" in out and "120+30 tok" in out
    code = main(["--models", str(models), "models"])
    listing = capsys.readouterr().out
    assert code == 0 and "wired\tavailable: server up" in listing


def test_cli_names_a_missing_key_before_the_first_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    db = tmp_path / "arena.db"
    code = main(["--db", str(db), "play", "lemonade", "--seat", "a=openai:gpt-4.1-mini", "--seat", "b=human"])
    err = capsys.readouterr().err
    assert code == 1
    assert (
        err.strip()
        == "arena: error: openai:gpt-4.1-mini: OPENAI_API_KEY is not set (export it to play this model)"
    )
    assert Store(db).list_episodes() == []


GEMMA_MISSING = missing_requirement("gemma3-270m")


def test_the_offline_model_is_installed_where_ci_runs() -> None:
    # `make test` installs the local extra; a broken install must fail CI, not skip the episode below.
    if os.environ.get("CI"):
        assert GEMMA_MISSING is None, GEMMA_MISSING


@pytest.mark.skipif(GEMMA_MISSING is not None, reason=f"offline model unavailable: {GEMMA_MISSING}")
async def test_the_offline_model_plays_a_short_episode(store: Store) -> None:
    # three days: a real episode end to end; the 30-day run is bench/offline_episode.py. With
    # seed 4 the model's first day falls back and its next two replies are used, so both
    # branches below run (seed 42 fell back every day, two replies running to the 256-token cap:
    # 39 s instead of 13). Another build of llama.cpp may sample otherwise; the checks hold for any reply.
    outcome = await play_match(
        MatchConfig(
            "lemonade", {"a": "local:gemma3-270m", "b": "baseline:weather"}, seed=4, options={"days": 3}
        ),
        store,
        models_config=ModelsConfig(),
    )
    assert outcome.status == "finished"
    turns = stored_turns(store, outcome.episode_id or 0)
    model_turns = [t for t in turns if t["seat"] == "a"]
    assert len(model_turns) + sum(t["seat"] == "b" for t in turns) == len(turns)
    assert len(model_turns) == outcome.results["a"].metrics["days_played"]
    for turn in model_turns:
        assert turn["prompt"] and turn["input_tokens"] > 0
        assert turn["valid"] or turn["error"], turn
        if turn["fallback"]:
            assert turn["action"]["price"] == 3.0 and turn["attempts"]
        else:
            json.loads(turn["raw"])  # a reply that was used was JSON
    metrics = outcome.results["a"].metrics
    assert metrics["fallbacks"] == sum(t["fallback"] for t in model_turns)


@pytest.mark.parametrize("provider", ["openai-responses", "anthropic"])
async def test_a_rejected_key_stops_the_match_before_the_first_turn(
    provider: str, wire: WireServer, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    wire.accepted_keys = {"sk-the-real-one"}
    with pytest.raises(PlayerSetupError, match="rejected the key in ARENA_TEST_CANARY_KEY"):
        await play_match(
            MatchConfig("lemonade", {"a": "m", "b": "baseline:weather"}, seed=1),
            store,
            models_config=config(wire, provider),
        )
    assert store.list_episodes() == []
    assert wire.posts() == []  # not a single decision was asked for
    wire.accepted_keys = {CANARY_KEY}
    wire.script(reply(GOOD))
    outcome = await play_match(
        MatchConfig("lemonade", {"a": "m", "b": "baseline:weather"}, seed=1, options={"days": 1}),
        store,
        models_config=config(wire, provider),
    )
    assert outcome.status == "finished"


REFUSALS = {
    "context window": ("openai-compat", {}, context_exceeded, "exceeds the available context size"),
    "model name behind a gateway": (
        "openai-chat",
        {"check_model_listed": False},
        lambda: invalid_model("m"),
        "Invalid model name passed in model=m",
    ),
    "bad key answered with 400": ("openai-chat", {}, None, "Invalid proxy server token"),
    "anthropic 400": (
        "anthropic",
        {},
        lambda: bad_request(f"prompt too long for {CANARY_KEY}"),
        "[redacted]",
    ),
}


@pytest.mark.parametrize("case", list(REFUSALS))
async def test_a_seat_the_provider_keeps_refusing_ends_the_episode_without_scores(
    case: str, wire: WireServer, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    provider, overrides, behaviour, expected = REFUSALS[case]
    if behaviour is None:  # LiteLLM without a database: a wrong key is HTTP 400, not 401
        wire.accepted_keys, wire.key_reject_status = {"sk-the-real-one"}, 400
    else:
        wire.script(*(behaviour() for _ in range(3)))
    outcome = await play_match(
        MatchConfig("lemonade", {"a": "m", "b": "baseline:weather"}, seed=2),
        store,
        models_config=config(wire, provider, **overrides),
    )
    assert outcome.status == "player_failed"
    assert outcome.message.startswith("seat a (m) could not play: 3 decisions in a row failed")
    assert "last: provider_error: HTTP 400: " in outcome.message and expected in outcome.message
    assert CANARY_KEY not in outcome.message
    assert len(wire.posts()) == 3
    episode_id = outcome.episode_id or 0
    assert [s["score"] for s in store.seats(episode_id)] == [None, None]
    assert [t["error"] for t in stored_turns(store, episode_id) if t["seat"] == "a"] == ["provider_error"] * 3
    assert CANARY_KEY.encode() not in Path(store.path).read_bytes()


async def test_the_models_file_sets_how_many_refusals_a_seat_gets(wire: WireServer, store: Store) -> None:
    wire.script(context_exceeded(), reply(GOOD), context_exceeded(), context_exceeded())
    outcome = await play_match(
        MatchConfig("lemonade", {"a": "m", "b": "baseline:weather"}, seed=2),
        store,
        models_config=config(wire, "openai-compat", max_consecutive_errors=2),
    )
    assert outcome.status == "player_failed" and "2 decisions in a row" in outcome.message
    assert len(wire.posts()) == 4


async def test_the_same_episode_seed_sends_the_same_seeds(wire: WireServer, tmp_path: Path) -> None:
    runs = []
    for name in ("one", "two"):
        wire.requests.clear()
        wire.script(*(reply(GOOD) for _ in range(3)))
        store = Store(tmp_path / f"{name}.db")
        outcome = await play_match(
            MatchConfig("lemonade", {"a": "m", "b": "baseline:weather"}, seed=17, options={"days": 3}),
            store,
            models_config=config(wire, "openai-compat", temperature=0.8),
        )
        turns = [t for t in stored_turns(store, outcome.episode_id or 0) if t["seat"] == "a"]
        sent = [post.body for post in wire.posts()]
        assert [t["sampling"] for t in turns] == [
            {"seed": body["seed"], "temperature": 0.8, "max_tokens": 256} for body in sent
        ]
        runs.append([body["seed"] for body in sent])
        store.close()
    assert runs[0] == runs[1] and len(set(runs[0])) == 3


async def test_each_seat_is_recorded_as_configured(
    wire: WireServer, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    wire.script(reply(GOOD))
    models = config(wire, "openai-chat", timeout=None, max_retries=4, temperature=None)
    outcome = await play_match(
        MatchConfig("lemonade", {"a": "m", "b": "baseline:weather"}, seed=1, options={"days": 1}),
        store,
        models_config=models,
    )
    episode = store.episode(outcome.episode_id or 0)
    seat = store.seats(outcome.episode_id or 0)[0]
    assert episode is not None and seat["config"] == {
        "kind": "model",
        "name": "m",
        "provider": "openai",
        "api": "chat",
        "model": "gpt-test",
        "base_url": wire.openai_url,
        "key_env": KEY_ENV,
        "temperature": None,
        "max_output_tokens": "schema-estimate-v1 (at most 4096)",
        "string_max_length": 300,
        "memory": "none",
        "memory_budget_tokens": None,
        "prompt_cache": "stable prefix + prompt_cache_key per episode and seat",
        "timeout": 60.0,
        "max_retries": 4,
        "max_concurrency": 4,
        "max_consecutive_errors": None,
        "check_model_listed": True,
        "price_input_per_mtok": 0.0,
        "price_output_per_mtok": 0.0,
        "price_cached_input_per_mtok": 0.0,
        "seed": "per decision: sha256(episode seed, seat, step, attempt)",
        "system_prompt_version": SYSTEM_PROMPT_VERSION,
        "prompt_version": episode["prompt_version"],
    }
    document = export_episode(store, outcome.episode_id or 0)
    assert document["seats"][0]["config"] == seat["config"]
    assert document["turns"][0]["sampling"]["max_completion_tokens"] == 256  # estimated from the schema
    assert CANARY_KEY not in json.dumps(document)


def models_file(path: Path, wire: WireServer, temperature: float) -> Path:
    path.write_text(
        f'[models.m]\nprovider = "openai-compat"\nmodel = "t"\nbase_url = "{wire.openai_url}"\n'
        f"temperature = {temperature}\n"
    )
    return path


async def test_tournaments_leave_out_unfinished_episodes_and_tell_configurations_apart(
    wire: WireServer, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_MODELS", str(models_file(tmp_path / "cold.toml", wire, 0.2)))
    # Seat a: a good day, an unusable one (re-asked, then the fallback), a good day. Seat b: refused.
    wire.script(reply(GOOD), reply("no"), reply("no"), reply(GOOD), *(context_exceeded() for _ in range(3)))
    players = ("m", "baseline:weather")
    lineup = {
        "players": players,
        "seeds": 1,
        "seed": 4,
        "options": {"days": 3},
        "concurrency": 1,
        "retries": 0,
    }
    cold = await run_tournament(store, build_config(game="lemonade", **lineup))
    statuses = store.conn.execute(
        "SELECT status FROM episodes WHERE tournament_id = ? ORDER BY id", (cold.tournament_id,)
    )
    assert [status for (status,) in statuses] == ["finished", "player_failed"]
    table = tournament_table(store, cold.tournament_id)
    model = next(row for row in table["players"] if row["player"] == "m")
    counts = table["failures"]["per_player"]["m"]
    assert model["episodes"] == 1 and counts["fallback"] / counts["decisions"] == pytest.approx(
        1 / 3, abs=1e-3
    )
    assert [item["status"] for item in table["left_out"]] == ["player_failed"]
    assert "exceeds the available context size" in table["left_out"][0]["reason"]
    assert "m" in table["left_out"][0]["players"]
    buffer = io.StringIO()
    Console(file=buffer, width=200, color_system=None).print(render_table(table))
    text = buffer.getvalue()
    assert "left out: 1 player_failed" in text and "fallback" in text

    monkeypatch.setenv("ARENA_MODELS", str(models_file(tmp_path / "hot.toml", wire, 0.9)))
    wire.script(*(reply(GOOD) for _ in range(6)))
    hot = await run_tournament(store, build_config(game="lemonade", **lineup))
    assert hot.status == "finished" and hot.done == 2
    reports = [build_report(store, progress.tournament_id) for progress in (cold, hot)]
    hashes = {report["inference"]["m"]["config_hash"] for report in reports}
    weather = {report["inference"]["baseline:weather"]["config_hash"] for report in reports}
    assert len(hashes) == 2 and len(weather) == 1 and not hashes & weather
    temperatures = {report["inference"]["m"]["settings"]["temperature"] for report in reports}
    assert temperatures == {0.2, 0.9}
    stored = store.conn.execute("SELECT count(*) FROM player_configs WHERE name = 'm'").fetchone()[0]
    assert stored == 2


def test_arena_models_does_not_call_a_wrong_base_path_available(
    wire: WireServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ARENA_MODELS", raising=False)
    models = tmp_path / "models.toml"
    models.write_text(
        f'[models.wired]\nprovider = "openai-compat"\nmodel = "t"\nbase_url = "{wire.url}/v2"\n'
    )
    assert main(["--models", str(models), "models"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("wired\t"))
    assert line == (
        f"wired\tunavailable: no models endpoint at {wire.url}/v2/models (HTTP 404);"
        " check the base URL (a missing or extra /v1?)"
    )
    seats = ["--seat", "a=wired", "--seat", "b=baseline:weather"]
    code = main(["--db", str(tmp_path / "a.db"), "--models", str(models), "play", "lemonade", *seats])
    assert code == 1 and "no models endpoint" in capsys.readouterr().err
    assert wire.posts() == []
