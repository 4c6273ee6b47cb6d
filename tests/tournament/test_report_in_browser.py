"""report.html opens in a real headless Chromium with every chart drawn.

The page is a file on disk (self-contained: no script, nothing fetched). Each inline SVG must
be visible with a chart's size, and its screenshot must differ from the same place with the
chart hidden: a PNG of one flat colour inflates to filter bytes that are almost all zero, a
drawn chart's are not.
"""

from __future__ import annotations

import asyncio
import struct
import zlib
from pathlib import Path

import pytest

from arena.store.database import Store
from arena.tournament.report import write_report
from tests.support.browser import VIEWPORT, chromium, chromium_missing
from tests.tournament.test_report_charts import fixed_bargain

MISSING = chromium_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")


def drawn_share(png: bytes) -> float:
    """The share of a PNG's inflated, filtered pixel bytes that are not zero (0 for a flat image)."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    data, at = b"", 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind = png[at + 4 : at + 8]
        if kind == b"IDAT":
            data += png[at + 8 : at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(data)
    return sum(byte != 0 for byte in raw) / len(raw)


def test_report_html_shows_every_chart_in_a_browser(tmp_path: Path) -> None:
    store = Store(tmp_path / "arena.db")
    try:
        tournament_id = asyncio.run(fixed_bargain(store))
        write_report(store, tournament_id, tmp_path / "report")
    finally:
        store.close()
    page_file = tmp_path / "report" / "report.html"
    with chromium() as browser:
        page = browser.new_page(viewport={"width": VIEWPORT["width"], "height": VIEWPORT["height"]})
        page.goto(page_file.as_uri())
        charts = page.locator("svg")
        assert charts.count() == 6
        for index in range(charts.count()):
            chart = charts.nth(index)
            chart.scroll_into_view_if_needed()
            assert chart.is_visible(), f"chart {index} is not shown"
            box = chart.bounding_box()
            assert box is not None and box["width"] >= 150 and box["height"] >= 80, (index, box)
            share = drawn_share(chart.screenshot())
            # the same place with the chart hidden: what the page shows there without it
            chart.evaluate("svg => { svg.style.opacity = '0'; }")
            blank = drawn_share(chart.screenshot())
            chart.evaluate("svg => { svg.style.opacity = ''; }")
            assert share > 3 * blank + 0.005, f"chart {index} looks blank ({share:.3f} against {blank:.3f})"
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        assert (tmp_path / "report.png").stat().st_size > 0
