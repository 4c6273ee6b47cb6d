"""``report.html``: report.md rendered as one self-contained page (no script, nothing fetched).

Every section of report.md becomes HTML through markdown-it-py (CommonMark with tables), with
raw HTML turned off: a ``<script>`` in a model id is shown as text even if it slipped past
report.md's own escaping. Each chart report.md embeds as ``chart-NAME.svg`` is drawn inline
from the SVG vl-convert wrote (it escapes the text in it); any other image is shown as its
words, so the page loads nothing from beside it or from the network.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from arena.tournament.report_text import visible

STYLE = (
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}"
    ".chart{display:block;margin:1.5em 0}"
    "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 8px}"
    "pre{white-space:pre-wrap;background:#f6f6f6;padding:1em}"
)


def report_html(report: dict[str, Any], charts: Mapping[str, str], markdown_text: str) -> str:
    """The page: report.md's every section as HTML, the charts (file name without suffix -> SVG) inline."""
    ident = report["identity"]
    title = visible(f"Tournament {ident['tournament_id']}: {ident['name']}")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        markdown_renderer(charts).render(markdown_text),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def markdown_renderer(charts: Mapping[str, str]) -> MarkdownIt:
    """CommonMark with tables and no raw HTML, drawing ``chart-NAME.svg`` images inline from ``charts``."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def image(
        renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        token = tokens[idx]
        source = str(token.attrGet("src") or "")
        words = escape(renderer.renderInlineAsText(token.children or [], options, env))
        svg = charts.get(source.removesuffix(".svg")) if source.endswith(".svg") else None
        if svg is None:
            return words  # nothing is fetched: an image that is not one of the charts is its words
        return f'<span class="chart" role="img" aria-label="{words}">{svg}</span>'

    md.add_render_rule("image", image)
    return md
