"""Conformance of every registered game to the engine contract.

``arena.testing.check_game`` passes for every game (and fails for a game that leaks a
secret or is not deterministic). Random legal play never crashes; observations,
snapshots, turn states and metrics are JSON; the same seed and actions reproduce the
same episode; and replaying the actions stored by a real recorded episode rebuilds every
stored observation and state exactly.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from rich.console import Console, Group, RenderableType
from rich.text import Text

from arena.contract.game import Game, GameState
from arena.contract.player import BasePlayer, Decision, DecisionRequest
from arena.engine.match import MatchConfig, play_match, prepare_runner, run_to_end
from arena.plugins.games import game_names, get_game
from arena.store.database import Store
from arena.testing import GameCheckError, check_game
from games.bargain import BargainDefinition, BargainState
from games.lemonade import LemonadeDefinition, LemonadeState
from tests.support.gamekit import replay_stored

GAMES = game_names()
SMALL_OPTIONS: dict[str, dict[str, Any]] = {"lemonade": {"days": 6}}


def new_game(name: str, seed: int) -> Game:
    return get_game(name).create(seed, SMALL_OPTIONS.get(name, {}))


def random_episode(name: str, seed: int, rng: random.Random) -> tuple[Game, list[dict[str, BaseModel]]]:
    """Play a game to its end with random legal actions; returns it and the actions per step."""
    game = new_game(name, seed)
    steps: list[dict[str, BaseModel]] = []
    while not game.over():
        pending = game.pending()
        assert pending, "a game that is not over must have a seat to move"
        actions = {seat: game.sample_action(seat, rng) for seat in pending}
        for seat, action in actions.items():
            assert isinstance(action, game.action_model(seat))
            assert game.validate(seat, action) is None, f"sample_action gave an illegal action: {action}"
        game.apply(actions)
        steps.append(actions)
        assert len(steps) < 10_000
    return game, steps


def render_text(game: Game, viewer: str | None) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=140, color_system=None)
    console.print(game.definition.render(game, viewer))
    return buffer.getvalue()


@pytest.mark.parametrize("name", GAMES)
def test_registry_spec_matches_game(name: str) -> None:
    spec = get_game(name)
    game = new_game(name, 1)
    assert tuple(spec.seats_for(SMALL_OPTIONS.get(name, {}))) == tuple(game.seats)
    assert spec.baselines, "every game offers at least one baseline"
    assert spec.prompt_version and spec.version and spec.title


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [0, 1, 7, 123])
def test_random_play_is_json_and_never_crashes(name: str, seed: int) -> None:
    rng = random.Random(seed)
    game = new_game(name, seed)
    while not game.over():
        for seat in game.seats:
            json.dumps(game.observation(seat).model_dump(mode="json"))
            assert isinstance(game.definition.rules(game.options, seat), str)
        for seat in game.pending():
            assert game.definition.prompt_for(game, seat)
            assert game.validate(seat, game.fallback(seat)) is None, "the fallback must be legal"
        actions = {seat: game.sample_action(seat, rng) for seat in game.pending()}
        game.apply(actions)
        for seat in actions:
            json.dumps(game.turn_state(seat))
            assert game.describe_action(seat, actions[seat])
        json.dumps(game.snapshot())
        json.dumps(game.score_series())
        done, total = game.progress()
        assert done >= 0 and (total == 0 or done <= total)
    assert game.pending() == []
    results = game.result()
    assert set(results) == set(game.seats)
    json.dumps({seat: {"score": r.score, "metrics": r.metrics} for seat, r in results.items()})
    for viewer in (None, *game.seats):
        assert render_text(game, viewer)


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_and_actions_reproduce_the_episode(name: str) -> None:
    game, steps = random_episode(name, 42, random.Random(5))
    replay = new_game(name, 42)
    assert replay.snapshot() == new_game(name, 42).snapshot()
    for actions in steps:
        replay.apply(actions)
    assert replay.snapshot() == game.snapshot()
    assert {s: r.score for s, r in replay.result().items()} == {s: r.score for s, r in game.result().items()}
    other, _ = random_episode(name, 42, random.Random(5))
    assert other.snapshot() == game.snapshot()


class SamplePlayer(BasePlayer):
    """Plays ``game.sample_action`` (any legal action, losing ones included)."""

    kind = "baseline"

    def __init__(self, seat: str) -> None:
        self.spec = "test:sample"
        self.seat = seat
        self.rng = random.Random(f"sample:{seat}")
        self.game: Game | None = None

    async def decide(self, request: DecisionRequest) -> Decision:
        assert self.game is not None
        action = self.game.sample_action(request.seat, self.rng)
        return Decision(action=action, reason="sampled")


@pytest.mark.parametrize("name", GAMES)
async def test_replaying_stored_actions_reproduces_every_state(name: str, tmp_path: Path) -> None:
    spec = get_game(name)
    baseline = "random" if "random" in spec.baselines else next(iter(spec.baselines))
    names = list(spec.baselines)
    store = Store(tmp_path / "arena.db")
    try:
        for seed in range(3):
            seat_names = spec.seats_for(SMALL_OPTIONS.get(name, {}))
            seats = {seat: f"baseline:{baseline}" for seat in seat_names}
            # Vary the line-up so scripted styles are replayed too, not only the random one.
            seats[seat_names[0]] = f"baseline:{names[seed % len(names)]}"
            config = MatchConfig(game=name, seats=seats, seed=seed, options=SMALL_OPTIONS.get(name, {}))
            outcome = await play_match(config, store)
            assert outcome.episode_id is not None
            assert replay_stored(store, outcome.episode_id, name) > 0
    finally:
        store.close()


@pytest.mark.parametrize("name", GAMES)
async def test_replaying_sampled_play_reproduces_every_state(name: str, tmp_path: Path) -> None:
    spec = get_game(name)
    store = Store(tmp_path / "arena.db")
    try:
        for seed in (11, 12):
            players = {seat: SamplePlayer(seat) for seat in spec.seats_for(SMALL_OPTIONS.get(name, {}))}
            config = MatchConfig(game=name, seats={}, seed=seed, options=SMALL_OPTIONS.get(name, {}))
            runner = prepare_runner(config, store, [], players=dict(players))
            for player in players.values():
                player.game = runner.game  # the runner's state (events carry none)
            outcome = await run_to_end(runner)
            assert outcome.episode_id is not None
            replay_stored(store, outcome.episode_id, name)
    finally:
        store.close()


CHECK_OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("lemonade", {"days": 6}),
    ("lemonade", {"days": 4, "stands": 3, "market": "shared"}),
    ("lemonade", {"days": 3, "stands": 1}),
    ("bargain", {}),
    ("bargain", {"rounds": 3}),
    ("paperclip", {"puzzles": 2}),
    ("paperclip", {"puzzles": 2, "mode": "stepwise", "reporting": "touched", "seats": 1}),
    ("paperclip", {"puzzles": 1, "seats": 4, "tier": "hard"}),
]


def test_every_registered_game_is_checked() -> None:
    assert {name for name, _ in CHECK_OPTIONS} >= set(GAMES) >= {"lemonade", "bargain"}


@pytest.mark.parametrize(("name", "options"), CHECK_OPTIONS)
def test_check_game_passes(name: str, options: dict[str, Any]) -> None:
    check_game(get_game(name), options=options)


class LeakyBargain(BargainDefinition):
    """The bargain with a buyer's view that shows the seller's cost."""

    def render(self, state: GameState, viewer: str | None = None) -> RenderableType:
        assert isinstance(state, BargainState)
        return Group(super().render(state, viewer), Text(f"psst: cost {state.deal.cost}"))


class DriftingLemonade(LemonadeDefinition):
    """A lemonade stand whose world draws from the global ``random``."""

    def new_state(self, seed: int, options: BaseModel) -> LemonadeState:
        return super().new_state(seed + random.randint(0, 1), options)


def test_check_game_catches_a_leaked_secret() -> None:
    with pytest.raises(GameCheckError, match="'seller''s secret leaks into 'buyer''s view"):
        check_game(LeakyBargain())


def test_check_game_catches_global_randomness() -> None:
    with pytest.raises(GameCheckError):
        check_game(DriftingLemonade(), options={"days": 3}, seeds=tuple(range(8)))
