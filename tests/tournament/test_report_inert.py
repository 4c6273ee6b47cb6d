"""Untrusted text stays inert in report.md, report.html and the charts.

A tournament plays through the real openai SDK against the wire server, whose replies name a
hostile model id and fingerprint (``<script>``, ``<img onerror>``, an escape sequence, a
right-to-left override); one player is an ``openai-compat`` spec with such a model id, the
other's models-file name would be emphasis, and the tournament's name holds a link, code and
a terminal hyperlink.
report.md must render as that text (no raw HTML, even where a renderer lets HTML through),
report.html must hold it HTML-escaped, and no control or bidi character may appear raw.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.report import write_report
from arena.tournament.report_text import code_span, fenced, markdown_text, visible
from arena.tournament.run import run_tournament
from players.models import ModelsConfig
from tests.support.modelkit import CANARY_KEY, KEY_ENV, settings_for
from tests.support.wire_server import WireServer, reply

STAND = {"price": 2.5, "produce": 20, "promotion": "none", "reason": "steady"}
SERVED = "<script>alert(1)</script>\x1b[31mred\u202eevil"
FINGERPRINT = "<img src=x onerror=alert(2)>"
PLAYER = "_m_"  # a models-file name is letters, digits, - _ and . only: emphasis if not escaped
MODEL = "<script>alert(4)</script>\u202e\x1b[31m"
"""A model id in an ``openai-compat:MODEL@URL`` spec: the player's name in every table and chart."""
NAME = "t [click](javascript:alert(3)) `x` \x1b]8;;http://evil\x07link"
HIDDEN = ("\x1b", "\x07", "\u202e")
RAW = ("<script", "<img", *HIDDEN)


@pytest.fixture
def wire() -> Iterator[WireServer]:
    with WireServer() as server:
        yield server


async def hostile_report(store: Store, wire: WireServer, monkeypatch: pytest.MonkeyPatch, out: Path) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    wire.script(*[reply(STAND, served_model=SERVED, system_fingerprint=FINGERPRINT) for _ in range(4)])
    wire.models = [*wire.models, MODEL]
    models = ModelsConfig(models={PLAYER: settings_for("openai-chat", wire)})
    compat = f"openai-compat:{MODEL}@{wire.openai_url}"
    config = build_config(game="lemonade", players=(PLAYER, compat), seeds=1, options={"days": 1}, name=NAME)
    progress = await run_tournament(store, config, models_config=models)
    assert progress.status == "finished"
    write_report(store, progress.tournament_id, out)


async def test_hostile_model_ids_and_names_are_inert_in_every_report_file(
    store: Store, wire: WireServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    await hostile_report(store, wire, monkeypatch, tmp_path)
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "served by: model" in text and "alert(1)" in text, "the served model id is reported"
    for raw in HIDDEN:
        assert raw not in text, f"{raw!r} reaches report.md raw"
    assert "\\<script\\>alert(1)\\</script\\>\\\\u001b\\[31mred\\\\u202eevil" in text
    # Markup is escaped (or in a code span): even a renderer that lets raw HTML through finds none.
    permissive = MarkdownIt("commonmark", {"html": True}).enable("table").render(text)
    assert "<script" not in permissive
    assert all(tag.startswith('<img src="chart-') for tag in re.findall(r"<img\b[^>]*>", permissive))
    assert "javascript:" not in re.findall(r'href="([^"]*)"', permissive)
    assert "<em>m</em>" not in permissive and "<td>_m_</td>" in permissive
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page.count("<svg") == len(list(tmp_path.glob("chart-*.svg"))) == 5 and 'src="' not in page
    for raw in RAW:
        assert raw not in page, f"{raw!r} reaches report.html raw"
    assert "&lt;script&gt;alert(1)&lt;/script&gt;\\u001b[31mred\\u202eevil" in page
    assert "&lt;img src=x onerror=alert(2)&gt;" in page
    for svg in tmp_path.glob("chart-*.svg"):
        drawn = svg.read_text(encoding="utf-8")
        assert "\x1b" not in drawn and "\u202e" not in drawn, svg.name


async def test_report_html_renders_every_section_of_report_md(
    store: Store, wire: WireServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    await hostile_report(store, wire, monkeypatch, tmp_path)
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    assert len(headings) >= 10 and "Cost" in headings and "Appendix D: installed packages" in headings
    for heading in headings:
        assert f"<h2>{heading}</h2>" in page, heading
    assert "<pre>" not in page.split("<h2>Appendix A")[0], "no section is left as raw Markdown"
    assert page.count("<table>") >= 5  # ratings, order, win matrix, cost, failures
    assert "<li>first to move: a and b together" in page


def test_text_helpers_escape_markup_and_show_hidden_characters() -> None:
    assert visible("a\x1bb\u202ec\u200bd\ne") == "a\\u001bb\\u202ec\\u200bd e"
    assert markdown_text("gpt_4 _x_ *y* [l](u) <b>&amp; a|b ~~s~~ `c` \\") == (
        "gpt_4 \\_x\\_ \\*y\\* \\[l\\](u) \\<b\\>\\&amp; a\\|b \\~\\~s\\~\\~ \\`c\\` \\\\"
    )
    assert code_span("a`b") == "`` a`b ``" and code_span("{}") == "`{}`"
    assert fenced("x\n```\ny\x1b") == ["````text", "x", "```", "y\\u001b", "````"]
