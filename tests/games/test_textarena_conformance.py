"""``check_game`` passes for every listed TextArena environment, and the adapter's own guarantees.

Short options keep the suite fast (one Kuhn hand, two poker hands, ...); the long-running
boards are checked on one seed (the seed-for-seed test plays them on others).
"""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Any

import pytest

from arena.plugins.games import UnknownGameError, get_game
from arena.testing import SENTINEL, check_game
from games.textarena_catalogue.listing import LISTED, UNAVAILABLE
from tests.support.optional import needs

if TYPE_CHECKING:
    from games.textarena_catalogue.state import TextArenaState

pytestmark = needs("textarena")

SHORT: dict[str, dict[str, Any]] = {
    "ConnectFour-v0": {"num_rows": 4, "num_cols": 4},
    "KuhnPoker-v0": {"max_rounds": 1},
    "LiarsDice-v0-small": {"num_dice": 1},
    "PigDice-v0": {"winning_score": 15, "max_turns": 10},
    "Poker-v0": {"num_rounds": 2},
    "ColonelBlotto-v0": {"num_rounds": 2},
    "IteratedPrisonersDilemma-v0": {"num_rounds": 2},
}
ONE_SEED = {
    "ThreePlayerTicTacToe-v0",
    "Battleship-v0",
    "HighSociety-v0",
    "GameOfPureStrategy-v0",
    "GermanWhist-v0",
}
FIRST = list(LISTED)[:13]
"""The thirteen environments of the first adapter (every one has a legal-move function of its own)."""
KINDS = ["Crusade-v0", "GermanWhist-v0", "TowerOfHanoi-v0", "Minesweeper-v0"]
"""One of each later kind with listed moves, whole episodes: moves announced by the environment, moves
the environment filters on a copy, raced puzzles (one filtered). Free-move games cannot pass
``check_game`` (their example moves may be refused); the catalogue test plays every offered game,
capped: tests/games/test_textarena_catalogue.py."""


@pytest.mark.parametrize("env_id", [*FIRST, *KINDS])
def test_check_game_passes(env_id: str) -> None:
    seeds = (0,) if env_id in ONE_SEED else (0, 1)
    check_game(get_game(f"textarena:{env_id}"), seeds=seeds, options=SHORT.get(env_id, {}))


def _played(name: str, seed: int, options: dict[str, Any], steps: int | None = None) -> TextArenaState:
    from games.textarena_catalogue.state import TextArenaState  # imports TextArena

    state = get_game(f"textarena:{name}").create(seed, options)
    rng = random.Random(seed)
    while not state.over() and (steps is None or len(state.actions) < steps):
        seat = state.pending()[0]
        state.apply({seat: state.sample_action(seat, rng)})
    assert isinstance(state, TextArenaState)
    return state


def test_a_rebuilt_state_replays_the_actions_from_the_seed() -> None:
    played = _played("Poker-v0", 4, {"num_rounds": 2}, steps=9)
    replayed = type(played).rebuild(played.definition, json.loads(json.dumps(played.to_json())), reuse=False)
    assert replayed.to_json() == played.to_json()
    for seat in played.seats:
        assert replayed.observation(seat) == played.observation(seat)
    # and it plays on as the original does
    rng_a, rng_b = random.Random(1), random.Random(1)
    while not played.over():
        seat = played.pending()[0]
        played.apply({seat: played.sample_action(seat, rng_a)})
        replayed.apply({seat: replayed.sample_action(seat, rng_b)})
    assert replayed.to_json() == played.to_json() and replayed.returns() == played.returns()


def test_the_leak_probe_marks_a_poker_hand_and_only_its_owner_sees_it() -> None:
    state = _played("Poker-v0", 2, {"num_rounds": 2}, steps=1)
    assert not state.over()
    mark = str(SENTINEL)
    for owner in state.seats:
        twin = state.with_sentinel(owner, SENTINEL)
        assert twin is not None  # every seat holds cards the other does not see
        assert mark in json.dumps(twin.observation(owner).model_dump(mode="json"))
        for other in state.seats:
            if other != owner:
                assert mark not in json.dumps(twin.observation(other).model_dump(mode="json"))
                assert mark not in twin.definition.prompt_for(twin, other)
        assert mark not in json.dumps(
            state.observation(owner).model_dump(mode="json")
        )  # the original is untouched
        with pytest.raises(RuntimeError):
            twin.apply({seat: state.fallback(seat) for seat in state.pending()})


def test_the_rules_are_the_environment_s_own_prompt_for_every_seed() -> None:
    for env_id in FIRST:
        options = SHORT.get(env_id, {})
        definition = get_game(f"textarena:{env_id}")
        model = definition.parse_options(options)
        for seat in definition.seats(model):
            rules = definition.rules(model, seat)
            assert rules, env_id
            for seed in (3, 11):
                state = get_game(f"textarena:{env_id}").create(seed, options)
                prompts = [m.text for m in state.observation(seat).messages if m.kind == "PROMPT"]
                assert prompts == [rules], (env_id, seat)


SEEDED_FIRST_MESSAGE = {
    "SimpleNegotiation-v0",
    "SimpleBlindAuction-v0",
    "TwoDollar-v0",
    "TruthAndDeception-v0",
    "SecretMafia-v0",
}
"""The offered environments whose first message carries the episode's own (private) facts."""


def test_a_prompt_carries_its_own_episode_s_first_message() -> None:
    from games.textarena_catalogue.definition import SEEDED_RULES_NOTE

    varying = set()
    for env_id in LISTED:
        definition = get_game(f"textarena:{env_id}")
        rules = definition.rules(definition.parse_options({}), "p0")
        for seed in (3, 11):
            state = definition.create(seed)
            own = "\n".join(m.text for m in state.observation("p0").messages if m.kind == "PROMPT")
            assert own and own in definition.prompt_for(state, "p0")
            if own != rules:
                varying.add(env_id)
                assert rules.endswith(SEEDED_RULES_NOTE)
    assert varying == SEEDED_FIRST_MESSAGE


def test_an_unavailable_or_unlisted_environment_is_one_clear_line() -> None:
    with pytest.raises(UnknownGameError, match=r"^textarena:Wordle-v0 is unavailable: needs NLTK"):
        get_game("textarena:Wordle-v0")
    assert "Wordle-v0" in UNAVAILABLE
    with pytest.raises(UnknownGameError, match=r"^textarena:NoSuch-v0 is not in Arena's TextArena catalogue"):
        get_game("textarena:NoSuch-v0")


def test_the_version_names_the_library_release() -> None:
    from arena.tournament.provenance import module_source

    definition = get_game("textarena:TicTacToe-v0")
    assert definition.version == "0.7.4/1"
    source = module_source(type(definition).__module__)  # what a tournament report discloses
    assert source is not None and source["package"] == "games.textarena_catalogue"
    state = definition.create(0)
    extra = definition.view.export_extra(state)
    assert extra["library"] == "TextArena" and extra["library_version"] == "0.7.4"
    assert extra["env_id"] == "TicTacToe-v0"
