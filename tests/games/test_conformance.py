"""Conformance of every registered game to the engine contract.

``arena.testing.check_game`` passes for every game (and fails for a game that leaks a
secret or is not deterministic). Random legal play never crashes; observations,
full states, turn states and metrics are JSON; the same seed and actions reproduce the
same episode; and replaying the actions stored by a real recorded episode rebuilds every
stored observation and state exactly.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from rich.console import Console, Group, RenderableType
from rich.text import Text

from arena.contract.baseline import BaselineInfo, baseline_table
from arena.contract.catalogue import PREFIX_SEPARATOR
from arena.contract.game import GameState
from arena.contract.player import Decision, DecisionRequest, Player
from arena.engine.match import MatchConfig, play_match, prepare_runner, run_to_end
from arena.plugins.games import UnknownGameError, game_names, get_game
from arena.store.database import Store
from arena.testing import GameCheckError, check_game
from games.bargain import BargainDefinition, BargainState
from games.bargain.baselines import BargainBaseline, View
from games.bargain.rules import BargainAction
from games.bargain.view import BargainView
from games.cattle.definition import CattleDefinition
from games.cattle.game import CattleState
from games.cattle.view import CattleView
from games.lemonade import LemonadeDefinition, LemonadeOptions, LemonadeState
from tests.support.gamekit import replay_stored

# Catalogue games (PREFIX:NAME) have their own checks with short options (test_openspiel_*, test_textarena_*).
GAMES = [name for name in game_names() if PREFIX_SEPARATOR not in name]
SMALL_OPTIONS: dict[str, dict[str, Any]] = {"lemonade": {"days": 6}, "cattle": {"turn_cap": 20}}


def new_game(name: str, seed: int) -> GameState:
    game: GameState = get_game(name).create(seed, SMALL_OPTIONS.get(name, {}))
    return game


def random_episode(name: str, seed: int, rng: random.Random) -> tuple[GameState, list[dict[str, BaseModel]]]:
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


def render_text(game: GameState, viewer: str | None) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=140, color_system=None)
    console.print(game.definition.view.render(game, viewer))
    return buffer.getvalue()


@pytest.mark.parametrize("name", GAMES)
def test_registry_spec_matches_game(name: str) -> None:
    definition = get_game(name)
    game = new_game(name, 1)
    assert tuple(definition.seats_for(SMALL_OPTIONS.get(name, {}))) == tuple(game.seats)
    assert definition.baselines, "every game offers at least one baseline"
    assert definition.prompt_version and definition.version and definition.title


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
        view = game.definition.view
        for seat in actions:
            json.dumps(game.turn_state(seat))
            assert view.describe_action(game, seat, actions[seat])
        json.dumps(game.to_json())
        json.dumps(view.score_series(game))
        done, total = view.progress(game)
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
    assert replay.to_json() == new_game(name, 42).to_json()
    for actions in steps:
        replay.apply(actions)
    assert replay.to_json() == game.to_json()
    assert {s: r.score for s, r in replay.result().items()} == {s: r.score for s, r in game.result().items()}
    other, _ = random_episode(name, 42, random.Random(5))
    assert other.to_json() == game.to_json()


class SamplePlayer(Player):
    """Plays ``game.sample_action`` (any legal action, losing ones included)."""

    kind = "baseline"

    def __init__(self, seat: str) -> None:
        self.spec = "test:sample"
        self.seat = seat
        self.rng = random.Random(f"sample:{seat}")
        self.game: GameState | None = None

    async def decide(self, request: DecisionRequest) -> Decision:
        assert self.game is not None
        action = self.game.sample_action(request.seat, self.rng)
        return Decision(action=action, reason="sampled")


@pytest.mark.parametrize("name", GAMES)
async def test_replaying_stored_actions_reproduces_every_state(name: str, tmp_path: Path) -> None:
    definition = get_game(name)
    baseline = "random" if "random" in definition.baselines else next(iter(definition.baselines))
    names = list(definition.baselines)
    store = Store(tmp_path / "arena.db")
    try:
        for seed in range(3):
            seat_names = definition.seats_for(SMALL_OPTIONS.get(name, {}))
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
    definition = get_game(name)
    store = Store(tmp_path / "arena.db")
    try:
        for seed in (11, 12):
            players = {seat: SamplePlayer(seat) for seat in definition.seats_for(SMALL_OPTIONS.get(name, {}))}
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
    # A whole game is about 300 steps, each checking every seat's secret against every other
    # seat's view and prompt (20 checks a step with 5 seats); 10 turns keep the check at seconds.
    # The late game's secrets: tests/games/test_cattle_game.py.
    ("cattle", {"turn_cap": 10}),
    ("cattle", {"players": 3, "auction": "sealed", "turn_cap": 10}),
    ("cattle", {"players": 5, "auction": "sequential", "notes": True, "turn_cap": 10}),
]


def test_every_registered_game_is_checked() -> None:
    assert {name for name, _ in CHECK_OPTIONS} >= set(GAMES) >= {"lemonade", "bargain"}


@pytest.mark.parametrize(("name", "options"), CHECK_OPTIONS)
def test_check_game_passes(name: str, options: dict[str, Any]) -> None:
    check_game(get_game(name), options=options)


class LeakyBargainView(BargainView):
    """The bargain's board with the seller's cost on every seat's view."""

    def render(self, state: BargainState, viewer: str | None) -> RenderableType:
        return Group(super().render(state, viewer), Text(f"psst: cost {state.deal.cost}"))


class LeakyBargain(BargainDefinition):
    """The bargain with a buyer's view that shows the seller's cost."""

    view = LeakyBargainView()


class LeakyCattleView(CattleView):
    """Cattle Trade's board with the last seat's money cards on every seat's view."""

    def render(self, state: CattleState, viewer: str | None) -> RenderableType:
        last = state.seats[-1]
        money = state.table.money[last]
        return Group(super().render(state, viewer), Text(f"psst: {last} holds {money}"))


class LeakyCattle(CattleDefinition):
    """Cattle Trade with every view showing one seat's money: a leak among more than two seats."""

    view = LeakyCattleView()


class DriftingLemonade(LemonadeDefinition):
    """A lemonade stand whose world draws from the global ``random``."""

    def new_state(self, seed: int, options: LemonadeOptions) -> LemonadeState:
        return super().new_state(seed + random.randint(0, 1), options)


class UnregisteredBargain(BargainDefinition):
    """The bargain under a name no package registers: a game not installed yet."""

    name = "bargain_draft"


class ForgetfulBidder(Player):
    """A scripted bargainer written without the Baseline base: it never sets its spec."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    async def decide(self, request: DecisionRequest) -> Decision:
        return Decision(action=request.action_model.model_validate({"action": "offer", "price": 100}))


class ForgetfulBargain(BargainDefinition):
    """The bargain with a baseline that does not say its name."""

    @property
    def baselines(self) -> Mapping[str, BaselineInfo]:
        return {"forgetful": BaselineInfo("forgetful", "never sets its spec", ForgetfulBidder)}


class NamelessBidder(BargainBaseline):
    """A Baseline subclass without a ``name``."""

    def plan(self, view: View) -> BargainAction:
        return BargainAction(action="offer", price=100)


class NamelessBargain(BargainDefinition):
    """The bargain with a baseline class that has no name."""

    @property
    def baselines(self) -> Mapping[str, BaselineInfo]:
        return baseline_table(NamelessBidder)


def test_check_game_catches_a_leaked_secret() -> None:
    with pytest.raises(GameCheckError, match="'seller''s secret leaks into 'buyer''s view"):
        check_game(LeakyBargain())


def test_check_game_names_whose_secret_leaks_among_many_seats() -> None:
    # The checker plants every other seat's secrets at once; a leak still names its owner.
    with pytest.raises(GameCheckError, match="'p4''s secret leaks into 'p1''s view"):
        check_game(LeakyCattle(), options={"players": 4, "turn_cap": 10})


def test_check_game_catches_global_randomness() -> None:
    with pytest.raises(GameCheckError):
        check_game(DriftingLemonade(), options={"days": 3}, seeds=tuple(range(8)))


def test_check_game_takes_a_definition_that_is_not_installed() -> None:
    # The stored episode is rebuilt by the definition handed over, not one looked up by name.
    with pytest.raises(UnknownGameError):
        get_game(UnregisteredBargain.name)
    check_game(UnregisteredBargain(), seeds=(3,))


def test_check_game_fails_a_baseline_that_does_not_set_its_name() -> None:
    message = "baseline 'forgetful' plays as player '', not 'baseline:forgetful'"
    with pytest.raises(GameCheckError, match=message):
        check_game(ForgetfulBargain(), seeds=(3,))
    with pytest.raises(GameCheckError, match="a baseline of bargain has no name"):
        check_game(NamelessBargain(), seeds=(3,))
