"""Secrets are never shown: a key pasted where a variable's name belongs is refused without being
repeated, and a base URL's password or token is masked in ``arena models``, in error messages and
on the app's home screen (which every ``arena serve`` tab sees)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli.main import main
from arena.contract.playerconfig import mask_urls, masked_url
from players.models.config import looks_like_variable_name
from tests.support.browser import free_port

PASTED_KEY = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
PASSWORD, TOKEN = "hunter2pass", "SECRETQUERY123"


def models_file(tmp_path: Path, body: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "models.toml"
    path.write_text(body)
    monkeypatch.setenv("ARENA_MODELS", str(path))
    return path


def leaky_url() -> str:
    """A base URL with a password and a token, on a port nothing listens on (connection refused)."""
    return f"http://alice:{PASSWORD}@127.0.0.1:{free_port()}/v1?api_key={TOKEN}&region=eu"


@pytest.mark.parametrize(
    "pasted", [PASTED_KEY, "AKIAIOSFODNN7EXAMPLE", "sk-ant-api03-xyz", "a key with spaces"]
)
def test_a_key_pasted_as_api_key_env_is_refused_without_repeating_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], pasted: str
) -> None:
    models_file(
        tmp_path,
        f'[models.pasted]\nprovider = "openai"\nmodel = "gpt-4o"\napi_key_env = "{pasted}"\n',
        monkeypatch,
    )
    for argv in (["models"], ["models", "--json"], ["players", "lemonade"]):
        main(argv)
        out, err = capsys.readouterr()
        assert pasted not in out + err, argv
    assert main(["models"]) == 1
    assert "must name the environment variable" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["OPENAI_API_KEY", "MY_KEY", "key2", "ANTHROPIC_API_KEY_WORK_ACCOUNT_2"])
def test_a_variable_name_is_accepted(name: str) -> None:
    assert looks_like_variable_name(name)


def test_urls_are_masked_but_stay_readable() -> None:
    assert (
        masked_url(f"https://u:{PASSWORD}@h.example/v1?token={TOKEN}&x=1")
        == "https://***@h.example/v1?token=***&x=1"
    )
    assert masked_url("http://127.0.0.1:8000/v1") == "http://127.0.0.1:8000/v1"
    assert mask_urls(f"refused at http://{TOKEN}@h/v1.") == "refused at http://***@h/v1."


def test_a_base_url_s_password_and_token_are_masked_in_listings_and_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = leaky_url()
    models_file(
        tmp_path,
        f'[models.leaky]\nprovider = "openai-compat"\nmodel = "m1"\nbase_url = "{url}"\n',
        monkeypatch,
    )
    assert main(["models"]) == 0
    listing = capsys.readouterr().out
    assert "leaky\tunavailable: server down: connection refused at http://***@127.0.0.1:" in listing
    assert "api_key=***&region=eu" in listing
    assert main(["models", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["models"]
    db = str(tmp_path / "arena.db")
    assert main(["--db", db, "play", "lemonade", "--seat", "a=leaky", "--seat", "b=baseline:weather"]) == 1
    seat_spec = [
        "--db",
        db,
        "play",
        "lemonade",
        "--seat",
        f"a=openai-compat:m1@{url}",
        "--seat",
        "b=baseline:weather",
    ]
    assert main(seat_spec) == 1
    err = capsys.readouterr().err
    assert "connection refused at http://***@127.0.0.1" in err
    for shown in (listing, json.dumps(rows), err):
        assert PASSWORD not in shown and TOKEN not in shown
