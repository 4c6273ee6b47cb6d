"""A tournament report's charts: Vega-Lite specifications, rendered offline to SVG and PNG.

Rendering uses ``vl-convert-python`` (the ``charts`` extra: one 33 MB wheel, 84 MB installed,
imported in ~4 ms, no browser), imported only inside :func:`render` so nothing else pays for
it. matplotlib was the other candidate: ~170 MB with its dependencies, and an imperative API
where Vega-Lite specifications are plain JSON a game's view can hand over too
(``GameView.report_charts``). The specifications are built from the report's own tables and
from :mod:`arena.tournament.chart_data`; player names are data, never markup (vl-convert
escapes text in the SVG it writes).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.contract.game import GameDefinition
from arena.store.database import Store
from arena.tournament import chart_data
from arena.tournament.report_text import visible

VEGA_LITE = "5.21"
"""The Vega-Lite version the specifications are rendered with (pinned: same input, same SVG)."""
SCHEMA = f"https://vega.github.io/schema/vega-lite/v{VEGA_LITE.split('.')[0]}.json"
PNG_SCALE = 2.0
WIDTH = 480


class ChartsUnavailable(RuntimeError):
    """``vl-convert-python`` is not installed (``pip install 'arena[charts]'``)."""


@dataclass(frozen=True)
class Chart:
    """One chart of a report: a file name (no suffix), a caption and its Vega-Lite specification."""

    name: str
    title: str
    spec: dict[str, Any]


def _spec(title: str, body: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"$schema": SCHEMA, "title": title, "config": {"view": {"stroke": None}}, **extra, **body}


def ratings_chart(report: dict[str, Any]) -> Chart | None:
    """Each rated player's rating and 95% interval; a bound open on one side is an arrow to that side."""
    rows = chart_data.rating_rows(report)
    if not rows:
        return None
    values = [v for r in rows for v in (r["rating"], r["low"], r["high"]) if v is not None]
    low, high = min(values), max(values)
    pad = max((high - low) * 0.15, 50.0)
    edge_low, edge_high = low - pad, high + pad
    for row in rows:  # an open end runs to the axis' edge, where its arrow head sits
        row["from"] = row["low"] if row["low"] is not None else edge_low
        row["to"] = row["high"] if row["high"] is not None else edge_high
        row["arrow_at"] = {"above": edge_high, "below": edge_low}.get(row["open"])
        row["arrow"] = {"above": "triangle-right", "below": "triangle-left"}.get(row["open"])
    order = [r["player"] for r in sorted(rows, key=lambda r: (r["rank"] is None, r["rank"] or 0))]
    y = {"field": "player", "type": "nominal", "sort": order, "title": None}
    x = {"type": "quantitative", "scale": {"domain": [edge_low, edge_high], "nice": False}}
    layers = [
        {
            "mark": {"type": "rule", "strokeWidth": 2},
            "encoding": {
                "y": y,
                "x": {"field": "from", **x, "title": "rating (95% interval)"},
                "x2": {"field": "to"},
            },
        },
        {
            "transform": [{"filter": "datum.arrow != null"}],
            "mark": {"type": "point", "filled": True, "size": 120},
            "encoding": {
                "y": y,
                "x": {"field": "arrow_at", **x},
                "shape": {"field": "arrow", "type": "nominal", "scale": None},
            },
        },
        {
            "transform": [{"filter": "datum.rating != null"}],
            "mark": {"type": "point", "filled": True, "size": 80, "color": "black"},
            "encoding": {"y": y, "x": {"field": "rating", **x}},
        },
        {
            "mark": {"type": "text", "align": "left", "dx": 6, "dy": -9, "fontSize": 10},
            "encoding": {"y": y, "x": {"field": "from", **x}, "text": {"field": "label"}},
        },
    ]
    spec = _spec("Ratings with 95% intervals (arrows: open-ended)", {"layer": layers})
    spec |= {"data": {"values": rows}, "width": WIDTH}
    return Chart("ratings", "Ratings with their 95% intervals; an arrow is a bound open on that side", spec)


def win_matrix_chart(report: dict[str, Any]) -> Chart | None:
    """The win matrix as a heat map: the row player's share of wins over the column player."""
    rows = chart_data.matrix_rows(report)
    if not rows:
        return None
    players = report["win_matrix"]["players"]
    axis = {"type": "nominal", "sort": players}
    encoding = {
        "y": {"field": "player", **axis, "title": "player"},
        "x": {"field": "opponent", **axis, "title": "over", "axis": {"labelAngle": -30}},
    }
    layers = [
        {
            "mark": "rect",
            "encoding": {
                **encoding,
                "color": {
                    "field": "rate",
                    "type": "quantitative",
                    "scale": {"domain": [0, 1], "scheme": "redblue"},
                    "title": "win share",
                },
            },
        },
        {"mark": {"type": "text", "fontSize": 11}, "encoding": {**encoding, "text": {"field": "label"}}},
    ]
    side = max(120, 70 * len(players))
    spec = _spec("Win matrix (ties count half)", {"layer": layers}, width=side, height=side)
    spec["data"] = {"values": rows}
    return Chart("win-matrix", "Win matrix: the row player's share of wins over the column player", spec)


def score_chart(scores: Sequence[dict[str, Any]], players: Sequence[str]) -> Chart | None:
    """Each player's score distribution over its counted seats: a histogram per player."""
    if not scores:
        return None
    spec = _spec(
        "Score distribution per player",
        {
            "data": {"values": list(scores)},
            "mark": "bar",
            "encoding": {
                "x": {"field": "score", "type": "quantitative", "bin": {"maxbins": 30}, "title": "score"},
                "y": {"aggregate": "count", "type": "quantitative", "title": "seats"},
                "row": {"field": "player", "type": "nominal", "sort": list(players), "title": None},
                "color": {"field": "player", "type": "nominal", "sort": list(players), "legend": None},
            },
        },
        width=WIDTH,
        height=80,
    )
    return Chart("scores", "Each player's score distribution over the seats it held", spec)


def cost_chart(report: dict[str, Any]) -> Chart | None:
    """Rating against dollars per episode; free players and players without a price sit apart.

    A baseline or a person makes no model call: drawn at $0 it would look like a model that
    costs nothing, so it stands in a panel of its own as ``free``, beside any model whose
    dollars are unknown (``unpriced``, never $0).
    """
    rows = chart_data.cost_rows(report)
    if not rows:
        return None
    priced = [r for r in rows if r["priced"] and not r["free"]]
    apart = [{**r, "where": "free"} for r in rows if r["free"]]
    apart += [{**r, "where": "unpriced"} for r in rows if not r["priced"]]
    y = {"field": "rating", "type": "quantitative", "scale": {"zero": False}, "title": "rating"}
    colour = {"field": "player", "type": "nominal", "legend": {"title": None}}
    panels: list[dict[str, Any]] = []
    if priced:
        panels.append(
            {
                "data": {"values": priced},
                "width": WIDTH - 120,
                "layer": [
                    {
                        "mark": {"type": "point", "filled": True, "size": 90},
                        "encoding": {
                            "x": {
                                "field": "usd_per_episode",
                                "type": "quantitative",
                                "title": "$ per episode",
                            },
                            "y": y,
                            "color": colour,
                        },
                    },
                    {
                        "mark": {"type": "text", "align": "left", "dx": 7, "fontSize": 10},
                        "encoding": {
                            "x": {"field": "usd_per_episode", "type": "quantitative"},
                            "y": y,
                            "text": {"field": "player"},
                        },
                    },
                ],
            }
        )
    if apart:
        kinds = [kind for kind in ("free", "unpriced") if any(r["where"] == kind for r in apart)]
        x = {
            "field": "where",
            "type": "nominal",
            "sort": kinds,
            "title": "no dollars to plot",
            "axis": {"labelAngle": 0},
        }
        panels.append(
            {
                "data": {"values": apart},
                "width": 70 * len(kinds) if priced else WIDTH - 120,
                "layer": [
                    {
                        "mark": {"type": "point", "size": 90, "filled": True},
                        "encoding": {
                            "x": x,
                            "y": y,
                            "color": colour,
                            "shape": {
                                "field": "where",
                                "type": "nominal",
                                "scale": {"domain": ["free", "unpriced"], "range": ["circle", "diamond"]},
                                "legend": None,
                            },
                        },
                    },
                    {
                        "mark": {"type": "text", "align": "left", "dx": 7, "fontSize": 10},
                        "encoding": {"x": x, "y": y, "text": {"field": "player"}},
                    },
                ],
            }
        )
    spec = _spec(
        "Rating against dollars per episode", {"hconcat": panels}, resolve={"scale": {"y": "shared"}}
    )
    caption = "Rating against dollars per episode (the cost-aware frontier)"
    if any(r["where"] == "free" for r in apart):
        caption += "; players that make no model call are shown apart as free"
    if any(r["where"] == "unpriced" for r in apart):
        caption += "; players without a price are shown apart as unpriced, not at $0"
    return Chart("cost", caption, spec)


def series_chart(
    rows: Sequence[dict[str, Any]], title: str, players: Sequence[str], x_title: str = "step"
) -> Chart | None:
    """The game's ``score_series`` per player: the median over the deals, the middle half as a band.

    ``x_title`` says what a point's place counts (the game view's ``score_series_x``): bargain's
    n-th point is each seat's own n-th offer, not the episode's n-th step.
    """
    if not rows:
        return None
    colour = {"field": "player", "type": "nominal", "sort": list(players), "legend": {"title": None}}
    steps = [row["step"] for row in rows]
    # Whole numbers only: with fewer steps than ticks asked for, ticks fell between them and a
    # 1-to-3 axis read "1 2 2 3 3" (tickMinStep was not honoured); ask for at most one per step.
    ticks = max(1, min(max(steps) - min(steps), 10))
    x = {
        "field": "step",
        "type": "quantitative",
        "title": x_title,
        "axis": {"tickCount": ticks, "format": "d"},
    }
    dash = {"field": "seat", "type": "nominal", "legend": {"title": "seat"}}
    if len({row["seat"] for row in rows}) == 1:
        dash = {"value": []}
    spec = _spec(
        f"{title}: median over the deals, middle half shaded",
        {
            "data": {"values": list(rows)},
            "layer": [
                {
                    "mark": {"type": "area", "opacity": 0.15},
                    "encoding": {
                        "x": x,
                        "y": {"field": "low", "type": "quantitative"},
                        "y2": {"field": "high"},
                        "color": colour,
                        "detail": {"field": "seat", "type": "nominal"},
                    },
                },
                {
                    "mark": {"type": "line", "strokeWidth": 2},
                    "encoding": {
                        "x": x,
                        "y": {"field": "median", "type": "quantitative", "title": title},
                        "color": colour,
                        "strokeDash": dash,
                    },
                },
            ],
        },
        width=WIDTH,
    )
    return Chart("series", f"{title} per player: the median over the deals and the middle half", spec)


def report_charts(
    report: dict[str, Any], store: Store, tournament_id: int, definition: GameDefinition
) -> list[Chart]:
    """Every chart of the report: ratings, win matrix, scores, cost, the game's series and own charts."""
    players = list(report["identity"]["players"])
    found = [
        ratings_chart(report),
        win_matrix_chart(report),
        score_chart(chart_data.score_rows(store, tournament_id), players),
        cost_chart(report),
        series_chart(
            chart_data.series_rows(store, tournament_id, definition),
            type(definition.view).score_series_title,
            players,
            type(definition.view).score_series_x,
        ),
    ]
    charts = [chart for chart in found if chart is not None]
    for own in definition.view.report_charts(chart_data.seat_episodes(store, tournament_id)):
        spec = {"$schema": SCHEMA, **own["spec"]}
        charts.append(Chart(f"game-{own['name']}", str(own["title"]), spec))
    return charts


def stable_ids(svg: str, prefix: str) -> str:
    """``svg`` with its element ids renamed ``PREFIX-1``, ``PREFIX-2``... in order of appearance.

    vl-convert numbers gradients with a counter that runs for the whole process, so the same
    chart drawn twice differed; and report.html inlines several SVGs, whose ids must not clash.
    """
    found: dict[str, str] = {}
    for name in re.findall(r'\bid="([^"]+)"', svg):
        found.setdefault(name, f"{prefix}-{len(found) + 1}")
    for old, new in found.items():
        svg = svg.replace(f'id="{old}"', f'id="{new}"').replace(f"url(#{old})", f"url(#{new})")
        svg = svg.replace(f'href="#{old}"', f'href="#{new}"')
    return svg


def render(charts: Sequence[Chart]) -> list[tuple[Chart, str, bytes]]:
    """Each chart with its SVG text and PNG bytes (raises :class:`ChartsUnavailable` without vl-convert)."""
    try:
        import vl_convert
    except ImportError:
        raise ChartsUnavailable(
            "charts need vl-convert-python: pip install 'arena[charts]' (report.json and report.md"
            " are written without them)"
        ) from None
    rendered = []
    for chart in charts:
        spec = shown(chart.spec)
        svg = stable_ids(vl_convert.vegalite_to_svg(spec, vl_version=VEGA_LITE), chart.name)
        png = vl_convert.vegalite_to_png(spec, vl_version=VEGA_LITE, scale=PNG_SCALE)
        rendered.append((chart, svg, png))
    return rendered


def shown(value: Any) -> Any:
    """``value`` (a specification) with every string's control and bidi characters as escapes.

    A player's name can hold any character a model id holds: an escape character in one made
    vl-convert abort the whole process (its SVG parser panics on a non-XML character), and a
    right-to-left override would reorder the chart's labels.
    """
    if isinstance(value, str):
        return visible(value, keep_lines=True)
    if isinstance(value, dict):
        return {key: shown(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shown(item) for item in value]
    return value
