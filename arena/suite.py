"""Suite mode: play one line-up over many seeded deals of any game and roll the results up.

Deal ``i`` uses the episode seed :func:`deal_seed` ``(seed, i)``; with ``swap`` it is played
once per cyclic rotation of the seat assignment (two seats: as given, then swapped). Every
episode is recorded under one ``tournaments`` row when a store is given. Aggregates are per
player spec (self-play merges both seats) and per (player, seat): mean score, wins/draws/
losses (top score wins, a shared top is a draw) and the mean of every numeric or boolean
metric (``None`` skipped), over finished episodes. :meth:`SuiteReport.to_dict` adds the
five-part disclosure of seed 003: identity, harness, inference, cost and failures.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import inspect
import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from pydantic import BaseModel

from arena import __version__
from arena.events import EpisodeStatus, Event, Observer, TurnsRecorded
from arena.match import MatchConfig, prepare_runner
from arena.player import Player
from arena.registry import get_game
from arena.runner import REASK_ERRORS, Budget
from arena.specs import SpecError, parse_player_spec
from arena.store import Store

PARSE_ERRORS = frozenset({"unparsable", "schema", "truncated"})
"""Error classes counted as parse failures (the reply could not be read as an action)."""
COUNT_KEYS = {"invalid": "invalid_replies", "parse_failure": "parse_failures", "fallback": "fallbacks"}
TIMEOUT_NOTE = "the runner enforces no per-decision timeout; model players apply their own (see inference)"


def deal_seed(seed: int, index: int) -> int:
    """The episode seed of deal ``index`` in a suite seeded with ``seed`` (31-bit, stable)."""
    digest = hashlib.sha256(f"arena-suite:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def rotations(seats: Sequence[str], players: dict[str, str], swap: bool) -> list[dict[str, str]]:
    """Seat assignments to play per deal: the given one, plus its rotations when ``swap``."""
    base = [players[seat] for seat in seats]
    found: list[dict[str, str]] = []
    for shift in range(len(seats) if swap else 1):
        assignment = {seat: base[(i - shift) % len(seats)] for i, seat in enumerate(seats)}
        if assignment not in found:
            found.append(assignment)
    return found


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
    decisions: int = 0
    invalid: int = 0
    fallbacks: int = 0
    errors: dict[str, int] = field(default_factory=dict)


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


def aggregate(rows: Iterable[tuple[float, str, dict[str, Any]]]) -> Aggregate:
    """Mean score, outcome counts and metric means of ``(score, outcome, metrics)`` rows."""
    agg = Aggregate()
    totals: dict[str, float] = {}
    score_total = 0.0
    for score, outcome, metrics in rows:
        agg.episodes += 1
        score_total += score
        agg.wins += outcome == "win"
        agg.draws += outcome == "draw"
        agg.losses += outcome == "loss"
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
    episodes: list[EpisodeSummary] = field(default_factory=list)
    status: str = "running"
    seconds: float = 0.0

    def finished(self) -> list[EpisodeSummary]:
        """Episodes that ran to their end."""
        return [e for e in self.episodes if e.status == EpisodeStatus.FINISHED]

    def _grouped(self, by_seat: bool) -> dict[tuple[str, str], Aggregate]:
        groups: dict[tuple[str, str], list[tuple[float, str, dict[str, Any]]]] = {}
        for episode in self.finished():
            outcomes = _outcomes(episode.scores)
            for seat, player in episode.seats.items():
                row = (episode.scores[seat], outcomes[seat], episode.metrics.get(seat, {}))
                groups.setdefault((player, seat if by_seat else "all"), []).append(row)
        return {key: aggregate(rows) for key, rows in groups.items()}

    @property
    def per_player(self) -> dict[str, Aggregate]:
        """Aggregates per player spec, over every seat it held."""
        return {player: agg for (player, _), agg in self._grouped(False).items()}

    @property
    def per_role(self) -> dict[str, dict[str, Aggregate]]:
        """Aggregates per player spec and seat."""
        result: dict[str, dict[str, Aggregate]] = {}
        for (player, seat), agg in self._grouped(True).items():
            result.setdefault(player, {})[seat] = agg
        return result

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
            for key in ("input_tokens", "output_tokens", "cost_usd")
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
    return {**asdict(agg), "win_rate": round(agg.wins / agg.episodes, 4) if agg.episodes else 0.0}


class _TurnCounter:
    """Observer counting one episode's decisions, invalid replies, fallbacks and errors."""

    def __init__(self) -> None:
        self.decisions = self.invalid = self.fallbacks = 0
        self.errors: Counter[str] = Counter()

    def __call__(self, event: Event) -> None:
        if isinstance(event, TurnsRecorded):
            for turn in event.turns:
                self.decisions += 1
                self.invalid += len(turn.attempts)
                self.fallbacks += int(turn.fallback)
                self.errors.update(attempt.error for attempt in turn.attempts)


def _player_disclosure(player: Player) -> dict[str, Any]:
    info: dict[str, Any] = {"spec": player.spec, "kind": player.kind}
    settings = getattr(player, "settings", None)
    if isinstance(settings, BaseModel):
        info["settings"] = {k: v for k, v in settings.model_dump().items() if "key" not in k.lower()}
    elif isinstance(settings, dict):
        info["settings"] = {k: v for k, v in settings.items() if "key" not in str(k).lower()}
    return info


def _harness(game: str, options: dict[str, Any], seed: int, budget: Budget | None) -> dict[str, Any]:
    spec = get_game(game)
    sample = spec.create(deal_seed(seed, 0), options)
    return {
        "seats": list(sample.seats),
        "first_to_move": sample.pending(),
        "episode_length": sample.progress()[1],
        "options": options,
        "timeout": None,
        "timeout_note": TIMEOUT_NOTE,
        "reask": "one re-ask with the validation error for: " + ", ".join(sorted(REASK_ERRORS)),
        "fallback": inspect.getdoc(type(sample).fallback) or "",
        "budget": asdict(budget) if budget else None,
    }


async def run_suite(
    store: Store | None,
    game: str,
    players: dict[str, str],
    *,
    n: int,
    seed: int,
    options: dict[str, Any] | None = None,
    swap: bool = True,
    observers: Sequence[Observer] = (),
    progress: Callable[[int, int], None] | None = None,
    budget: Budget | None = None,
) -> SuiteReport:
    """Play ``n`` deals of ``game`` with ``players`` (seat -> spec), each once per seat rotation.

    Raises :class:`arena.specs.SpecError` / ``ValueError`` for a bad line-up or option before
    anything is played, and :class:`arena.player.PlayerSetupError` if a player cannot play.
    The tournament row ends ``finished``, ``failed`` or ``aborted`` accordingly.
    """
    spec = get_game(game)
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    resolved = spec.resolve_options(options or {})
    seat_names = spec.seats(spec.parse_options(resolved))
    unknown = sorted(set(players) - set(seat_names))
    missing = [seat for seat in seat_names if seat not in players]
    if unknown or missing:
        seats = ", ".join(seat_names)
        raise SpecError(f"{spec.name} seats are {seats}; give each one a player (--seat SEAT=SPEC)")
    for text in players.values():
        parsed = parse_player_spec(text)
        if parsed.kind == "baseline" and parsed.name not in spec.baselines:
            known = ", ".join(f"baseline:{name}" for name in spec.baselines)
            raise SpecError(f"{spec.name} has no baseline {parsed.name!r} (baselines: {known})")
    assignments = rotations(seat_names, players, swap)
    report = SuiteReport(
        game=spec.name,
        game_version=spec.version,
        prompt_version=spec.prompt_version,
        seed=seed,
        n=n,
        swap=swap,
        options=resolved,
        players=dict(players),
        harness=_harness(spec.name, resolved, seed, budget),
    )
    if store is not None:
        config = dict(kind="suite", players=players, n=n, seed=seed, swap=swap, options=resolved)
        lineup = " vs ".join(players[seat] for seat in seat_names)
        report.tournament_id = store.create_tournament(f"suite {spec.name}: {lineup}", spec.name, config)
    total = n * len(assignments)
    started = time.perf_counter()
    try:
        for index in range(n):
            for assignment in assignments:
                summary = await _play_one(store, report, index, assignment, list(observers), budget)
                report.episodes.append(summary)
                if progress is not None:
                    progress(len(report.episodes), total)
    except BaseException as exc:
        report.status = "aborted" if isinstance(exc, KeyboardInterrupt | asyncio.CancelledError) else "failed"
        raise
    else:
        report.status = "finished"
    finally:
        report.seconds = time.perf_counter() - started
        if store is not None and report.tournament_id is not None:
            store.finish_tournament(report.tournament_id, report.status)
    return report


async def _play_one(
    store: Store | None,
    report: SuiteReport,
    index: int,
    assignment: dict[str, str],
    observers: list[Observer],
    budget: Budget | None,
) -> EpisodeSummary:
    episode_seed = deal_seed(report.seed, index)
    counter = _TurnCounter()
    config = MatchConfig(
        game=report.game,
        seats=assignment,
        seed=episode_seed,
        options=report.options,
        budget=budget or Budget(),
        tournament_id=report.tournament_id,
    )
    runner = prepare_runner(config, store, [counter, *observers])
    for seat, player in runner.players.items():
        report.inference.setdefault(assignment[seat], _player_disclosure(player))
    try:
        outcome = await runner.run()
    finally:
        for player in runner.players.values():
            with contextlib.suppress(Exception):
                await player.close()
    usage = outcome.usage.values()
    return EpisodeSummary(
        deal=index,
        seed=episode_seed,
        seats=assignment,
        status=outcome.status,
        episode_id=outcome.episode_id,
        scores={seat: result.score for seat, result in outcome.results.items()},
        metrics={seat: result.metrics for seat, result in outcome.results.items()},
        input_tokens=sum(u.input_tokens for u in usage),
        output_tokens=sum(u.output_tokens for u in usage),
        cost_usd=sum(u.cost_usd for u in usage),
        decisions=counter.decisions,
        invalid=counter.invalid,
        fallbacks=counter.fallbacks,
        errors=dict(counter.errors),
    )
