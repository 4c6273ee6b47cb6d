"""A tournament's tables, read back from the database: ratings, metrics, matrix, failures.

Only ``finished`` episodes count. Everything else the tournament recorded (aborted, failed,
over budget) is listed under ``left_out`` with its reason, and slots never played or given
up are counted, so a reader sees what the table rests on. Ratings are Bradley-Terry with
seed-bootstrap intervals (:mod:`arena.tournament.ratings`); games with more than two seats
also get Plackett-Luce ratings (:mod:`arena.tournament.plackett_luce`), which then lead the
table. The result is one JSON-able dict: the CLI, the app and the report all read it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import orjson

from arena.events import EpisodeStatus
from arena.registry import get_game
from arena.store import Store
from arena.tournament.confidence import cost_per_seed, order_confidence
from arena.tournament.metrics import metric_means
from arena.tournament.plackett_luce import plackett_luce
from arena.tournament.ratings import bradley_terry, comparisons, win_matrix
from arena.tournament.records import EpisodeRecord
from arena.tournament.run import load_config, plan, slot_states

TIMEOUT_ERRORS = frozenset({"timeout"})
PROVIDER_ERRORS = frozenset({"provider_error", "rate_limited", "auth_error", "player_crash"})


@dataclass
class _PlayerTally:
    episodes: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    failures: Counter[str] = field(default_factory=Counter)


def outcomes(scores: dict[str, float]) -> dict[str, str]:
    """Win (sole top score), draw (shared top) or loss per seat; one-seat games: ``none``."""
    if len(scores) < 2:
        return dict.fromkeys(scores, "none")
    top = max(scores.values())
    leaders = [seat for seat, score in scores.items() if score == top]
    return {seat: ("draw" if len(leaders) > 1 else "win") if seat in leaders else "loss" for seat in scores}


def tournament_table(store: Store, tournament_id: int, *, resamples: int = 1000) -> dict[str, Any]:
    """The tournament's tables as one JSON-able dict (see the module docstring)."""
    config = load_config(store, tournament_id)
    row = store.tournament(tournament_id) or {}
    spec = get_game(config.game)
    slots = plan(config)
    seats = len(slots[0].seats) if slots else 0
    states = slot_states(store, tournament_id, slots)
    records, left_out, tallies = _read_episodes(store, tournament_id)
    _add_failures(store, tournament_id, tallies)
    players = list(config.players)
    table: dict[str, Any] = {
        "tournament": {
            "id": tournament_id,
            "name": row.get("name", ""),
            "game": config.game,
            "status": row.get("status", ""),
            "message": row.get("message", ""),
            "seats": seats,
            "deal_seeds": config.seeds,
            "master_seed": config.seed,
            "options": spec.resolve_options(config.options),
            "slots": len(slots),
            "counted": sum(s.done for s in states),
            "not_played": sum(not s.done and s.failures == 0 for s in states),
            "given_up": sum(not s.done and s.failures > config.retries for s in states),
        },
        "rating_method": "plackett-luce" if seats > 2 else "bradley-terry",
        "players": [],
        "win_matrix": None,
        "order_confidence": [],
        "left_out": left_out,
        "left_out_by_status": dict(Counter(item["status"] for item in left_out)),
        "summary_metrics": list(spec.game_class.summary_metrics),
    }
    if not records:
        table["players"] = [_player_row(p, tallies[p], None, {}) for p in players]
        return table
    ratings = bradley_terry(records, players=players, resamples=resamples, seed=config.seed)
    metrics = metric_means(records, players=players, resamples=resamples, seed=config.seed)
    per_episode_cost = {p: tallies[p].cost_usd / tallies[p].episodes for p in players if tallies[p].episodes}
    seed_cost = cost_per_seed(records, per_episode_cost) if any(per_episode_cost.values()) else None
    table["order_confidence"] = [row.to_dict() for row in order_confidence(ratings, seed_cost_usd=seed_cost)]
    table["win_matrix"] = win_matrix(comparisons(records, players))
    bt = {row["player"]: row for row in ratings.rows()}
    rows = [_player_row(p, tallies[p], bt.get(p), metrics.get(p, {})) for p in ratings.players]
    if seats > 2:
        pl = {rating.player: rating for rating in plackett_luce(records, players=players)}
        for item in rows:
            rating = pl[item["player"]]
            item.update(
                {
                    "bt_rating": item["rating"],
                    "bt_rating_low": item["rating_low"],
                    "bt_rating_high": item["rating_high"],
                    "rating": rating.mu,
                    "rating_low": rating.low,
                    "rating_high": rating.high,
                    "sigma": rating.sigma,
                }
            )
        rows.sort(key=lambda item: -float(item["rating"]))
    table["players"] = rows
    return table


def _player_row(
    player: str, tally: _PlayerTally, rating: dict[str, Any] | None, metrics: dict[str, Any]
) -> dict[str, Any]:
    episodes = tally.episodes or 0
    cost = tally.cost_usd / episodes if episodes else 0.0
    value = float(rating["rating"]) if rating else None
    return {
        "player": player,
        "rating": value,
        "rating_low": float(rating["rating_low"]) if rating else None,
        "rating_high": float(rating["rating_high"]) if rating else None,
        "episodes": episodes,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "tokens_per_episode": (tally.input_tokens + tally.output_tokens) / episodes if episodes else 0.0,
        "usd_per_episode": cost,
        "rating_per_usd": (value / cost) if value is not None and cost > 0 else None,
        "metrics": {name: summary.to_dict() for name, summary in metrics.items()},
        "failures": dict(tally.failures),
    }


def _read_episodes(
    store: Store, tournament_id: int
) -> tuple[list[EpisodeRecord], list[dict[str, Any]], defaultdict[str, _PlayerTally]]:
    rows = store.conn.execute(
        "SELECT e.id, e.seed, e.slot_key, e.status, e.message, s.seat, s.player, s.score, s.metrics,"
        " s.input_tokens, s.output_tokens, s.cost_usd"
        " FROM episodes e JOIN seats s ON s.episode_id = e.id"
        " WHERE e.tournament_id = ? ORDER BY e.id, s.rowid",
        (tournament_id,),
    ).fetchall()
    episodes: dict[int, dict[str, Any]] = {}
    for eid, seed, key, status, message, seat, player, score, metrics, tin, tout, cost in rows:
        item = episodes.setdefault(
            eid, {"seed": seed, "key": key, "status": status, "message": message, "seats": []}
        )
        item["seats"].append((seat, player, score, metrics, tin, tout, cost))
    tallies: defaultdict[str, _PlayerTally] = defaultdict(_PlayerTally)
    records: list[EpisodeRecord] = []
    left_out: list[dict[str, Any]] = []
    for eid, item in episodes.items():
        if item["status"] != EpisodeStatus.FINISHED:
            if item["status"] != EpisodeStatus.RUNNING:
                left_out.append(
                    {
                        "episode_id": eid,
                        "slot_key": item["key"],
                        "status": item["status"],
                        "reason": item["message"],
                        "players": [p for _, p, *_ in item["seats"]],
                    }
                )
            continue
        seating = {seat: player for seat, player, *_ in item["seats"]}
        scores = {seat: float(score or 0.0) for seat, _, score, *_ in item["seats"]}
        metrics = {seat: orjson.loads(m) if m else {} for seat, _, _, m, *_ in item["seats"]}
        records.append(
            EpisodeRecord(
                slot_key=item["key"] or f"episode:{eid}",
                deal_seed=int(item["seed"]),
                seating=seating,
                scores=scores,
                metrics=metrics,
            )
        )
        result = outcomes(scores)
        for seat, player, _, _, tin, tout, cost in item["seats"]:
            tally = tallies[player]
            tally.episodes += 1
            tally.wins += result[seat] == "win"
            tally.draws += result[seat] == "draw"
            tally.losses += result[seat] == "loss"
            tally.input_tokens += tin
            tally.output_tokens += tout
            tally.cost_usd += cost
    return records, left_out, tallies


def _add_failures(store: Store, tournament_id: int, tallies: defaultdict[str, _PlayerTally]) -> None:
    """Decisions, invalid replies, re-asks, fallbacks, timeouts and provider errors per player."""
    counts = store.conn.execute(
        "SELECT s.player, count(*), coalesce(sum(t.fallback), 0) FROM turns t"
        " JOIN episodes e ON e.id = t.episode_id"
        " JOIN seats s ON s.episode_id = t.episode_id AND s.seat = t.seat"
        " WHERE e.tournament_id = ? AND e.status = 'finished' GROUP BY s.player",
        (tournament_id,),
    )
    for player, decisions, fallbacks in counts:
        tallies[player].failures.update({"decisions": decisions, "fallback": fallbacks})
    troubled = store.conn.execute(
        "SELECT s.player, t.fallback, t.attempts FROM turns t"
        " JOIN episodes e ON e.id = t.episode_id"
        " JOIN seats s ON s.episode_id = t.episode_id AND s.seat = t.seat"
        " WHERE e.tournament_id = ? AND e.status = 'finished' AND t.attempts != '[]'",
        (tournament_id,),
    )
    for player, fallback, attempts_json in troubled:
        attempts = orjson.loads(attempts_json)
        failures = tallies[player].failures
        failures["invalid"] += len(attempts)
        failures["reasked"] += int(len(attempts) > 1 or not fallback)
        errors = [str(a.get("error", "")) for a in attempts]
        failures["timeouts"] += sum(e in TIMEOUT_ERRORS for e in errors)
        failures["provider_errors"] += sum(e in PROVIDER_ERRORS for e in errors)
    for tally in tallies.values():
        for key in ("decisions", "invalid", "reasked", "fallback", "timeouts", "provider_errors"):
            tally.failures.setdefault(key, 0)
