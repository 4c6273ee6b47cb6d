"""One call to set up and play an episode: game, players, store, recorder, runner."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

from arena.contract.player import Player
from arena.contract.records import Observer
from arena.engine.deal_seed import episode_seed
from arena.engine.lineup import HumanFactory, build_player
from arena.engine.recorder import Recorder
from arena.engine.resume import ResumePoint, load_resume_point
from arena.engine.run_control import Budget, RunControl
from arena.engine.runner import (
    DEFAULT_FAILURE_LIMIT,
    EpisodeOutcome,
    EpisodeRunner,
    YieldPoint,
    next_loop_turn,
)
from arena.engine.user_input import seed_problem
from arena.plugins.games import get_game
from arena.plugins.players import SpecError
from arena.store.database import Store


@dataclass
class MatchConfig:
    """What to play: game, seat assignments, seed, options and limits."""

    game: str
    seats: dict[str, str]
    seed: int | None = None
    """The deal seed; ``None``: secret when a person plays, else 0 (:mod:`arena.engine.deal_seed`).
    A rematch of a config without one draws a new secret deal, as the person saw the last one."""
    options: dict[str, Any] = field(default_factory=dict)
    budget: Budget = field(default_factory=Budget)
    tournament_id: int | None = None
    slot_key: str | None = None
    failure_limit: int = DEFAULT_FAILURE_LIMIT
    """Failed decisions in a row (each ended on the fallback) that end the episode ``player_failed``."""
    on_invalid: str = "fallback"
    """After an unusable answer and its re-ask: ``fallback`` (the game's move) or ``forfeit``."""
    resume: ResumePoint | None = None
    """A stored episode to continue (see :func:`resume_config`); its own seed is played, whatever ``seed``
    says. A rematch leaves it out."""


def resume_config(store: Store, episode_id: int, budget: Budget | None = None) -> MatchConfig:
    """The match that continues stored episode ``episode_id`` from its last recorded step.

    ``seed`` stays ``None`` when a person plays (the deal is secret: a rematch draws a new one).
    Raises :class:`~arena.engine.export.EpisodeNotFound` or :class:`~arena.engine.resume.NotResumable`.
    """
    point = load_resume_point(store, episode_id)
    return MatchConfig(
        game=point.game,
        seats=dict(point.seats),
        seed=None if point.secret_seed else point.seed,
        options=dict(point.options),
        budget=budget or Budget(),
        resume=point,
    )


def prepare_runner(
    config: MatchConfig,
    store: Store | None,
    observers: list[Observer],
    *,
    human_factory: HumanFactory | None = None,
    models_config: Any = None,
    control: RunControl | None = None,
    players: dict[str, Player] | None = None,
    prepare_players: bool = True,
    yield_point: YieldPoint = next_loop_turn,
) -> EpisodeRunner:
    """Build the game and players, with a recorder that opens the episode when ``store`` is given.

    ``yield_point`` is what the episode awaits when it yields the event loop between steps
    (:class:`~arena.runner.EpisodeRunner`).

    Raises :class:`SpecError` or ``ValueError`` with a one-line message for a bad
    configuration (unknown seat, player or option).
    """
    definition = get_game(config.game)
    resume = config.resume
    seed = resume.seed if resume is not None else episode_seed(config.seed, config.seats)
    problem = seed_problem(seed)
    if problem:
        raise SpecError(problem)
    options = definition.resolve_options(config.options)
    game = definition.new_state(seed, definition.parse_options(options))
    unknown = sorted(set(config.seats) - set(game.seats))
    if unknown:
        raise SpecError(f"{definition.name} has no seat {unknown[0]!r} (seats: {', '.join(game.seats)})")
    missing = [seat for seat in game.seats if seat not in config.seats and not (players and seat in players)]
    if missing:
        raise SpecError(f"no player given for seat(s) {', '.join(missing)} (use --seat {missing[0]}=SPEC)")
    built = dict(players or {})
    for seat, text in config.seats.items():
        if seat not in built:
            built[seat] = build_player(
                text,
                definition,
                seed=seed,
                seat=seat,
                human_factory=human_factory,
                models_config=models_config,
            )
    ordered = {seat: built[seat] for seat in game.seats}
    return EpisodeRunner(
        game,
        ordered,
        list(observers),
        options=options,
        budget=config.budget,
        control=control,
        tournament_id=config.tournament_id,
        slot_key=config.slot_key,
        failure_limit=config.failure_limit,
        on_invalid=config.on_invalid,
        prepare_players=prepare_players,
        sink=Recorder(store) if store is not None else None,
        yield_point=yield_point,
        resume=resume,
    )


async def play_match(
    config: MatchConfig,
    store: Store | None,
    observers: list[Observer] | None = None,
    **kwargs: Any,
) -> EpisodeOutcome:
    """Play one episode to its end and close the players."""
    return await run_to_end(prepare_runner(config, store, observers or [], **kwargs))


async def run_to_end(runner: EpisodeRunner) -> EpisodeOutcome:
    """Run a prepared episode to its end and close its players."""
    try:
        return await runner.run()
    finally:
        for player in runner.players.values():
            with contextlib.suppress(Exception):
                await player.close()
