"""Reports people can read: charts whose axes say what they show, cells that say what they are.

The deal-price chart labels its reference lines (0 the seller's cost, 1 the buyer's value) and
draws a price on an edge inside the zone; the win matrix says "2 of 6 games won", not "0.33
of 6"; a baseline is free, not a model that costs $0; the offers chart's x axis counts each
seat's own offers.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from arena.store.database import Store
from arena.tournament.charts import SCHEMA, Chart, render
from arena.tournament.report import write_report
from games.bargain.view import deal_price_chart
from tests.tournament.test_report_charts import fixed_bargain


def deal(price: int, cost: int = 10, value: int = 20) -> dict[str, Any]:
    """One bargain episode as the report's charts read it (what ``chart_data.seat_episodes`` gives)."""
    return {
        "seating": {"seller": "baseline:honest", "buyer": "baseline:bluffing"},
        "metrics": {"seller": {"price": price, "own_number": cost}, "buyer": {"own_number": value}},
    }


def test_a_deal_on_an_edge_of_the_zone_is_drawn_inside_it_and_the_edges_are_labelled() -> None:
    deals = [deal(price) for price in (10, 13, 20, 9, 22, 0, 40)]
    (chart,) = deal_price_chart([*deals, deal(10001, cost=0, value=10000)])
    rows = {row["price"]: row for row in chart["spec"]["data"]["values"]}
    drawn = {price: (row["from"], row["to"], row["where"]) for price, row in rows.items()}
    assert drawn == {
        10: (0.0, 0.1, "in the zone"),  # at the seller's cost: inside, right of the 0 line
        13: (0.3, 0.4, "in the zone"),  # 0.3 / 0.1 is not 3 in floating point
        20: (0.9, 1.0, "in the zone"),  # at the buyer's value: inside, left of the 1 line
        9: (-0.1, 0.0, "below cost"),
        22: (1.1, 1.2, "above value"),
        0: (-0.5, -0.4, "below cost"),  # further out than the axis: the outermost bin
        40: (1.4, 1.5, "above value"),
        10001: (1.0, 1.1, "above value"),  # just past the buyer's value: right of the 1 line
    }
    spec = {"$schema": SCHEMA, **chart["spec"]}
    ((_, svg, _),) = render([Chart("game-deal-prices", chart["title"], spec)])
    labels = html.unescape(svg)
    for words in ("0 (seller's cost)", "1 (buyer's value)", "-0.5 or below", "1.5 or above"):
        assert f">{words}<" in labels, words


async def test_cells_say_what_they_are_and_free_players_are_free(store: Store, tmp_path: Path) -> None:
    write_report(store, await fixed_bargain(store), tmp_path)
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    matrix = text[text.index("## Win matrix") :]
    matrix = matrix[: matrix.index("\n## ")]
    cells = re.findall(r"\| ([^|]*games won) ", matrix)
    assert len(cells) == 2 and all(re.fullmatch(r"\d+(\.5)? of 6 games won", cell) for cell in cells)
    assert not re.search(r"\d\.\d\d of \d", matrix), "a share of games is not a count of games"
    assert "games won</td>" in page
    assert ">games won<" in (tmp_path / "chart-win-matrix.svg").read_text(encoding="utf-8")
    ratings = text[text.index("| # | player |") : text.index("## How sure")]
    assert ratings.count(" | free |") == 2 and "0.0000" not in ratings, "a baseline is free, not $0"
    cost = text[text.index("## Cost") : text.index("## Inference")]
    assert cost.count(" | free | ") == 2
    cost_chart = (tmp_path / "chart-cost.svg").read_text(encoding="utf-8")
    assert ">free<" in cost_chart and "$ per episode" not in cost_chart


async def test_the_offers_chart_counts_each_seats_own_offers(store: Store, tmp_path: Path) -> None:
    write_report(store, await fixed_bargain(store), tmp_path)
    series = html.unescape((tmp_path / "chart-series.svg").read_text(encoding="utf-8"))
    assert ">the seat's own offers: 1st, 2nd, ...<" in series and ">step<" not in series
    ticks = re.findall(r'role-axis-label".*?</g>', series)[0]
    labels = re.findall(r">(\d+)</text>", ticks)
    assert labels[0] == "1" and len(labels) == len(set(labels)), f"one tick per offer: {labels}"
