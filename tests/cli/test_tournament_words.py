"""Issue 24 item 9 for tournaments: metric names in words where a person reads them, identifiers in data.

``arena tournament table`` and ``report.md`` (which ``report.html`` holds) say "final cash"
and "ingredient cost"; ``--json`` and ``report.json`` keep ``final_cash``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli.main import PIPE_WIDTH, main
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import run_tournament

IDENTIFIERS = ("final_cash", "ingredient_cost", "wasted_cups", "gross_margin", "false_claims")
WORDS = ("final cash", "ingredient cost", "wasted cups", "gross margin", "false claims")


async def lemonade_tournament(db: Path) -> int:
    """A finished three-baseline lemonade tournament (three deal seeds of four days)."""
    store = Store(db)
    try:
        players = ("baseline:weather", "baseline:cost-plus", "baseline:profit-max")
        config = build_config(game="lemonade", players=players, seeds=3, options={"days": "4"})
        return (await run_tournament(store, config)).tournament_id
    finally:
        store.close()


async def test_the_tournament_table_names_metrics_in_words_and_its_json_keeps_identifiers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.db"
    tournament_id = await lemonade_tournament(db)
    assert main(["--db", str(db), "tournament", "table", str(tournament_id)]) == 0
    text = capsys.readouterr().out
    for words in WORDS:
        assert words in text, f"{words!r} in the table"
    for name in (*IDENTIFIERS, "provider_errors"):
        assert name not in text, f"{name!r} is an identifier"
    assert "provider errors" in text
    # Piped, the table is drawn PIPE_WIDTH wide; tests/app/test_app_widths.py draws it at 80 and 120.
    assert max(len(line) for line in text.splitlines()) <= PIPE_WIDTH, "split to fit, not squeezed"
    assert "…" not in text

    assert main(["--db", str(db), "tournament", "table", str(tournament_id), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    metrics = next(iter(table["metrics"].values()))
    assert set(IDENTIFIERS) <= set(metrics), "the JSON keeps the identifiers"


async def test_the_report_names_metrics_in_words_and_report_json_keeps_identifiers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.db"
    tournament_id = await lemonade_tournament(db)
    out = tmp_path / "report"
    assert main(["--db", str(db), "tournament", "report", str(tournament_id), "--out", str(out)]) == 0
    capsys.readouterr()
    markdown = (out / "report.md").read_text(encoding="utf-8")
    own = markdown[markdown.index("## Each player's own metrics") :]
    own = own[: own.index("\n## ", 1)]
    for words in WORDS:
        assert words in own, f"{words!r} in report.md's metrics"
    for name in IDENTIFIERS:
        assert name not in own, f"{name!r} is an identifier"
    assert "final cash" in (out / "report.html").read_text(encoding="utf-8"), "the page holds report.md"
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    metrics = next(iter(report["metrics"].values()))
    assert set(IDENTIFIERS) <= set(metrics), "report.json keeps the identifiers"
