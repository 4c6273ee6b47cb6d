"""A tournament's tables, read back from the database: ratings, metrics, matrix, failures.

Only ``finished`` episodes count. A seat that forfeited one (``on_invalid = "forfeit"``) is
ranked last in it and its metrics of that episode are left out. Each player's row carries
its share of decisions made by the game's fallback (``fallback_share``), flagged
``fallback_heavy`` above :data:`FALLBACK_HEAVY`: a rating built on the harness's moves.
Everything else the tournament recorded (aborted, failed,
over budget) is listed under ``left_out`` with its reason, and slots never played or given
up are counted, so a reader sees what the table rests on. The rating sections come from
:func:`arena.tournament.tables.tables` (Bradley-Terry with seed-bootstrap intervals, and
Plackett-Luce for games with more than two seats); this module adds what only the database
knows: cost, the failure breakdown and the left-out episodes. The result is one JSON-able
dict that the CLI, the app and the report all read.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from typing import Any

import orjson

from arena.contract.records import EpisodeStatus
from arena.contract.usage import NO_USAGE, Usage, made_no_model_call, unpriced_seat
from arena.plugins.games import get_game
from arena.plugins.players import SpecError, parse_player_spec
from arena.store.database import Store
from arena.tournament.config import TournamentConfig
from arena.tournament.metrics import MetricRoles, deal_facts
from arena.tournament.records import EpisodeRecord
from arena.tournament.run import load_tournament, plan, slot_states
from arena.tournament.sweeps import effort_sweeps
from arena.tournament.tables import tables

TIMEOUT_ERRORS = frozenset({"timeout"})
CUT_OFF_ERRORS = frozenset({"truncated"})
"""Replies cut off by the output cap (finish reason length / max_tokens): counted apart from
illegal and unparsable ones, since a larger cap or a lower effort, not a better model, fixes them."""
PROVIDER_ERRORS = frozenset({"provider_error", "rate_limited", "auth_error", "player_crash"})
FAILURE_KEYS = (
    "decisions",
    "invalid",
    "cut_off",
    "reasked",
    "fallback",
    "timeouts",
    "provider_errors",
    "revised",
    "forfeited",
)
FALLBACK_HEAVY = 0.1
"""A rating of which more than this share of the player's decisions were the game's fallback is marked."""


@dataclass
class PlayerTotals:
    """A player over the counted episodes: how many, what they cost, how its decisions failed."""

    episodes: int = 0
    usage: Usage = NO_USAGE
    failures: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    """Attempts not used as given, by error class (``schema``, ``timeout``, ...)."""
    reasoning_tokens: int = 0
    """Reasoning (thinking) tokens over the counted episodes' decisions, re-asks included."""

    def cost_dict(self) -> dict[str, Any]:
        """The report's ``cost.per_player`` entry."""
        usage = self.usage
        return {
            "episodes": self.episodes,
            "input_tokens": usage.input_tokens,
            "cached_tokens": usage.cached_tokens,
            "cache_write_tokens": usage.cache_write_tokens,
            "output_tokens": usage.output_tokens,
            "cost_usd": round(usage.cost_usd, 6),
            "usd_per_episode": round(usage.cost_usd / self.episodes, 6) if self.episodes else 0.0,
        }


@dataclass
class StoredTournament:
    """What the database holds for a tournament, ready for the tables (stored, not a screen's data)."""

    records: list[EpisodeRecord]
    left_out: list[dict[str, Any]]
    per_player: defaultdict[str, PlayerTotals]
    statuses: Counter[str]
    errors: Counter[str]


def read_tournament(store: Store, tournament_id: int) -> StoredTournament:
    """Finished episodes as rating records, the rest as left-out items, and per-player usage."""
    rows = store.conn.execute(
        "SELECT e.id, e.seed, e.slot_key, e.status, e.message, s.seat, s.player, s.score, s.metrics,"
        " s.input_tokens, s.output_tokens, s.cost_usd"
        " FROM episodes e JOIN seats s ON s.episode_id = e.id"
        " WHERE e.tournament_id = ? ORDER BY e.id, s.rowid",
        (tournament_id,),
    ).fetchall()
    episodes: dict[int, dict[str, Any]] = {}
    for eid, seed, key, status, message, *seat in rows:
        item = episodes.setdefault(
            eid, {"seed": seed, "key": key, "status": status, "message": message, "seats": []}
        )
        item["seats"].append(seat)
    data = StoredTournament([], [], defaultdict(PlayerTotals), Counter(), Counter())
    for eid, item in episodes.items():
        data.statuses[item["status"]] += 1
        if item["status"] != EpisodeStatus.FINISHED:
            if item["status"] != EpisodeStatus.RUNNING:
                data.left_out.append(
                    {
                        "slot_key": item["key"] or "",
                        "episode_id": eid,
                        "status": item["status"],
                        "reason": item["message"] or item["status"],
                        "players": [player for _, player, *_ in item["seats"]],
                    }
                )
            continue
        scores = {seat: float(score or 0.0) for seat, _, score, *_ in item["seats"]}
        metrics = {seat: orjson.loads(m) if m else {} for seat, _, _, m, *_ in item["seats"]}
        forfeited = _forfeits(scores, metrics)
        data.records.append(
            EpisodeRecord(
                slot_key=item["key"] or f"episode:{eid}",
                deal_seed=int(item["seed"]),
                seating={seat: player for seat, player, *_ in item["seats"]},
                scores=scores,
                metrics=metrics,
            )
        )
        for seat, player, _, _, tokens_in, tokens_out, cost in item["seats"]:
            totals = data.per_player[player]
            totals.episodes += 1
            totals.failures["forfeited"] += seat in forfeited
            if tokens_in or tokens_out or cost:  # a baseline's seat spent nothing: nothing to add
                totals.usage += Usage(input_tokens=tokens_in, output_tokens=tokens_out, cost_usd=cost)
    _add_failures(store, tournament_id, data)
    return data


def _forfeits(scores: dict[str, float], metrics: dict[str, dict[str, Any]]) -> list[str]:
    """Rank each seat that forfeited below every other seat and leave its metrics out (in place)."""
    forfeited = [seat for seat, found in metrics.items() if found.get("forfeited")]
    for seat in forfeited:
        others = [score for other, score in scores.items() if other not in forfeited]
        scores[seat] = min(others, default=0.0) - 1.0
        metrics[seat] = {}
    return forfeited


FALLBACK_NOTE = "! more than a tenth of the player's decisions were the game's fallback, not its own"
"""The note under a ratings table with a rating marked for its fallbacks."""


def fallback_cell(row: dict[str, Any]) -> str:
    """A ratings row's share of decisions made by the game's fallback (``12%``), ``-`` when not known."""
    share = row.get("fallback_share")
    return "-" if share is None else f"{share:.0%}"


def fallback_rows(players: list[dict[str, Any]], per_player: dict[str, dict[str, int]]) -> None:
    """Add each player's ``fallback_share``, ``fallback_heavy`` and ``revised`` to its row (in place)."""
    for entry in players:
        counts = per_player.get(entry["player"]) or {}
        decisions = counts.get("decisions", 0)
        share = counts.get("fallback", 0) / decisions if decisions else 0.0
        entry["fallback_share"] = round(share, 4)
        entry["fallback_heavy"] = share > FALLBACK_HEAVY
        entry["revised"] = counts.get("revised", 0)


def tournament_table(
    store: Store,
    tournament_id: int,
    *,
    resamples: int = 1000,
    stored: tuple[dict[str, Any], TournamentConfig] | None = None,
) -> dict[str, Any]:
    """The tournament's tables as one JSON-able dict (see the module docstring).

    ``stored`` is :func:`load_tournament`'s answer when the caller has it (it is read here otherwise).
    """
    if stored is None:
        stored = load_tournament(store, tournament_id)
    row, config = stored
    definition = get_game(config.game)
    slots = plan(config)
    states = slot_states(store, tournament_id, slots)
    data = read_tournament(store, tournament_id)
    players = list(config.players)
    for player in players:
        data.per_player[player].failures.update(dict.fromkeys(FAILURE_KEYS, 0))
    # A model with no price spent an unknown number of dollars, not $0: its cells say "unpriced"
    # (and rating per dollar and the cost of another seed, which would rest on that $0, stay empty).
    settings: dict[str, Any] = dict((row.get("config") or {}).get("player_settings") or {})
    unpriced = {p for p in players if unpriced_seat(settings.get(p))}
    result: dict[str, Any] = {
        "tournament": {
            "id": tournament_id,
            "on_invalid": config.on_invalid,
            "name": row.get("name", ""),
            "game": config.game,
            "status": row.get("status", ""),
            "message": row.get("message", ""),
            "seats": list(slots[0].seats) if slots else [],
            "players": players,
            "deal_seeds": config.seeds,
            "master_seed": config.seed,
            "options": definition.resolve_options(config.options),
            "slots": len(slots),
            "counted": sum(s.done for s in states),
            "not_played": sum(not s.done and s.failures <= config.retries for s in states),
            "given_up": sum(not s.done and s.failures > config.retries for s in states),
        },
        "summary_metrics": list(definition.summary_metrics),
        "outcome_rule": definition.outcome_rule,
        "metrics_by_seat": {},
        "deal_facts": deal_facts([], roles=MetricRoles.of(definition)),
        "failures": {
            "episodes_by_status": dict(data.statuses),
            "errors_by_class": dict(data.errors),
            "per_player": {p: {k: data.per_player[p].failures[k] for k in FAILURE_KEYS} for p in players},
            "errors_by_player": {p: dict(sorted(data.per_player[p].errors.items())) for p in players},
        },
        "cost": _cost(data, players, unpriced),
        "left_out": data.left_out,
    }
    if not data.records:
        empty = {"episodes": 0, "wins": 0, "draws": 0, "losses": 0}
        nothing = {"rating": None, "rating_low": None, "rating_high": None}
        result.update(ratings=None, win_matrix=None, metrics={}, order_confidence=[])
        result["players"] = [{"player": p, **nothing, **empty} for p in players]
        fallback_rows(result["players"], result["failures"]["per_player"])
        _mark_free(result, settings)
        result["sweeps"] = _sweeps(result, data, settings)
        return result
    counted = {p: data.per_player[p] for p in players if data.per_player[p].episodes}
    priced = {p: t for p, t in counted.items() if p not in unpriced}
    result.update(
        tables(
            data.records,
            players=players,
            resamples=resamples,
            seed=config.seed,
            cost_per_episode={p: t.usage.cost_usd / t.episodes for p, t in priced.items()},
            tokens_per_episode={p: t.usage.total_tokens / t.episodes for p, t in counted.items()},
            roles=MetricRoles.of(definition),
        )
    )
    for entry in result["players"]:
        if entry["player"] in unpriced:
            entry["unpriced"] = True
    fallback_rows(result["players"], result["failures"]["per_player"])
    _mark_free(result, settings)
    result["sweeps"] = _sweeps(result, data, settings)
    return result


def _mark_free(result: dict[str, Any], settings: dict[str, Any]) -> None:
    """Set ``free`` on each player row that made no model call (a baseline): shown "free", not $0."""
    spent = result["cost"]["per_player"]
    for entry in result["players"]:
        player = entry["player"]
        entry["free"] = made_no_model_call(
            spent.get(player) or {}, model=_kind(player, settings) != "baseline"
        )


def _kind(player: str, settings: dict[str, Any]) -> str:
    """A player's kind as its run stored it, else as its spec says (a tournament not yet prepared)."""
    stored = settings.get(player)
    if isinstance(stored, dict) and stored.get("kind"):
        return str(stored["kind"])
    try:
        return parse_player_spec(player).kind
    except SpecError:
        return ""


def _sweeps(result: dict[str, Any], data: StoredTournament, settings: dict[str, Any]) -> list[dict[str, Any]]:
    """The effort sweeps of the table (:func:`arena.tournament.sweeps.effort_sweeps`)."""
    reasoning = {
        player: (totals.reasoning_tokens, totals.failures["decisions"])
        for player, totals in data.per_player.items()
    }
    return effort_sweeps(result["players"], settings, reasoning, result["cost"]["per_player"])


def _cost(data: StoredTournament, players: list[str], unpriced: set[str]) -> dict[str, Any]:
    """Totals and each player's spend; ``unpriced_decisions`` counts the decisions made at no known price."""
    total = Usage.total(t.usage for t in data.per_player.values())
    episodes = len(data.records)
    per_player = {p: data.per_player[p].cost_dict() for p in players}
    for player, entry in per_player.items():
        entry["unpriced_decisions"] = (
            data.per_player[player].failures["decisions"] if player in unpriced else 0
        )
    return {
        "episodes": episodes,
        "unpriced_decisions": sum(entry["unpriced_decisions"] for entry in per_player.values()),
        "total_usd": round(total.cost_usd, 6),
        "usd_per_episode": round(total.cost_usd / episodes, 6) if episodes else 0.0,
        "input_tokens": total.input_tokens,
        "cached_tokens": total.cached_tokens,
        "cache_write_tokens": total.cache_write_tokens,
        "output_tokens": total.output_tokens,
        "per_player": per_player,
    }


def _add_failures(store: Store, tournament_id: int, data: StoredTournament) -> None:
    """Decisions, invalid replies, re-asks, fallbacks, timeouts and provider errors per player."""
    joined = (
        " FROM turns t JOIN episodes e ON e.id = t.episode_id"
        " JOIN seats s ON s.episode_id = t.episode_id AND s.seat = t.seat"
        " WHERE e.tournament_id = ? AND e.status = 'finished'"
    )
    counts = store.conn.execute(
        "SELECT s.player, count(*), coalesce(sum(t.fallback), 0), coalesce(sum(t.cached_tokens), 0),"
        f" coalesce(sum(t.cache_write_tokens), 0), coalesce(sum(t.revised), 0),"
        f" coalesce(sum(t.reasoning_tokens), 0){joined} GROUP BY s.player",
        (tournament_id,),
    )
    for player, decisions, fallbacks, cached, written, revised, reasoning in counts:
        totals = data.per_player[player]
        totals.reasoning_tokens = reasoning
        totals.failures.update({"decisions": decisions, "fallback": fallbacks, "revised": revised})
        # The seats table keeps no cached count: a player's cache tokens are summed from its turns.
        totals.usage = replace(totals.usage, cached_tokens=cached, cache_write_tokens=written)
    troubled = store.conn.execute(
        f"SELECT s.player, t.fallback, t.attempts{joined} AND t.attempts != '[]'", (tournament_id,)
    )
    for player, fallback, attempts_json in troubled:
        attempts = orjson.loads(attempts_json)
        failures = data.per_player[player].failures
        errors = [str(a.get("error", "")) for a in attempts]
        data.errors.update(errors)
        data.per_player[player].errors.update(errors)
        failures["invalid"] += len(attempts)
        failures["reasked"] += int(len(attempts) > 1 or not fallback)
        failures["cut_off"] += sum(e in CUT_OFF_ERRORS for e in errors)
        failures["timeouts"] += sum(e in TIMEOUT_ERRORS for e in errors)
        failures["provider_errors"] += sum(e in PROVIDER_ERRORS for e in errors)
