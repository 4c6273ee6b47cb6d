"""``report.html``: one self-contained page (no script, no file or network fetch) with every chart.

The charts are inlined as the SVG vl-convert wrote (it escapes their text); the ratings table,
the win matrix and the whole of report.md follow as escaped HTML, so player names and model
text can never become markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from arena.tournament.wording import interval_text, rating_text

STYLE = (
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}"
    "figure{margin:1.5em 0}figcaption{font-style:italic;color:#555}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
    "td:first-child,th:first-child{text-align:left}pre{white-space:pre-wrap;background:#f6f6f6;padding:1em}"
)


def report_html(report: dict[str, Any], charts: Sequence[tuple[str, str]], markdown_text: str) -> str:
    """The page: title, ratings and win matrix tables, each (caption, SVG) chart, then report.md."""
    ident = report["identity"]
    title = f"Tournament {ident['tournament_id']}: {ident['name']}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>game {escape(ident['game'])}, {ident['episodes_finished']} of {ident['episodes_planned']}"
        f" episodes counted, {ident['seeds']} deal seeds</p>",
        "<h2>Ratings</h2>",
        _ratings(report),
        "<h2>Win matrix</h2>",
        _matrix(report["win_matrix"]),
        "<h2>Charts</h2>",
    ]
    for caption, svg in charts:
        parts.append(f"<figure>{svg}<figcaption>{escape(caption)}</figcaption></figure>")
    parts += ["<h2>The full report (report.md)</h2>", f"<pre>{escape(markdown_text)}</pre>", "</body></html>"]
    return "\n".join(parts) + "\n"


def _ratings(report: dict[str, Any]) -> str:
    rows = ["<table><tr><th>player</th><th>rating</th><th>95% interval</th><th>episodes</th></tr>"]
    for row in report["players"]:
        rows.append(
            f"<tr><td>{escape(str(row['player']))}</td><td>{escape(rating_text(row))}</td>"
            f"<td>{escape(interval_text(row))}</td><td>{row['episodes']}</td></tr>"
        )
    return "".join(rows) + "</table>"


def _matrix(matrix: dict[str, Any]) -> str:
    players = matrix["players"]
    head = "".join(f"<th>{escape(str(p))}</th>" for p in players)
    rows = [f"<table><tr><th>player</th>{head}</tr>"]
    for i, player in enumerate(players):
        cells = []
        for j in range(len(players)):
            rate = matrix["rate"][i][j]
            text = (
                "" if i == j else "never met" if rate is None else f"{rate:.2f} of {matrix['games'][i][j]:g}"
            )
            cells.append(f"<td>{text}</td>")
        rows.append(f"<tr><td>{escape(str(player))}</td>{''.join(cells)}</tr>")
    return "".join(rows) + "</table>"
