"""``arena serve`` refuses and warns in one line; ``arena play`` gives a person a secret deal."""

from __future__ import annotations

import io
import socket
from pathlib import Path

import pytest

from arena.cli.main import main
from arena.cli.serve import app_command, is_loopback, local_url
from arena.store.database import Store

OFFER_TURN = ["offer", "150", "firm", "my own plan"]
"""One seller turn at the console: above any buyer's value, so no deal and four turns in all."""


def play_as_seller(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: Path, *flags: str
) -> int:
    """``arena play bargain`` with a person as seller at the console; returns the stored seed."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in OFFER_TURN * 4)))
    argv = ["--db", str(db), "play", "bargain", "--seat", "seller=human", "--seat", "buyer=baseline:honest"]
    assert main([*argv, *flags]) == 0, capsys.readouterr()
    capsys.readouterr()
    store = Store(db)
    try:
        return int(store.list_episodes()[0]["seed"])  # newest first
    finally:
        store.close()


def test_a_person_at_the_console_plays_a_secret_seed_unless_one_is_given(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db_path: Path
) -> None:
    first = play_as_seller(capsys, monkeypatch, db_path)
    second = play_as_seller(capsys, monkeypatch, db_path)
    assert first != second and 0 not in (first, second), "each human episode draws its own secret deal"
    assert play_as_seller(capsys, monkeypatch, db_path, "--seed", "0") == 0
    assert play_as_seller(capsys, monkeypatch, db_path, "--seed", "12") == 12


def test_baselines_alone_keep_the_reproducible_default_seed(
    capsys: pytest.CaptureFixture[str], db_path: Path
) -> None:
    seats = ["--seat", "seller=baseline:honest", "--seat", "buyer=baseline:bluffing"]
    assert main(["--db", str(db_path), "play", "bargain", *seats, "--quiet"]) == 0
    store = Store(db_path)
    assert store.list_episodes()[0]["seed"] == 0
    store.close()


def test_only_loopback_addresses_count_as_this_machine_alone() -> None:
    assert all(is_loopback(h) for h in ("127.0.0.1", "127.8.0.1", "::1", "[::1]", "localhost"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "::", "192.0.2.1", "example.org"))
    assert local_url("::1", 8000) == "http://[::1]:8000"
    assert local_url("127.0.0.1", 80) == "http://127.0.0.1:80"


def test_each_tab_runs_this_python_s_app_on_the_same_database_by_absolute_path(tmp_path: Path) -> None:
    command = app_command(tmp_path / "dir with space" / "a.db")
    assert "-m arena.cli.main --db" in command and f"'{tmp_path}/dir with space/a.db'" in command


def test_another_host_warns_that_there_is_no_login_before_it_binds(
    capsys: pytest.CaptureFixture[str], db_path: Path
) -> None:
    # 192.0.2.1 is a documentation address no machine has: binding fails, nothing is sent.
    code = main(["--db", str(db_path), "serve", "--host", "192.0.2.1", "--port", "8099"])
    err = capsys.readouterr().err
    assert code == 1
    assert "warning: serving on 192.0.2.1:8099 with no login but the link's token" in err and "SSH" in err
    assert "error: cannot serve on 192.0.2.1:8099" in err and "Traceback" not in err


def test_the_default_address_does_not_warn_and_a_taken_port_is_one_line(
    capsys: pytest.CaptureFixture[str], db_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["--db", str(db_path), "serve", "--port", str(port)])
    err = capsys.readouterr().err
    assert code == 1 and "warning" not in err
    assert err.strip().splitlines()[-1].startswith(f"arena: error: cannot serve on 127.0.0.1:{port}")


@pytest.mark.parametrize("port", ["0", "70000"])
def test_a_port_out_of_range_is_refused(capsys: pytest.CaptureFixture[str], db_path: Path, port: str) -> None:
    assert main(["--db", str(db_path), "serve", "--port", port]) == 1
    assert "--port must be 1 to 65535" in capsys.readouterr().err
