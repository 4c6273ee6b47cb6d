"""Only reproducible OpenSpiel games are played: the sweep of every registered game, and what it relies on.

Every game the installed library registers, with each yes/no and choice option at each value,
is either played (an episode and its rebuild from the stored JSON agree step for step) or
refused in one line before anything is stored; anything else is a bug
(:mod:`tests.support.openspiel_sweep`). The check is the game's own, not a list: a real
OpenSpiel game written here in Python that draws from an unseeded generator is refused by it.
``bench/openspiel_sweep.py`` prints the whole sweep with counts and its CPU time.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyspiel
import pytest

from arena.engine.match import MatchConfig, play_match
from arena.plugins import games as game_plugins
from arena.plugins.games import UnknownGameError, get_game
from arena.store.database import Store
from games.openspiel_catalogue import library
from tests.support.openspiel_sweep import registered, sweep

# -- the sweep ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", registered())
def test_every_registered_game_is_played_reproducibly_or_refused_in_one_line(name: str) -> None:
    outcomes = sweep([name])
    assert outcomes
    for outcome in outcomes:
        assert outcome.kind in ("played", "refused"), f"{outcome.label}: {outcome.line}"
        if outcome.kind == "refused":
            assert outcome.line and "\n" not in outcome.line, outcome.label
            assert "Traceback" not in outcome.line and "exception" not in outcome.line.lower()


def test_hanabi_plays_with_the_librarys_choices_and_each_option_value() -> None:
    outcomes = {outcome.label: outcome for outcome in sweep(["hanabi"])}
    assert outcomes["hanabi"].kind == "played", outcomes["hanabi"].line  # players 0: the library's 2
    assert outcomes["hanabi random_start_player=True"].kind == "played"
    assert {label for label, outcome in outcomes.items() if outcome.kind == "played"} == {
        "hanabi",
        "hanabi random_start_player=True",
        *(f"hanabi players={count}" for count in (2, 3, 4, 5)),
    }


def test_hanabi_with_its_defaults_names_its_seats() -> None:
    definition = get_game("openspiel:hanabi")
    assert definition.default_seats == ("p0", "p1")
    assert definition.seats_for({}) == ("p0", "p1")
    assert definition.seats_for({"players": "3"}) == ("p0", "p1", "p2")
    with pytest.raises(ValueError, match="option players must be one of 0, 2, 3, 4, 5"):
        definition.parse_options({"players": 1})  # the library aborts the process on 1


def test_a_random_start_player_follows_the_episodes_seed() -> None:
    """The library draws hanabi's first player itself; given the episode's seed, one seed is one episode."""
    definition = get_game("openspiel:hanabi")
    firsts = set()
    for seed in range(6):
        starts = {definition.create(seed, {"random_start_player": True}).pending()[0] for _ in range(3)}
        assert len(starts) == 1, f"seed {seed} started with {starts}"
        firsts |= starts
    assert firsts == {"p0", "p1"}, "the seed decides who starts (both happen over six seeds)"
    assert "seed=" in definition.create(4, {"random_start_player": True}).to_json()["game"]


def test_the_seed_parameter_is_set_by_the_episode_not_an_option() -> None:
    definition = get_game("openspiel:negotiation")  # sampled chance, seeded by rng_seed
    assert "rng_seed" not in {option.name for option in definition.options}
    with pytest.raises(
        ValueError, match="option rng_seed of openspiel:negotiation is set from the episode's seed"
    ):
        definition.parse_options({"rng_seed": 3})


@pytest.mark.parametrize(
    ("name", "options", "line"),
    [
        ("crossword", {}, "it takes its moves as action structs only"),
        (
            "goofspiel",
            {"num_cards": 3, "num_turns": 5},
            "^OpenSpiel cannot play goofspiel with these parameters: num_turns_ <= num_cards_ ",
        ),
    ],
)
def test_a_game_the_library_cannot_start_is_refused_in_one_line(
    name: str, options: dict[str, Any], line: str, capfd: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises((ValueError, UnknownGameError), match=line) as caught:
        get_game(f"openspiel:{name}").parse_options(options)
    assert "\n" not in str(caught.value)
    assert "OpenSpiel exception" not in capfd.readouterr().err


def _run(coroutine: Any) -> Any:
    import asyncio

    return asyncio.run(coroutine)


# -- a game that draws behind the seed's back is refused, found by playing it ---------------------

_DRAWS = "python_draws_unseeded"


class _Game(pyspiel.Game):  # type: ignore[misc]  # the library's class (untyped)
    """One player picks a number twice; the target is drawn from an unseeded generator (no seed parameter)."""

    def __init__(self, params: Any = None) -> None:
        super().__init__(_GAME_TYPE, _GAME_INFO, params or {})

    def new_initial_state(self) -> _State:
        return _State(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer()


class _State(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: _Game) -> None:
        super().__init__(game)
        self.target = random.SystemRandom().randrange(1_000_000)  # chance no seed decides
        self.picks: list[int] = []

    def current_player(self) -> int:
        return int(pyspiel.PlayerId.TERMINAL) if len(self.picks) >= 2 else 0

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1, 2]

    def _apply_action(self, action: int) -> None:
        self.picks.append(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return f"pick{action}"

    def is_terminal(self) -> bool:
        return len(self.picks) >= 2

    def returns(self) -> list[float]:
        return [float(sum(self.picks) == self.target % 5)]

    def __str__(self) -> str:
        return f"target {self.target} picks {self.picks}"


class _Observer:
    def __init__(self) -> None:
        self.tensor: list[float] = []
        self.dict: dict[str, Any] = {}

    def set_from(self, state: _State, player: int) -> None:
        pass

    def string_from(self, state: _State, player: int) -> str:
        return str(state)


_GAME_TYPE = pyspiel.GameType(
    short_name=_DRAWS,
    long_name="Python game drawing unseeded chance",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,  # says deterministic; draws anyway
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=1,
    min_num_players=1,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={},
)
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=3,
    max_chance_outcomes=0,
    num_players=1,
    min_utility=0.0,
    max_utility=1.0,
    utility_sum=None,
    max_game_length=2,
)


@pytest.fixture
def unseeded_game() -> Iterator[str]:
    """The game registered with the library (for this process), the catalogue's caches around it cleared."""
    if _DRAWS not in {game_type.short_name for game_type in pyspiel.registered_games()}:
        pyspiel.register_game(_GAME_TYPE, _Game)
    library.registry.cache_clear()
    yield f"openspiel:{_DRAWS}"
    library.registry.cache_clear()
    game_plugins._loaded.pop(f"openspiel:{_DRAWS}", None)


def test_a_game_drawing_chance_the_seed_does_not_decide_is_refused_before_anything_is_stored(
    unseeded_game: str, tmp_path: Path
) -> None:
    definition = get_game(unseeded_game)  # it starts: loading does not replay it
    with pytest.raises(ValueError) as caught:
        definition.parse_options({})
    assert str(caught.value) == (
        f"{unseeded_game} draws chance inside the library that the episode's seed does not decide"
        " (two replays of one seed differ at step 0), so its episodes would not replay"
    )
    store = Store(tmp_path / "refused.db")
    config = MatchConfig(game=unseeded_game, seats={"p0": "baseline:random"}, seed=1)
    with pytest.raises(ValueError, match="draws chance inside the library"):
        _run(play_match(config, store))
    assert store.list_episodes() == []
    store.close()
