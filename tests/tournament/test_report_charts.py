"""The report's charts on real tournaments: golden SVGs, the files report.md and report.html embed,
unpriced players apart from $0, each game's own charts, and the chart library loaded only when drawing.

Regenerate the golden SVGs (only when a chart is meant to change) with
``ARENA_WRITE_GOLDEN_CHARTS=1 .venv/bin/pytest tests/tournament/test_report_charts.py``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.plugins.games import get_game
from arena.store.database import Store
from arena.tournament import chart_data
from arena.tournament.charts import cost_chart, ratings_chart, render, report_charts, win_matrix_chart
from arena.tournament.config import build_config
from arena.tournament.report import build_report, markdown, write_report
from arena.tournament.run import run_tournament
from tests.support.wire_server import WireServer
from tests.tournament.test_disclosure import unpriced_tournament

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "charts"


async def fixed_bargain(store: Store) -> int:
    config = build_config(game="bargain", players=("baseline:honest", "baseline:bluffing"), seeds=3, seed=4)
    progress = await run_tournament(store, config)
    assert progress.status == "finished"
    return progress.tournament_id


@pytest.fixture
def wire() -> Iterator[WireServer]:
    with WireServer() as server:
        yield server


async def test_the_charts_of_a_fixed_tournament_match_the_golden_svgs(store: Store) -> None:
    tournament_id = await fixed_bargain(store)
    report = build_report(store, tournament_id)
    charts = report_charts(report, store, tournament_id, get_game("bargain"))
    drawn = {chart.name: svg for chart, svg, _ in render(charts)}
    assert set(drawn) == {"ratings", "win-matrix", "scores", "cost", "series", "game-deal-prices"}
    again = {chart.name: svg for chart, svg, _ in render(charts)}
    assert again == drawn, "vl-convert draws the same SVG for the same specification"
    if os.environ.get("ARENA_WRITE_GOLDEN_CHARTS"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        for name, svg in drawn.items():
            (GOLDEN / f"{name}.svg").write_text(svg, encoding="utf-8")
    for name, svg in drawn.items():
        assert svg == (GOLDEN / f"{name}.svg").read_text(encoding="utf-8"), f"chart {name} changed"


async def test_the_report_writes_every_chart_as_svg_and_png_and_embeds_them(
    store: Store, tmp_path: Path
) -> None:
    paths = write_report(store, await fixed_bargain(store), tmp_path)
    names = {p.name for p in paths}
    svgs = sorted(n for n in names if n.endswith(".svg"))
    assert len(svgs) == 6 and all(n.removesuffix(".svg") + ".png" in names for n in svgs)
    assert {"report.json", "report.md", "report.html"} <= names
    assert all(p.exists() and p.stat().st_size > 0 for p in paths)
    assert (tmp_path / "chart-ratings.png").read_bytes().startswith(b"\x89PNG")
    text = (tmp_path / "report.md").read_text()
    assert set(re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)) == set(svgs), "report.md embeds every SVG"
    page = (tmp_path / "report.html").read_text()
    assert page.count("<svg") == 6 and "<script" not in page and 'src="' not in page, "self-contained"
    assert "## Win matrix" in text and "| baseline:honest | baseline:bluffing |" in text.replace(
        "player | ", ""
    )


async def test_report_md_says_in_words_what_it_printed_as_python_values(store: Store, tmp_path: Path) -> None:
    write_report(store, await fixed_bargain(store), tmp_path, charts=False)
    text = (tmp_path / "report.md").read_text()
    assert "- first to move: seller;" in text and "; no budget" in text
    assert "- episodes by status: finished 6" in text
    assert "budget None" not in text and "['" not in text and "{'" not in text
    assert "Not drawn: not asked for." in text and not list(tmp_path.glob("*.svg"))


async def test_an_unpriced_model_is_drawn_apart_as_unpriced_and_a_baseline_as_free_never_at_zero_dollars(
    store: Store, wire: WireServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = build_report(store, await unpriced_tournament(store, wire, monkeypatch))
    rows = {row["player"]: row for row in chart_data.cost_rows(report)}
    assert rows["m"]["priced"] is False and rows["m"]["usd_per_episode"] is None
    assert rows["baseline:weather"]["priced"] is True and rows["baseline:weather"]["usd_per_episode"] == 0.0
    assert (rows["baseline:weather"]["free"], rows["m"]["free"]) == (True, False)
    chart = cost_chart(report)
    assert chart is not None and "unpriced" in chart.title and "free" in chart.title
    (apart,) = chart.spec["hconcat"]  # nobody has a price to plot: no $ axis at all
    assert [(r["player"], r["where"]) for r in apart["data"]["values"]] == [
        ("baseline:weather", "free"),
        ("m", "unpriced"),
    ]
    svg = render([chart])[0][1]
    assert ">free<" in svg and ">unpriced<" in svg and "$ per episode" not in svg


async def test_lemonade_draws_cash_by_day_as_a_median_and_band_over_deals(store: Store) -> None:
    config = build_config(
        game="lemonade", players=("baseline:weather", "baseline:cost-plus"), seeds=3, options={"days": 4}
    )
    tournament_id = (await run_tournament(store, config)).tournament_id
    rows = chart_data.series_rows(store, tournament_id, get_game("lemonade"))
    weather = [r for r in rows if r["player"] == "baseline:weather" and r["seat"] == "a"]
    assert [r["step"] for r in weather] == [0, 1, 2, 3, 4], "the start and after each of 4 days"
    assert {r["seat"] for r in rows} == {"a", "b"} and all(r["deals"] == 3 for r in rows), "3 deals a seat"
    assert all(r["low"] <= r["median"] <= r["high"] for r in rows)
    assert len({r["median"] for r in weather}) > 1, "cash moves over the days"


async def test_paperclip_charts_accuracy_by_tier_and_dimension(store: Store) -> None:
    config = build_config(game="paperclip", players=("baseline:oracle", "baseline:sloppy"), seeds=2)
    tournament_id = (await run_tournament(store, config)).tournament_id
    episodes = chart_data.seat_episodes(store, tournament_id)
    (own,) = get_game("paperclip").view.report_charts(episodes)
    rows = own["spec"]["data"]["values"]
    assert {r["axis"] for r in rows} == {"tier", "dimensions"}
    oracle = [r["accuracy"] for r in rows if r["player"] == "baseline:oracle"]
    assert oracle and all(a == 1.0 for a in oracle), "the oracle is always right"


async def test_cattle_charts_set_progress_over_turns(store: Store) -> None:
    config = build_config(game="cattle", players=("baseline:tracker", "baseline:set-racer"), seeds=1)
    tournament_id = (await run_tournament(store, config)).tournament_id
    rows = chart_data.series_rows(store, tournament_id, get_game("cattle"))
    assert {r["player"] for r in rows} == {"baseline:tracker", "baseline:set-racer"}
    assert max(r["step"] for r in rows) > 5
    assert {r["seat"] for r in rows} == {"any seat"}, "cattle's seats are alike: pooled"


async def test_a_role_games_series_is_drawn_per_seat_not_pooled(store: Store) -> None:
    rows = chart_data.series_rows(store, await fixed_bargain(store), get_game("bargain"))
    assert {(r["player"], r["seat"]) for r in rows if r["step"] == 1} == {
        (player, seat) for player in ("baseline:honest", "baseline:bluffing") for seat in ("seller", "buyer")
    }, "a seller's asks and a buyer's bids are separate lines"


def test_the_chart_library_loads_only_when_charts_are_drawn() -> None:
    code = (
        "import sys, json, arena.cli.main, arena.tournament.report\n"
        "print(json.dumps([m for m in ('vl_convert', 'arena.tournament.charts') if m in sys.modules]))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == []


async def test_a_catalogue_game_gets_the_generic_charts(store: Store, tmp_path: Path) -> None:
    pytest.importorskip("pyspiel")
    config = build_config(game="openspiel:tic_tac_toe", players=("baseline:mcts", "baseline:random"), seeds=2)
    tournament_id = (await run_tournament(store, config)).tournament_id
    names = {p.name for p in write_report(store, tournament_id, tmp_path)}
    assert {"chart-ratings.svg", "chart-win-matrix.svg", "chart-scores.svg", "chart-cost.svg"} <= names
    assert "report.html" in names and not any(n.startswith("chart-game-") for n in names)


async def test_a_player_name_is_text_in_the_svg_and_the_page_never_markup(store: Store) -> None:
    from arena.tournament.report_html import report_html

    report = build_report(store, await fixed_bargain(store))
    hostile = "<script>alert(1)</script>"
    for row in report["players"]:
        if row["player"] == "baseline:honest":
            row["player"] = hostile
    report["win_matrix"]["players"] = [
        hostile if p == "baseline:honest" else p for p in report["win_matrix"]["players"]
    ]
    charts = [c for c in (ratings_chart(report), win_matrix_chart(report)) if c is not None]
    svgs = [svg for _, svg, _ in render(charts)]
    assert all("<script" not in svg and "&lt;script&gt;" in svg for svg in svgs)
    page = report_html(report, {"chart-ratings": svgs[0]}, markdown(report, [("chart-ratings", "ratings")]))
    assert "<script" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
