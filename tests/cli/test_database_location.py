"""Where the database is: one place whatever the folder, named by each command that writes (issue 24, 12)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from arena.cli.main import main
from arena.store.database import Store
from arena.store.paths import database_path, default_database, old_database_note, user_data_dir

PLAY = ["play", "bargain", "--seat", "seller=baseline:honest", "--seat", "buyer=baseline:bluffing", "--quiet"]


@pytest.fixture
def user_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user data folder of this test's own, and no ``$ARENA_DB``."""
    folder = tmp_path / "user-data"
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    monkeypatch.delenv("ARENA_DB", raising=False)
    return folder


def database_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("arena: database ")]


def test_play_in_one_folder_and_episodes_in_another_use_one_database(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, user_data: Path
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    monkeypatch.chdir(first)
    assert main(PLAY) == 0
    assert database_lines(capsys.readouterr().err) == [f"arena: database {user_data / 'arena' / 'arena.db'}"]
    monkeypatch.chdir(second)
    assert main(["episodes"]) == 0
    out, err = capsys.readouterr()
    assert "bargain" in out and "seller=baseline:honest" in out
    assert database_lines(err) == [], "a command that only reads does not announce the database"
    assert not (first / "saves").exists() and not (second / "saves").exists()


def test_the_default_does_not_depend_on_the_current_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, user_data: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    here = database_path()
    monkeypatch.chdir("/")
    assert database_path() == here == user_data / "arena" / "arena.db"
    assert here.is_absolute()


def test_a_relative_xdg_data_home_is_ignored_as_the_spec_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "relative/folder")
    assert user_data_dir().is_absolute()


def test_the_db_flag_and_arena_db_still_choose_the_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, user_data: Path
) -> None:
    from_env, from_flag = tmp_path / "env.db", tmp_path / "flag.db"
    monkeypatch.setenv("ARENA_DB", str(from_env))
    assert main(PLAY) == 0
    assert database_lines(capsys.readouterr().err) == [f"arena: database {from_env}"]
    assert main(["--db", str(from_flag), *PLAY]) == 0
    assert database_lines(capsys.readouterr().err) == [f"arena: database {from_flag}"]
    assert [len(Store(path).list_episodes()) for path in (from_env, from_flag)] == [1, 1]
    assert not default_database().exists()


def test_a_tournament_names_its_database_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, user_data: Path
) -> None:
    db = tmp_path / "t.db"
    argv = ["--db", str(db), "tournament", "run", "bargain", "--player", "baseline:honest"]
    assert main([*argv, "--player", "baseline:bluffing", "--seeds", "1"]) == 0
    assert database_lines(capsys.readouterr().err) == [f"arena: database {db}"]


def test_reading_before_anything_was_played_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, user_data: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # no saves/arena.db of an older Arena here
    assert main(["episodes"]) == 1
    err = capsys.readouterr().err
    wanted = f"no database yet at {default_database()}: nothing has been played (arena play makes it)"
    assert err.strip() == f"arena: error: {wanted}"
    assert not user_data.exists()


def test_a_database_at_the_old_default_is_pointed_out_until_the_new_one_exists(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, user_data: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    Store(tmp_path / "saves" / "arena.db").close()
    assert "--db saves/arena.db" in old_database_note()
    assert main(PLAY) == 0
    notes = [line for line in capsys.readouterr().err.splitlines() if line.startswith("arena: note:")]
    assert len(notes) == 1 and str(default_database()) in notes[0]
    assert main(PLAY) == 0
    assert "arena: note:" not in capsys.readouterr().err, "said once: the new default exists now"
    assert old_database_note("elsewhere.db") == ""


def test_the_suite_never_touches_the_real_user_folders() -> None:
    # tests/conftest.py points the user folders into a temporary folder before any test runs.
    real = Path.home() / ".local" / "share" / "arena" / "arena.db"
    assert default_database() != real
    assert default_database().is_relative_to(Path(tempfile.gettempdir()))
