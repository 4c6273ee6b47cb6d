"""The data a tournament report's charts draw, as plain rows (no chart library here).

Read from the report and, for the game's ``score_series`` view hook (lemonade's cash by day,
Cattle Trade's complete sets by turn), from the counted episodes rebuilt by replaying their
stored actions. :mod:`arena.tournament.charts` turns these rows into Vega-Lite specifications.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Any

import orjson

from arena.contract.game import GameDefinition, GameView
from arena.contract.records import EpisodeStatus
from arena.store.database import Store
from arena.store.episode_log import restore_action
from arena.tournament.report_markdown import is_free, won_lines

BAND = (0.25, 0.75)
"""The band drawn around a series' median: the middle half of the deals."""


def drawn_interval(
    row: Mapping[str, Any], ratings: Mapping[str, float | None]
) -> tuple[float | None, float | None]:
    """The ends a row's interval is drawn between (``ratings``: every player's point rating).

    A sweep of too few seeds to bound the gap has no interval of its own: it is drawn open
    from the other player's rating, on the side the sweep puts it. The charts and the app's
    bars share this rule.
    """
    low, high = row.get("rating_low"), row.get("rating_high")
    bound = row.get("bound")
    if low is None and high is None and row.get("rating") is None and bound:
        other = ratings.get(bound["other"])
        if other is not None:
            return (other, None) if bound["side"] == "above" else (None, other)
    return low, high


def rating_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per rated player: rating, interval ends, and which end is open (drawn as an arrow)."""
    rows = []
    known = {row["player"]: row.get("rating") for row in report["players"]}
    for row in report["players"]:
        rating = row.get("rating")
        low, high = drawn_interval(row, known)
        if low is None and high is None and rating is None:
            continue
        rows.append(
            {
                "player": row["player"],
                "rank": row.get("rank"),
                "rating": rating,
                "low": low,
                "high": high,
                "open": "above" if high is None else "below" if low is None else "none",
                "label": _rating_label(row),
            }
        )
    return rows


def _rating_label(row: dict[str, Any]) -> str:
    from arena.tournament.wording import interval_text, rating_text

    interval = interval_text(row)
    return rating_text(row) if interval == "-" else f"{rating_text(row)} ({interval})"


def matrix_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per ordered pair of players: the row player's win rate over the column player."""
    matrix = report["win_matrix"]
    players = matrix["players"]
    rows = []
    for i, row_player in enumerate(players):
        for j, column_player in enumerate(players):
            if i == j:
                continue
            rate, games = matrix["rate"][i][j], matrix["games"][i][j]
            rows.append(
                {
                    "player": row_player,
                    "opponent": column_player,
                    "rate": rate,
                    "games": games,
                    "label": won_lines(matrix, i, j),  # two lines keep a cell narrow
                }
            )
    return rows


def cost_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Per player: rating and dollars per episode, or ``priced: False`` when no price is known.

    ``free`` marks a player that made no model call (a baseline, a person): it is drawn as free,
    apart from the priced models, not as one that costs $0.
    """
    unpriced = set(report["cost"].get("unpriced_players") or [])
    rows = []
    for row in rating_rows(report):
        player = row["player"]
        spent = report["cost"]["per_player"].get(player) or {}
        priced = player not in unpriced
        rows.append(
            {
                "player": player,
                "rating": row["rating"] if row["rating"] is not None else row["low"] or row["high"],
                "usd_per_episode": spent.get("usd_per_episode") if priced else None,
                "priced": priced,
                "free": priced and is_free(report, player),
            }
        )
    return rows


def score_rows(store: Store, tournament_id: int) -> list[dict[str, Any]]:
    """Each counted seat's score: one row per (episode, seat) with its player."""
    sql = (
        "SELECT e.id, s.seat, s.player, s.score FROM episodes e JOIN seats s ON s.episode_id = e.id"
        " WHERE e.tournament_id = ? AND e.status = ? ORDER BY e.id, s.rowid"
    )
    return [
        {"episode_id": eid, "seat": seat, "player": player, "score": float(score or 0.0)}
        for eid, seat, player, score in store.conn.execute(sql, (tournament_id, EpisodeStatus.FINISHED))
    ]


def seat_episodes(store: Store, tournament_id: int) -> list[dict[str, Any]]:
    """The counted episodes as the view's ``report_charts`` hook reads them (stored results only)."""
    sql = (
        "SELECT e.id, e.seed, s.seat, s.player, s.score, s.metrics FROM episodes e"
        " JOIN seats s ON s.episode_id = e.id WHERE e.tournament_id = ? AND e.status = ?"
        " ORDER BY e.id, s.rowid"
    )
    episodes: dict[int, dict[str, Any]] = {}
    for eid, seed, seat, player, score, metrics in store.conn.execute(
        sql, (tournament_id, EpisodeStatus.FINISHED)
    ):
        item = episodes.setdefault(
            eid, {"episode_id": eid, "deal_seed": int(seed), "seating": {}, "scores": {}, "metrics": {}}
        )
        item["seating"][seat] = player
        item["scores"][seat] = float(score or 0.0)
        item["metrics"][seat] = orjson.loads(metrics) if metrics else {}
    return list(episodes.values())


def series_rows(store: Store, tournament_id: int, definition: GameDefinition) -> list[dict[str, Any]]:
    """The game's ``score_series`` per player and step: median and middle-half band over the deals.

    Per seat as well when the game's seats are roles (``seats_differ``): pooled, a seller's asks
    and a buyer's bids would make one meaningless line.

    Empty when the game's view has no series. Episodes that no longer replay (recorded under
    other rules) are skipped: the chart says over how many deals each point is.
    """
    view = definition.view
    if type(view).score_series is GameView.score_series:
        return []
    by_seat = type(definition).seats_differ  # a seller's asks and a buyer's bids are not one series
    first = type(view).score_series_first  # bargain's offers count from 1: the seat's 1st offer
    values: defaultdict[tuple[str, str, int], list[float]] = defaultdict(list)
    for seating, state in _replayed(store, tournament_id, definition):
        for seat, series in view.score_series(state).items():
            player = seating.get(seat)
            if player is None:
                continue
            for step, value in enumerate(series, first):
                values[(player, seat if by_seat else "any seat", step)].append(float(value))
    rows = []
    for (player, seat, step), found in sorted(values.items()):
        rows.append(
            {
                "player": player,
                "seat": seat,
                "step": step,
                "median": statistics.median(found),
                "low": _quantile(found, BAND[0]),
                "high": _quantile(found, BAND[1]),
                "deals": len(found),
            }
        )
    return rows


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    below = int(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def _replayed(
    store: Store, tournament_id: int, definition: GameDefinition
) -> Iterator[tuple[dict[str, str], Any]]:
    """(seat -> player, final state) of each counted episode, rebuilt from its stored actions."""
    episodes = store.conn.execute(
        "SELECT id, seed, options FROM episodes WHERE tournament_id = ? AND status = ? ORDER BY id",
        (tournament_id, EpisodeStatus.FINISHED),
    ).fetchall()
    seatings: defaultdict[int, dict[str, str]] = defaultdict(dict)
    for eid, seat, player in store.conn.execute(
        "SELECT s.episode_id, s.seat, s.player FROM seats s JOIN episodes e ON e.id = s.episode_id"
        " WHERE e.tournament_id = ? ORDER BY s.rowid",
        (tournament_id,),
    ):
        seatings[eid][seat] = player
    steps: defaultdict[int, dict[int, dict[str, dict[str, Any]]]] = defaultdict(dict)
    for eid, step, seat, action, reason, in_action in store.conn.execute(
        "SELECT t.episode_id, t.step, t.seat, t.action, t.reason, t.reason_in_action FROM turns t"
        " JOIN episodes e ON e.id = t.episode_id WHERE e.tournament_id = ? AND e.status = ?"
        " ORDER BY t.episode_id, t.idx",
        (tournament_id, EpisodeStatus.FINISHED),
    ):
        row = {"action": orjson.loads(action), "reason": reason, "reason_in_action": in_action}
        steps[eid].setdefault(step, {})[seat] = restore_action(row)
    for eid, seed, options in episodes:
        try:
            state = _rebuilt(definition, int(seed), orjson.loads(options) if options else {}, steps[eid])
        except Exception:  # an episode recorded under other rules: left out of the chart
            continue
        yield seatings[eid], state


def _rebuilt(
    definition: GameDefinition, seed: int, options: dict[str, Any], steps: dict[int, dict[str, Any]]
) -> Any:
    try:
        state = definition.create(seed, options)
    except ValueError:  # recorded options outside today's limits: use them as played
        state = definition.new_state(seed, definition.Options.model_construct(**options))
    for step in sorted(steps):
        state.apply({seat: state.action_model(seat).model_validate(a) for seat, a in steps[step].items()})
    return state
