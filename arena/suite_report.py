"""A suite's results: episode summaries, per-player aggregates and the JSON report.

Only finished episodes are aggregated; the others are counted and explained under
``left_out``. Players are keyed by the hash of their resolved configuration and shown
by name, or ``name#abcd`` when one name covers several configurations.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from arena import __version__
from arena.playerconfig import display_names
from arena.records import EpisodeStatus

PARSE_ERRORS = frozenset({"unparsable", "schema", "truncated"})
"""Error classes counted as parse failures (the reply could not be read as an action)."""
COUNT_KEYS = {"invalid": "invalid_replies", "parse_failure": "parse_failures", "fallback": "fallbacks"}


@dataclass
class EpisodeSummary:
    """One suite episode: deal, seats, outcome and what it cost."""

    deal: int
    seed: int
    seats: dict[str, str]
    status: str
    episode_id: int | None
    scores: dict[str, float]
    metrics: dict[str, dict[str, Any]]
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    cached_tokens: int = 0
    """Input tokens read from a provider's prompt cache (counted in ``input_tokens`` too)."""
    cache_write_tokens: int = 0
    """Input tokens written to a provider's prompt cache (counted in ``input_tokens`` too)."""
    decisions: int = 0
    invalid: int = 0
    fallbacks: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    message: str = ""
    configs: dict[str, str] = field(default_factory=dict)
    """Seat -> hash of its player's resolved configuration."""
    seat_counts: dict[str, dict[str, int]] = field(default_factory=dict)
    """Seat -> ``decisions``, ``fallbacks`` and ``invalid`` counts."""

    def player_key(self, seat: str) -> str:
        """The seat's player identity: its configuration hash (its spec if none is known)."""
        return self.configs.get(seat) or self.seats[seat]


@dataclass
class Aggregate:
    """Means over a player's (or a player-in-a-seat's) finished episodes."""

    episodes: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score: float = 0.0
    metrics: dict[str, float] = field(default_factory=dict)
    samples: dict[str, int] = field(default_factory=dict)
    decisions: int = 0
    fallbacks: int = 0
    invalid: int = 0

    @property
    def fallback_rate(self) -> float:
        """Share of decisions replaced by the game's fallback."""
        return round(self.fallbacks / self.decisions, 4) if self.decisions else 0.0

    @property
    def invalid_rate(self) -> float:
        """Invalid replies per decision (a re-asked decision can have two)."""
        return round(self.invalid / self.decisions, 4) if self.decisions else 0.0


Row = tuple[float, str, dict[str, Any], dict[str, int]]
"""``(score, outcome, metrics, counts)``: one seat of one episode; counts as in ``seat_counts``."""


def aggregate(rows: Iterable[Row]) -> Aggregate:
    """Mean score, outcome counts, failure counts and metric means of seat rows."""
    agg = Aggregate()
    totals: dict[str, float] = {}
    score_total = 0.0
    for score, outcome, metrics, counts in rows:
        agg.episodes += 1
        score_total += score
        agg.wins += outcome == "win"
        agg.draws += outcome == "draw"
        agg.losses += outcome == "loss"
        agg.decisions += counts.get("decisions", 0)
        agg.fallbacks += counts.get("fallbacks", 0)
        agg.invalid += counts.get("invalid", 0)
        for key, value in metrics.items():
            if isinstance(value, bool | int | float):  # bools count as 0/1; None and text are skipped
                totals[key] = totals.get(key, 0.0) + float(value)
                agg.samples[key] = agg.samples.get(key, 0) + 1
    if agg.episodes:
        agg.score = round(score_total / agg.episodes, 4)
    agg.metrics = {key: round(totals[key] / agg.samples[key], 4) for key in totals}
    return agg


def _outcomes(scores: dict[str, float]) -> dict[str, str]:
    top = max(scores.values(), default=0.0)
    leaders = [seat for seat, score in scores.items() if score == top]
    if len(scores) < 2:
        return dict.fromkeys(scores, "none")
    return {seat: ("draw" if len(leaders) > 1 else "win") if seat in leaders else "loss" for seat in scores}


@dataclass
class SuiteReport:
    """Everything a suite produced; :meth:`to_dict` is the ``report.json`` document."""

    game: str
    game_version: str
    prompt_version: str
    seed: int
    n: int
    swap: bool
    options: dict[str, Any]
    players: dict[str, str]
    tournament_id: int | None = None
    harness: dict[str, Any] = field(default_factory=dict)
    inference: dict[str, dict[str, Any]] = field(default_factory=dict)
    configurations: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Config hash -> the resolved configuration of every player that took a seat."""
    episodes: list[EpisodeSummary] = field(default_factory=list)
    status: str = "running"
    seconds: float = 0.0

    def finished(self) -> list[EpisodeSummary]:
        """Episodes that ran to their end."""
        return [e for e in self.episodes if e.status == EpisodeStatus.FINISHED]

    def left_out(self) -> list[EpisodeSummary]:
        """Episodes that did not run to their end: they count in no table."""
        return [e for e in self.episodes if e.status != EpisodeStatus.FINISHED]

    def labels(self) -> dict[str, str]:
        """Player key (config hash) -> display name: the spec, ``spec#abcd`` when ambiguous."""
        pairs = {(e.seats[seat], e.player_key(seat)) for e in self.episodes for seat in e.seats}
        return display_names(pairs)

    def _grouped(self, by_seat: bool) -> dict[tuple[str, str], Aggregate]:
        groups: dict[tuple[str, str], list[Row]] = {}
        labels = self.labels()
        for episode in self.finished():
            outcomes = _outcomes(episode.scores)
            for seat in episode.seats:
                counts = episode.seat_counts.get(seat, {})
                row = (episode.scores[seat], outcomes[seat], episode.metrics.get(seat, {}), counts)
                label = labels[episode.player_key(seat)]
                groups.setdefault((label, seat if by_seat else "all"), []).append(row)
        return {key: aggregate(rows) for key, rows in groups.items()}

    @property
    def per_player(self) -> dict[str, Aggregate]:
        """Aggregates per player (configuration), over every seat it held."""
        return {player: agg for (player, _), agg in self._grouped(False).items()}

    @property
    def per_role(self) -> dict[str, dict[str, Aggregate]]:
        """Aggregates per player (configuration) and seat."""
        result: dict[str, dict[str, Aggregate]] = {}
        for (player, seat), agg in self._grouped(True).items():
            result.setdefault(player, {})[seat] = agg
        return result

    def left_out_summary(self) -> dict[str, Any]:
        """How many episodes were left out of every table, by status, and why."""
        left = self.left_out()
        return {
            "episodes": len(left),
            "by_status": dict(Counter(e.status for e in left)),
            "reasons": [
                {
                    "deal": e.deal,
                    "seed": e.seed,
                    "episode_id": e.episode_id,
                    "status": e.status,
                    "message": e.message,
                }
                for e in left
            ],
        }

    def per_player_failures(self) -> dict[str, dict[str, Any]]:
        """Per player, over all episodes: decisions, fallback and invalid rates, episodes left out."""
        labels = self.labels()
        rows: dict[str, dict[str, Any]] = {}
        for episode in self.episodes:
            for seat in episode.seats:
                row = rows.setdefault(
                    labels[episode.player_key(seat)],
                    {"episodes": 0, "left_out": 0, "decisions": 0, "fallbacks": 0, "invalid_replies": 0},
                )
                counts = episode.seat_counts.get(seat, {})
                row["episodes"] += 1
                row["left_out"] += episode.status != EpisodeStatus.FINISHED
                row["decisions"] += counts.get("decisions", 0)
                row["fallbacks"] += counts.get("fallbacks", 0)
                row["invalid_replies"] += counts.get("invalid", 0)
        for row in rows.values():
            row["fallback_rate"] = round(row["fallbacks"] / (row["decisions"] or 1), 4)
            row["invalid_rate"] = round(row["invalid_replies"] / (row["decisions"] or 1), 4)
        return rows

    def failures(self) -> dict[str, Any]:
        """Failure breakdown: episode statuses, invalid replies, fallbacks, error classes."""
        decisions = sum(e.decisions for e in self.episodes)
        errors: Counter[str] = Counter()
        for episode in self.episodes:
            errors.update(episode.errors)
        counts = {
            "invalid": sum(e.invalid for e in self.episodes),
            "parse_failure": sum(count for error, count in errors.items() if error in PARSE_ERRORS),
            "fallback": sum(e.fallbacks for e in self.episodes),
        }
        breakdown: dict[str, Any] = {
            "episodes_by_status": dict(Counter(e.status for e in self.episodes)),
            "decisions": decisions,
            **{COUNT_KEYS[name]: count for name, count in counts.items()},
            **{f"{name}_rate": round(count / (decisions or 1), 4) for name, count in counts.items()},
            "errors_by_class": dict(errors),
            "per_player": self.per_player_failures(),
        }
        finished = self.finished()
        # Games with a deal / no-deal outcome report a boolean "closed" metric on every seat.
        closed = [next(iter(e.metrics.values()), {}).get("closed") for e in finished]
        if finished and all(isinstance(c, bool) for c in closed):
            breakdown["no_deal_rate"] = round(1 - sum(1 for c in closed if c) / len(closed), 4)
        return breakdown

    def cost(self) -> dict[str, Any]:
        """Average and total tokens and money per episode."""
        count = len(self.episodes) or 1
        totals = {
            key: sum(getattr(e, key) for e in self.episodes)
            for key in ("input_tokens", "cached_tokens", "cache_write_tokens", "output_tokens", "cost_usd")
        }
        return {
            "episodes": len(self.episodes),
            **{f"avg_{key}": round(total / count, 6) for key, total in totals.items()},
            **{f"total_{key}": round(total, 6) for key, total in totals.items()},
        }

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-able data: disclosure, aggregates and every episode."""
        return {
            "identity": {
                "game": self.game,
                "game_version": self.game_version,
                "prompt_version": self.prompt_version,
                "arena_version": __version__,
                "seed": self.seed,
                "n": self.n,
                "deal_seeds": "deal_seed(seed, i) = sha256('arena-suite:{seed}:{i}')[:4] & 0x7FFFFFFF",
                "swap": self.swap,
                "options": self.options,
                "episodes": len(self.episodes),
                "tournament_id": self.tournament_id,
                "status": self.status,
                "seconds": round(self.seconds, 3),
            },
            "harness": self.harness,
            "inference": self.inference,
            "configurations": {
                self.labels().get(digest, digest): {"config_hash": digest, "config": config}
                for digest, config in self.configurations.items()
            },
            "left_out": self.left_out_summary(),
            "cost": self.cost(),
            "failures": self.failures(),
            "per_player": {name: _agg_dict(agg) for name, agg in self.per_player.items()},
            "per_role": {
                name: {seat: _agg_dict(agg) for seat, agg in seats.items()}
                for name, seats in self.per_role.items()
            },
            "episodes": [asdict(e) for e in self.episodes],
        }

    def to_json(self, indent: int | None = 2) -> str:
        """:meth:`to_dict` as a JSON string (the seed's ``report.json``)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent, default=str)


def _agg_dict(agg: Aggregate) -> dict[str, Any]:
    return {
        **asdict(agg),
        "win_rate": round(agg.wins / agg.episodes, 4) if agg.episodes else 0.0,
        "fallback_rate": agg.fallback_rate,
        "invalid_rate": agg.invalid_rate,
    }
