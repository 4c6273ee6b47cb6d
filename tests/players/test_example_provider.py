"""A third-party model provider installs as its own package and plays a real episode.

``examples/acme_provider`` (one module, one ``arena.providers`` entry point) is pip-installed
into a temp folder (:mod:`tests.support.example_packages`), and a CLI started with that folder on
``PYTHONPATH`` plays ``acme`` seats against the wire server over real HTTP on 127.0.0.1:
its defaults (key variable, reply cap, timeout, prices), its own error (HTTP 420 is a rate
limit, retried) and the OpenAI-compatible calls it inherits.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.support.example_packages import install_example, run
from tests.support.wire_server import Behaviour, WireServer, reply

ACME_KEY = "sk-acme-0123456789abcdef"
ARENA = [sys.executable, "-m", "arena.cli.main"]
GOOD = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady at the base price"}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Environment variables under which the example provider is installed and its key is set."""
    return {**install_example("acme_provider", tmp_path_factory.mktemp("provider")), "ACME_API_KEY": ACME_KEY}


@pytest.fixture
def wire() -> object:
    with WireServer() as server:
        server.models = ["acme-small"]
        server.accepted_keys = {ACME_KEY}
        yield server


def models_file(tmp_path: Path, base_url: str) -> Path:
    path = tmp_path / "models.toml"
    path.write_text(f'[models.acme-wire]\nprovider = "acme"\nmodel = "acme-small"\nbase_url = "{base_url}"\n')
    return path


def test_the_installed_provider_plays_an_episode_with_its_own_defaults(
    installed: dict[str, str], wire: WireServer, tmp_path: Path
) -> None:
    # Day 2's first call meets Acme's rate limit (HTTP 420): its classification retries it.
    slow_down = Behaviour(status=420, headers={"retry-after": "0"}, error_message="Enhance your calm.")
    wire.script(reply(GOOD), slow_down, reply(GOOD), reply(GOOD))
    db = tmp_path / "arena.db"
    models = models_file(tmp_path, wire.openai_url)
    seats = ["--seat", "a=acme-wire", "--seat", "b=baseline:weather"]
    argv = [
        *ARENA,
        "--db",
        str(db),
        "--models",
        str(models),
        "play",
        "lemonade",
        *seats,
        "--option",
        "days=3",
    ]
    played = run(argv, installed)
    assert played.returncode == 0, played.stderr[-2000:]
    assert "steady at the base price" in played.stdout

    posts = wire.posts()
    assert [post.path for post in posts] == ["/v1/chat/completions"] * 4
    assert {post.headers["authorization"] for post in posts} == {f"Bearer {ACME_KEY}"}
    body = posts[0].body
    assert body["model"] == "acme-small" and body["max_tokens"] <= 512  # compatible: no OpenAI-only fields
    assert "max_completion_tokens" not in body and "prompt_cache_key" not in body

    exported = run([*ARENA, "--db", str(db), "export", "1"], installed)
    assert exported.returncode == 0, exported.stderr[-2000:]
    document = json.loads(exported.stdout)
    seat = next(s for s in document["seats"] if s["seat"] == "a")
    config = seat["config"]
    assert (config["provider"], config["key_env"], config["timeout"]) == ("acme", "ACME_API_KEY", 30.0)
    assert (config["price_input_per_mtok"], config["price_output_per_mtok"]) == (0.2, 0.8)
    assert config["price_cached_input_per_mtok"] == pytest.approx(0.1)  # half the input price
    assert config["price_source"] == {
        "source": "https://acme-inference.example/pricing",
        "date": "2026-12-01",
    }
    assert config["max_output_tokens"].endswith("(at most 512)")
    turns = [turn for turn in document["turns"] if turn["seat"] == "a"]
    assert len(turns) == 3 and all(turn["error"] is None for turn in turns)
    assert seat["usage"]["cost_usd"] == pytest.approx(3 * (120 * 0.2 + 30 * 0.8) / 1e6)


def test_the_installed_provider_is_a_player_kind_with_its_defaults(installed: dict[str, str]) -> None:
    code = (
        "import json\n"
        "from arena.plugins.players import parse_player_spec\n"
        "from players.models import ModelsConfig\n"
        "text, settings = ModelsConfig().resolve(parse_player_spec('acme:acme-large'))\n"
        "print(json.dumps([text, settings.endpoint, settings.key_env, settings.output_tokens,"
        " settings.price_input_per_mtok, settings.price_output_per_mtok]))"
    )
    resolved = run([sys.executable, "-c", code], installed)
    assert resolved.returncode == 0, resolved.stderr[-2000:]
    expected = ["acme:acme-large", "https://api.acme-inference.example/v1", "ACME_API_KEY", 512, 1.0, 4.0]
    assert json.loads(resolved.stdout) == expected

    listed = run([*ARENA, "models"], installed)
    assert listed.returncode == 0, listed.stderr[-2000:]
    assert "acme:MODEL\tavailable: ACME_API_KEY is set" in listed.stdout.splitlines()
    keyless = {key: value for key, value in installed.items() if key != "ACME_API_KEY"}
    assert "acme:MODEL\tunavailable: ACME_API_KEY is not set" in run([*ARENA, "models"], keyless).stdout


def test_without_the_package_acme_is_unknown_in_specs_and_models_files(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["ARENA_MODELS"] = str(tmp_path / "none.toml")
    seats = ["--seat", "a=acme:acme-small", "--seat", "b=baseline:weather"]
    unknown_kind = run([*ARENA, "--db", str(tmp_path / "a.db"), "play", "lemonade", *seats], env)
    assert unknown_kind.returncode != 0 and "unknown player kind 'acme'" in unknown_kind.stderr
    env["ARENA_MODELS"] = str(models_file(tmp_path, "http://127.0.0.1:9/v1"))
    unknown_provider = run([*ARENA, "models"], env)
    known = "openai, anthropic, openai-compat, local"
    expected = f"models.acme-wire.provider: unknown provider 'acme' (installed: {known})"
    assert unknown_provider.returncode != 0 and expected in unknown_provider.stderr
