"""What the machine refuses ends a command in one line, never a traceback, and loses nothing.

A disk filling during a tournament or an export (a real tmpfs, filled), a read-only database,
ids SQLite cannot hold, a damaged database (refused by ``quick_check`` before any table, report
or export is built from what is left of it, with how to recover it).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from arena.cli.main import main
from arena.store.database import Store
from tests.support.processes import OUR_ENV
from tests.support.small_disk import small_disk

PLAYERS = ["--player", "baseline:weather", "--player", "baseline:cost-plus"]
HUGE = str(2**63)
ARENA = [sys.executable, "-m", "arena.cli.main"]


def one_line_error(err: str) -> str:
    """The one error line of ``err`` (and nothing like a traceback)."""
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("arena: error:")]
    assert len(lines) == 1, err
    return lines[0]


def test_a_disk_filling_during_a_tournament_is_one_line_and_resume_plays_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with small_disk(tmp_path / "disk", "600k") as disk:
        db = str(disk.path / "arena.db")
        code = main(["--db", db, "tournament", "run", "lemonade", *PLAYERS, "--seeds", "100"])
        line = one_line_error(capsys.readouterr().err)
        assert code == 1 and "full" in line and "arena tournament resume" in line
        disk.grow("64m")  # space freed
        assert main(["--db", db, "tournament", "resume", "1"]) == 0, capsys.readouterr().err
        capsys.readouterr()
        assert main(["--db", db, "tournament", "table", "1", "--json"]) == 0
        capsys.readouterr()
        store = Store(db)
        try:
            finished = store.conn.execute("SELECT count(*) FROM episodes WHERE status='finished'").fetchone()[
                0
            ]
            assert store.tournament(1)["status"] == "finished"  # type: ignore[index]
        finally:
            store.close()
        assert finished == 200, "every slot is played once the disk has room again"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with one finished tournament (4 lemonade episodes)."""
    db = tmp_path_factory.mktemp("played") / "arena.db"
    argv = ["--db", str(db), "tournament", "run", "lemonade", *PLAYERS, "--seeds", "2", "--option", "days=3"]
    assert subprocess.run([*ARENA, *argv[2:], "--db", str(db)], capture_output=True).returncode == 0
    return db


def test_an_export_to_a_full_disk_keeps_the_old_file_and_says_so_in_one_line(
    tmp_path: Path, played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with small_disk(tmp_path / "disk", "64k") as disk:
        old = disk.path / "rows.jsonl"
        old.write_text("the old export\n")
        disk.fill()
        argv = [
            "--db",
            str(played),
            "export",
            "--tournament",
            "1",
            "--observations",
            "full",
            "--output",
            str(old),
        ]
        assert main(argv) == 1
        assert "disk is full" in one_line_error(capsys.readouterr().err)
        assert old.read_text() == "the old export\n"
        assert sorted(p.name for p in disk.path.iterdir()) == ["filler", "rows.jsonl"], "no half file left"


def test_an_export_to_stdout_on_a_full_disk_is_one_line(tmp_path: Path, played: Path) -> None:
    with small_disk(tmp_path / "disk", "64k") as disk:
        disk.fill()
        with (disk.path / "out.jsonl").open("w") as out:
            done = subprocess.run(
                [*ARENA, "--db", str(played), "export", "--tournament", "1", "--observations", "full"],
                stdout=out,
                stderr=subprocess.PIPE,
                text=True,
                env=OUR_ENV,
            )
    assert done.returncode == 1
    assert "disk is full" in one_line_error(done.stderr)


def test_a_report_on_a_full_disk_leaves_no_cut_report_json(
    tmp_path: Path, played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with small_disk(tmp_path / "disk", "64k") as disk:
        out = disk.path / "report"
        out.mkdir()
        (out / "report.json").write_text('{"old": true}\n')
        disk.fill()
        assert main(["--db", str(played), "tournament", "report", "1", "--out", str(out)]) == 1
        assert "cannot write the report" in one_line_error(capsys.readouterr().err)
        assert json.loads((out / "report.json").read_text()) == {"old": True}, "whole or not at all"
        assert not [p for p in out.iterdir() if ".partial-" in p.name]


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="a database read-only to its reader: the test runs arena as nobody, which needs root and setpriv",
)
@pytest.mark.parametrize(
    "argv",
    [["tournament", "resume", "1"], ["tournament", "run", "lemonade", *PLAYERS, "--seeds", "1"]],
)
def test_a_read_only_database_is_one_line_for_tournaments(played: Path, argv: list[str]) -> None:
    folder = Path(tempfile.mkdtemp(prefix="arena-read-only-"))  # pytest's folders are root's alone
    try:
        read_only_tournament(played, folder, argv)
    finally:
        shutil.rmtree(folder)


def read_only_tournament(played: Path, folder: Path, argv: list[str]) -> None:
    db = folder / "arena.db"
    shutil.copy(played, db)
    store = Store(db)
    store.conn.execute("UPDATE tournaments SET status='aborted'")  # something left to resume
    store.conn.execute("UPDATE episodes SET status='aborted' WHERE id = 4")
    store.close()
    folder.chmod(0o777)  # nobody may make the journal files, not change the database
    db.chmod(0o444)
    as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]  # root may write anything
    reach = subprocess.run([*as_nobody, *ARENA, "--help"], capture_output=True, text=True, env=OUR_ENV)
    if reach.returncode != 0:  # a checkout inside a folder private to root (mktemp -d is 0700)
        pytest.skip(f"nobody cannot run Arena from this checkout: {reach.stderr.strip()[-200:]}")
    done = subprocess.run(
        [*as_nobody, *ARENA, "--db", str(db), *argv], capture_output=True, text=True, env=OUR_ENV
    )
    assert done.returncode == 1
    assert "is read-only" in one_line_error(done.stderr)


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "table", HUGE],
        ["tournament", "resume", HUGE],
        ["tournament", "report", HUGE, "--out", "REPORT"],
        ["leaderboard", "1", HUGE],
        ["export", "--tournament", HUGE],
        ["export", HUGE, "1"],
        ["export", HUGE],
        ["compare", "1", HUGE],
        ["resume", HUGE],
        ["replay", HUGE],
    ],
)
def test_ids_sqlite_cannot_hold_name_nothing(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    argv = [str(tmp_path / "r") if a == "REPORT" else a for a in argv]
    assert main(["--db", str(played), *argv]) == 1
    line = one_line_error(capsys.readouterr().err)
    assert f"no tournament {HUGE}" in line or f"no episode {HUGE}" in line


@pytest.mark.parametrize(
    "argv", [["tournaments", "--limit", HUGE], ["export", "--limit", HUGE, "--rows", "seats"]]
)
def test_a_limit_sqlite_cannot_hold_is_no_limit(
    played: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert main(["--db", str(played), *argv]) == 0, capsys.readouterr().err


def damage(source: Path, target: Path) -> None:
    """A copy of ``source`` with the headers of every third page after the first overwritten."""
    data = bytearray(source.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for start in range(page * 2, len(data), page * 3):
        data[start : start + 12] = b"\xa5" * 12
    target.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "argv",
    [
        ["episodes"],
        ["export", "1"],
        ["export", "--tournament", "1"],
        ["tournament", "table", "1"],
        ["tournament", "report", "1", "--out", "REPORT"],
        ["tournaments"],
        ["leaderboard", "1"],
        [],  # the app's start
    ],
)
def test_a_damaged_database_is_refused_in_one_line_that_says_how_to_recover(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    db = tmp_path / "damaged.db"
    damage(played, db)
    argv = [str(tmp_path / "r") if a == "REPORT" else a for a in argv]
    assert main(["--db", str(db), *argv]) == 1
    line = one_line_error(capsys.readouterr().err)
    assert (
        "is damaged" in line
        and f"sqlite3 {db} .recover | sqlite3 {tmp_path / 'damaged-recovered.db'}" in line
    )
