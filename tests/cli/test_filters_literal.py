"""``--player`` matches the text given, literally: ``%`` and ``_`` are characters, not SQL wildcards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli.main import main


@pytest.fixture
def played(db_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    seats = ["--seat", "a=baseline:cost-plus", "--option", "stands=1", "--option", "days=2", "--quiet"]
    assert main(["--db", str(db_path), "play", "lemonade", *seats]) == 0
    capsys.readouterr()
    return db_path


@pytest.mark.parametrize(
    ("text", "found"), [("cost-plus", 1), ("COST-PLUS", 1), ("cost_plus", 0), ("%", 0), ("cost%plus", 0)]
)
def test_episodes_and_export_filter_players_literally(
    played: Path, capsys: pytest.CaptureFixture[str], text: str, found: int
) -> None:
    assert main(["--db", str(played), "episodes", "--player", text, "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == found
    code = main(["--db", str(played), "export", "--player", text, "--rows", "seats"])
    out, err = capsys.readouterr()
    assert (code, len(out.splitlines())) == ((0, 1) if found else (1, 0)), err
