"""Tournament tables and the leaderboard as Rich renderables, for the CLI and the app alike."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from arena.contract.labels import label
from arena.display.fitted import FittedTable
from arena.display.sanitize import plain_text
from arena.plugins.players import short_names
from arena.tournament.intervals import ROUGH_BELOW
from arena.tournament.standings import FAILURE_KEYS, FALLBACK_NOTE, fallback_cell
from arena.tournament.wording import (
    SURE_NOTE,
    gap_text,
    groups_note,
    interval_text,
    prior_note,
    probability_text,
    rating_text,
    rough_note,
    separation_text,
)


def fmt(value: Any, digits: int = 2) -> str:
    """A number for a table cell; ``-`` for missing."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return plain_text(str(value))


def render_table(table: dict[str, Any]) -> RenderableType:
    """Ratings (one table per connected group), metric means, order confidence, failures, left out."""
    info = table["tournament"]
    ratings_info = table["ratings"]
    method = _method_text(ratings_info) if ratings_info else "no finished episodes yet"
    title = (
        f"tournament {info['id']} · {info['game']} · {info['counted']}/{info['slots']} episodes counted"
        f" · {info['deal_seeds']} deal seeds · {method}"
    )
    parts: list[RenderableType] = [Text(plain_text(title), style="bold")]
    for note in (rough_note(ratings_info), groups_note(ratings_info)):
        if note:
            parts.append(Text(plain_text(note), style="yellow"))
    names = short_names([*(row["player"] for row in table["players"]), *table["failures"]["per_player"]])
    groups = sorted({row.get("group") for row in table["players"]}, key=lambda g: (g is None, g or 0))
    for group in groups:
        rows = [row for row in table["players"] if row.get("group") == group]
        parts.append(FittedTable(_ratings_table(rows, group, len(groups), names), lead=2))
    if note := prior_note(ratings_info):
        parts.append(Text(note, style="dim"))
    if ratings_info and ratings_info.get("openskill"):
        parts.append(FittedTable(_openskill_table(ratings_info["openskill"], names)))
    for sweep in table.get("sweeps") or []:
        parts.append(FittedTable(_sweep_table(sweep, table["players"], names), lead=2))
    parts.append(_metrics_table(table, names))
    if table["order_confidence"]:
        parts.append(FittedTable(_order_table(table["order_confidence"], names), lead=2))
    parts.append(FittedTable(_failure_table(table, names)))
    if table["left_out"] or info["not_played"] or info["given_up"]:
        by_status = Counter(item["status"] for item in table["left_out"])
        counts = ", ".join(f"{n} {status}" for status, n in by_status.items()) or "none"
        parts.append(
            Text(
                f"left out: {counts}; slots not played: {info['not_played']}; given up: {info['given_up']}"
                " (only finished episodes count)"
            )
        )
    return Group(*parts)


def _sweep_table(sweep: dict[str, Any], players: list[dict[str, Any]], names: Mapping[str, str]) -> Table:
    """One model across its reasoning settings: rating (worded as the ratings table words it, a
    swept pair's bound included) against reasoning tokens and dollars."""
    rows = {row["player"]: row for row in players}
    title = f"effort sweep: {sweep['model']} (fewest reasoning tokens per decision first)"
    out = Table(title=plain_text(title), header_style="bold")
    for name in ("player", "level", "rating", "interval", "reasoning tokens / decision", "$/episode"):
        out.add_column(name, justify="left" if name in ("player", "level") else "right")
    for level in sweep["levels"]:
        row = rows.get(level["player"], {"rating": None})
        tokens, dollars = level["reasoning_tokens_per_decision"], level["usd_per_episode"]
        out.add_row(
            _shown(names, level["player"]),
            plain_text(level["level"]),
            plain_text(rating_text(row)),
            plain_text(interval_text(row)),
            "-" if tokens is None else f"{tokens:,.1f}",
            "unpriced" if dollars is None else f"{dollars:.4f}",
        )
    return out


def _shown(names: Mapping[str, str], player: str) -> str:
    """A player's name as a table cell: short (:func:`arena.plugins.players.short_names`) and plain."""
    return plain_text(names.get(player, player))


def _order_table(rows: list[dict[str, Any]], names: Mapping[str, str]) -> Table:
    """The order-confidence rows: each neighbouring pair, its gap, how sure (1 - q), what would settle it."""
    sure = Table(title="how sure is the order?", header_style="bold", caption=SURE_NOTE)
    for name in ("higher", "lower", "gap", "sure", "to separate at 95%"):
        sure.add_column(name, justify="right" if name not in ("higher", "lower") else "left")
    for row in rows:
        sure.add_row(
            _shown(names, row["higher"]),
            _shown(names, row["lower"]),
            gap_text(row),
            probability_text(row.get("sure", row["p_order_right"])),
            separation_text(row),
        )
    return sure


def render_leaderboard(board: dict[str, Any]) -> RenderableType:
    """The games and their weights, the combined ratings with each game's own beside, the order."""
    info = board["leaderboard"]
    games = [game["game"] for game in info["games"]]
    ids = ", ".join(str(t["id"]) for t in info["tournaments"])
    title = (
        f"leaderboard · {len(games)} game{'s' if len(games) != 1 else ''} · tournaments {ids} ·"
        " Bradley-Terry, each game weighted equally, 95% intervals resampling deal seeds within each game"
    )
    parts: list[RenderableType] = [Text(plain_text(title), style="bold")]
    parts.append(FittedTable(_games_table(info["games"])))
    ratings = board["ratings"]
    notes = [rough_note(ratings), groups_note(ratings)]
    rough = [f"{g['game']} ({g['deal_seeds']})" for g in info["games"] if g["deal_seeds"] < ROUGH_BELOW]
    if rough:
        notes.append(
            f"per-game intervals from fewer than {ROUGH_BELOW} deal seeds are rough: {', '.join(rough)}"
        )
    if any(row["player"] != row["name"] for row in board["players"]):
        notes.append("name [cfg HEX]: one name, different configurations, so different players")
    for note in notes:
        if note:
            parts.append(Text(plain_text(note), style="yellow"))
    names = short_names(row["player"] for row in board["players"])
    groups = sorted({row.get("group") for row in board["players"]}, key=lambda g: (g is None, g or 0))
    for group in groups:
        rows = [row for row in board["players"] if row.get("group") == group]
        parts.append(FittedTable(_leaderboard_table(rows, games, group, len(groups), names), lead=2))
    parts.append(Text(plain_text(info["per_game"]), style="dim"))
    if note := prior_note(ratings):
        parts.append(Text(note, style="dim"))
    if board["order_confidence"]:
        parts.append(FittedTable(_order_table(board["order_confidence"], names), lead=2))
    return Group(*parts)


def _games_table(games: list[dict[str, Any]]) -> Table:
    table = Table(title="games (each weighs the same)", header_style="bold")
    for name in ("game", "tournaments", "episodes", "deal seeds", "comparisons", "scaled by"):
        table.add_column(name, justify="left" if name in ("game", "tournaments") else "right")
    for game in games:
        table.add_row(
            plain_text(game["game"]),
            ", ".join(str(t) for t in game["tournaments"]),
            str(game["episodes"]),
            str(game["deal_seeds"]),
            f"{game['comparisons']:.0f}",
            f"×{game['weight']:.3g}",
        )
    return table


def _leaderboard_table(
    rows: list[dict[str, Any]], games: list[str], group: int | None, groups: int, names: Mapping[str, str]
) -> Table:
    whole = "leaderboard (95% interval), and each game's own rating"
    table = Table(title=_rated_title("leaderboard", group, groups, whole), header_style="bold")
    for name in ("#", "player", "rating", "interval", "fallback", "episodes", *games):
        table.add_column(
            plain_text(name), justify="left" if name == "player" else "right", no_wrap=name == "player"
        )
    for row in rows:
        rank = row.get("rank")
        cells = [_own_cell(row["per_game"].get(game)) for game in games]
        table.add_row(
            "-" if rank is None else str(rank),
            _shown(names, row["player"]),
            plain_text(rating_text(row)) + (" !" if row.get("fallback_heavy") else ""),
            interval_text(row),
            fallback_cell(row),
            str(row["episodes"]),
            *cells,
        )
    if any(row.get("fallback_heavy") for row in rows):
        table.caption = FALLBACK_NOTE
    return table


def _own_cell(own: dict[str, Any] | None) -> str:
    """A game's own rating of a player: ``974 (945..1006)``, a bound, ``-`` (unrated) or ``not played``."""
    if own is None:
        return "not played"
    interval = interval_text(own)
    return plain_text(rating_text(own)) + ("" if interval == "-" else f" ({interval})")


def _rated_title(noun: str, group: int | None, groups: int, whole: str) -> str:
    """A ratings table's title: unrated, one of several groups (not comparable across), or ``whole``."""
    if group is None:
        return "no finished games: not rated"
    if groups > 1:
        return f"{noun}, group {group} (95% interval; comparable within this group only)"
    return whole


def _method_text(ratings: dict[str, Any]) -> str:
    name = "Plackett-Luce" if ratings.get("method") == "plackett-luce" else "Bradley-Terry"
    return f"{name}, 95% seed-bootstrap intervals (expanded for small samples)"


def _ratings_table(
    rows: list[dict[str, Any]], group: int | None, groups: int, names: Mapping[str, str]
) -> Table:
    title = _rated_title("ratings", group, groups, "ratings (95% interval)")
    ratings = Table(title=title, header_style="bold")
    for name in ("#", "player", "rating", "interval", "fallback", "episodes", "W", "D", "L", "$/episode"):
        ratings.add_column(name, justify="left" if name == "player" else "right", no_wrap=name == "player")
    heavy = False
    for row in rows:
        rank = row.get("rank")
        heavy = heavy or bool(row.get("fallback_heavy"))
        ratings.add_row(
            "-" if rank is None else str(rank),
            _shown(names, row["player"]),
            plain_text(rating_text(row)) + (" !" if row.get("fallback_heavy") else ""),
            interval_text(row),
            fallback_cell(row),
            str(row["episodes"]),
            str(row["wins"]),
            str(row["draws"]),
            str(row["losses"]),
            usd_cell(row),
        )
    if heavy:
        ratings.caption = FALLBACK_NOTE
    return ratings


def usd_cell(row: dict[str, Any]) -> str:
    """A ratings row's dollars per episode: ``unpriced`` for a model with no price, ``free`` for a
    player that made no model call (a baseline; the table marks it ``free``), ``-`` for none."""
    if row.get("unpriced"):
        return "unpriced"
    return "free" if row.get("free") else fmt(row.get("usd_per_episode"), 4)


def _openskill_table(openskill: dict[str, Any], names: Mapping[str, str]) -> Table:
    pl = Table(title=f"{openskill['label']}: mu, mu ± 1.96 sigma", header_style="bold")
    for name in ("player", "mu", "mu ± 1.96 sigma", "sigma", "games"):
        pl.add_column(name, justify="left" if name == "player" else "right", no_wrap=name == "player")
    for row in openskill["rows"]:
        pl.add_row(
            _shown(names, row["player"]),
            fmt(row["mu"]),
            f"{fmt(row['low'])}..{fmt(row['high'])}",
            fmt(row["sigma"]),
            str(row["games"]),
        )
    return pl


def _metrics_table(table: dict[str, Any], names: Mapping[str, str]) -> RenderableType:
    """What a win means, each player's own metrics (per seat where seats differ), the deals' facts."""
    parts: list[RenderableType] = []
    if table.get("outcome_rule"):
        parts.append(Text(plain_text("wins, draws and losses: " + table["outcome_rule"]), style="dim"))
    parts.append(_own_metrics_table(table, names))
    parts += _deal_facts(table)
    return Group(*parts)


DEFAULT_SHARES = ("same_as_fallback_rate", "first_option_rate")
"""Metrics every tournament's metrics table shows where a model recorded them."""


def _chosen(table: dict[str, Any], present: set[str]) -> list[str]:
    """The game's summary metrics among ``present`` (all of them, sorted, if it names none of them).

    A model's shares of own decisions equal to the fallback or the first listed option follow
    wherever recorded: "legal" is not "chose" (issue 47.5).
    """
    summary = [n for n in table["summary_metrics"] if n != "fallbacks" and n in present]
    if not summary:
        return sorted(present)
    return summary + [n for n in DEFAULT_SHARES if n in present and n not in summary]


def _cell(summary: dict[str, Any] | None) -> str:
    if summary is None:
        return "-"
    text = _interval(summary["mean"], summary["low"], summary["high"])
    return f"{text} ~" if summary.get("rough") and summary["low"] is not None else text


ROUGH_METRIC = "~ a skewed metric (per-seed skewness beyond 1): its interval is rough, not a dependable 95%"


def _own_metrics_table(table: dict[str, Any], shown: Mapping[str, str]) -> FittedTable:
    present = {name for by_metric in table["metrics"].values() for name in by_metric} - {"score"}
    names = ["score", *_chosen(table, present)]
    by_seat: dict[str, dict[str, dict[str, Any]]] = table.get("metrics_by_seat") or {}
    split = any(len(seats) > 1 for seats in by_seat.values())
    title = "each player's own metrics: mean (95% interval)" + (", all seats and per seat" if split else "")
    metrics = Table(title=title, header_style="bold")
    metrics.add_column("player", no_wrap=True)
    if split:
        metrics.add_column("seat", no_wrap=True)
    for name in names:  # identifiers (final_cash) in the JSON; words (final cash) on the screen
        metrics.add_column(plain_text(label(name)), justify="right")
    for row in table["players"]:
        player = row["player"]
        own = table["metrics"].get(player, {})
        seats = by_seat.get(player, {}) if split else {}
        lead = [_shown(shown, player), "all"] if split else [_shown(shown, player)]
        metrics.add_row(*lead, *(_cell(own.get(name)) for name in names))
        for seat, found in seats.items() if len(seats) > 1 else ():
            metrics.add_row("", plain_text(seat), *(_cell(found.get(name)) for name in names))
    cells = [s for by_metric in table["metrics"].values() for s in by_metric.values()]
    if any(s.get("rough") and s.get("low") is not None for s in cells):
        metrics.caption = ROUGH_METRIC
    return FittedTable(metrics, lead=2 if split else 1)


def _deal_facts(table: dict[str, Any]) -> list[RenderableType]:
    """The facts of the deals (shared by the sides of one): over all deals, per line-up, dealt numbers."""
    facts = table.get("deal_facts") or {}
    everything = facts.get("all") or {}
    names = _chosen(table, set(facts.get("metrics") or ()))
    parts: list[RenderableType] = []
    if names:
        title = (
            "facts of the deals (shared by the sides of a deal, not a player's metric): mean (95% interval)"
        )
        result = Table(title=title, header_style="bold")
        seats = " v ".join(table["tournament"].get("seats") or ())
        result.add_column(f"line-up ({plain_text(seats)})" if seats else "line-up")
        result.add_column("episodes", justify="right")
        for name in names:
            result.add_column(plain_text(label(name)), justify="right")
        groups = [("all deals", everything)] + [
            (" v ".join(group["seating"].values()), group) for group in facts.get("by_lineup") or ()
        ]
        for lineup, group in groups:
            found = group["metrics"]
            result.add_row(plain_text(lineup), str(group["episodes"]), *(_cell(found.get(n)) for n in names))
        parts.append(FittedTable(result, lead=2))
    dealt = _chosen(table, set(facts.get("dealt") or ()))
    for name in dealt:
        by_seat = everything.get("by_seat") or {}
        cells = ", ".join(
            f"{seat} {_cell(found[name]).replace(chr(10), ' ')}"
            for seat, found in by_seat.items()
            if name in found
        )
        parts.append(Text(plain_text(f"dealt to each seat, whoever held it: {label(name)} {cells}")))
    return parts


def _interval(mean: float, low: float | None, high: float | None) -> str:
    digits = 0 if max(abs(v) for v in (mean, low, high) if v is not None) >= 100 else 2
    if low is None or high is None:
        return f"{mean:.{digits}f}\n(no interval)"
    if low == high:  # every seed read the same: the data bound nothing, so no zero-width interval
        return f"{mean:.{digits}f}\n(no spread: no interval)"
    return f"{mean:.{digits}f}\n({low:.{digits}f}..{high:.{digits}f})"


def _failure_table(table: dict[str, Any], names: Mapping[str, str]) -> Table:
    failures = Table(title="failures (kept apart from skill)", header_style="bold")
    columns = FAILURE_KEYS
    failures.add_column("player", no_wrap=True)
    for name in columns:
        failures.add_column(label(name), justify="right")
    for player, counts in table["failures"]["per_player"].items():
        failures.add_row(_shown(names, player), *(str(counts.get(name, 0)) for name in columns))
    return failures
