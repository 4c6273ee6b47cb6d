"""Suite mode: play one line-up over many seeded deals of any game and roll the results up.

Deal ``i`` uses the episode seed :func:`deal_seed` ``(seed, i)``; with ``swap`` it is played
once per cyclic rotation of the seat assignment (two seats: as given, then swapped). Every
episode is recorded under one ``tournaments`` row when a store is given. Aggregates are per
player (self-play merges both seats) and per (player, seat): mean score, wins/draws/
losses (top score wins, a shared top is a draw), fallback and invalid-reply rates and the
mean of every numeric or boolean metric (``None`` skipped), over finished episodes only;
the report says how many episodes were left out and why. A player is its resolved
configuration (its hash): one name with two configurations is two players, labelled
``name#abcd``. :meth:`SuiteReport.to_dict` adds the five-part disclosure of seed 003:
identity, harness, inference, cost and failures.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import inspect
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from pydantic import BaseModel

from arena.match import MatchConfig, prepare_runner
from arena.player import Player
from arena.playerconfig import config_hash
from arena.records import Event, Observer, TurnsRecorded
from arena.registry import get_game
from arena.runner import REASK_ERRORS, Budget
from arena.specs import SpecError, parse_player_spec
from arena.store import Store
from arena.suite_report import (
    COUNT_KEYS,
    PARSE_ERRORS,
    Aggregate,
    EpisodeSummary,
    Row,
    SuiteReport,
    aggregate,
)

__all__ = [
    "COUNT_KEYS",
    "PARSE_ERRORS",
    "Aggregate",
    "EpisodeSummary",
    "Row",
    "SuiteReport",
    "aggregate",
    "deal_seed",
    "rotations",
    "run_suite",
]

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


class _TurnCounter:
    """Observer counting one episode's decisions, invalid replies, fallbacks and errors."""

    def __init__(self) -> None:
        self.decisions = self.invalid = self.fallbacks = 0
        self.errors: Counter[str] = Counter()
        self.seats: dict[str, dict[str, int]] = {}

    def __call__(self, event: Event) -> None:
        if isinstance(event, TurnsRecorded):
            for turn in event.turns:
                self.decisions += 1
                self.invalid += len(turn.attempts)
                self.fallbacks += int(turn.fallback)
                self.errors.update(attempt.error for attempt in turn.attempts)
                counts = self.seats.setdefault(turn.seat, {"decisions": 0, "fallbacks": 0, "invalid": 0})
                counts["decisions"] += 1
                counts["fallbacks"] += int(turn.fallback)
                counts["invalid"] += len(turn.attempts)


def _player_disclosure(player: Player) -> dict[str, Any]:
    info: dict[str, Any] = {"spec": player.spec, "kind": player.kind}
    settings = getattr(player, "settings", None)
    describe = getattr(player, "configuration", None)
    if callable(describe):  # resolved: defaults filled in, no key
        info["settings"] = dict(describe())
    elif isinstance(settings, BaseModel):
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
    try:
        outcome = await runner.run()
    finally:
        for player in runner.players.values():
            with contextlib.suppress(Exception):
                await player.close()
    configs = {seat: config_hash(config) for seat, config in runner.seat_configs.items()}
    for seat, player in runner.players.items():
        report.configurations.setdefault(configs[seat], runner.seat_configs[seat])
        report.inference.setdefault(assignment[seat], _player_disclosure(player))
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
        cached_tokens=sum(u.cached_tokens for u in usage),
        cache_write_tokens=sum(u.cache_write_tokens for u in usage),
        cost_usd=sum(u.cost_usd for u in usage),
        decisions=counter.decisions,
        invalid=counter.invalid,
        fallbacks=counter.fallbacks,
        errors=dict(counter.errors),
        message=outcome.message,
        configs=configs,
        seat_counts=counter.seats,
    )
