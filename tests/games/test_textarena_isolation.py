"""Each TextArena episode draws from its own randomness, whatever runs beside it.

TextArena reseeds and draws from the process-global ``random`` (LiarsDice re-rolls every
round, Poker shuffles every hand); the adapter swaps each episode's generator state in for
each library call only.
"""

from __future__ import annotations

import random
import re
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from arena.plugins.games import get_game
from games.textarena_catalogue.isolation import EpisodeRandom
from tests.support.optional import needs

pytestmark = needs("textarena")


def _played(name: str, seed: int) -> Any:
    definition = get_game(f"textarena:{name}")
    state = definition.create(seed)
    rng = random.Random(seed)
    while not state.over():
        seat = state.pending()[0]
        state.apply({seat: state.sample_action(seat, rng)})
    return state


def _trace(state: Any) -> dict[str, Any]:
    return {"json": state.to_json(), "returns": state.returns()}


@pytest.mark.parametrize("name", ["LiarsDice-v0-small", "Poker-v0"])
def test_two_interleaved_episodes_give_what_each_gives_alone(name: str) -> None:
    alone = {seed: _trace(_played(name, seed)) for seed in (1, 2)}
    definition = get_game(f"textarena:{name}")
    states = {seed: definition.create(seed) for seed in (1, 2)}
    rngs = {seed: random.Random(seed) for seed in (1, 2)}
    while not all(state.over() for state in states.values()):
        for seed, state in states.items():  # one step of each in turn
            if not state.over():
                seat = state.pending()[0]
                state.apply({seat: state.sample_action(seat, rngs[seed])})
                random.random()  # and the process's own draws in between
    assert {seed: _trace(state) for seed, state in states.items()} == alone
    assert alone[1] != alone[2]


def test_a_library_call_leaves_the_process_random_where_it_was() -> None:
    random.seed(5)
    expected = random.Random(5).random()
    _played("LiarsDice-v0-small", 3)  # reset(seed=...) reseeds the global random inside
    assert random.random() == expected


def test_an_episode_random_is_its_seed_whatever_ran_before() -> None:
    random.seed(1)
    first = EpisodeRandom(7).call(lambda: random.random())
    random.seed(2)
    assert EpisodeRandom(7).call(lambda: random.random()) == first
    assert EpisodeRandom(7).call(lambda: random.random()) == random.Random(7).random()


def test_the_library_looks_the_random_functions_up_at_each_call() -> None:
    # The isolation stands the episode's methods in for the module's functions during a call:
    # a function bound at import time (`from random import choice`) would escape it.
    import textarena

    root = Path(textarena.__file__).parent
    bound = [
        path.relative_to(root)
        for path in sorted(root.rglob("*.py"))
        if re.search(r"^\s*from random import|import random as", path.read_text(), re.MULTILINE)
    ]
    assert bound == []


def test_numpy_is_swapped_for_environments_that_draw_from_it() -> None:
    import numpy as np

    np.random.seed(3)
    expected = np.random.RandomState(3).random_sample()
    episode = EpisodeRandom(9, uses_numpy=True)
    drawn = episode.call(np.random.random_sample)
    assert np.random.random_sample() == expected
    assert EpisodeRandom(9, uses_numpy=True).call(np.random.random_sample) == drawn


def test_episodes_stepped_from_threads_stay_their_own() -> None:
    # the swap is process-global: without the lock, a thread switch inside one episode's library
    # call lets another episode swap its state in and out meanwhile
    name = "Poker-v0"
    seeds = range(4, 10)
    alone = {seed: _trace(_played(name, seed)) for seed in seeds}
    found: dict[int, dict[str, Any]] = {}

    def run(seed: int) -> None:
        found[seed] = _trace(_played(name, seed))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        threads = [threading.Thread(target=run, args=(seed,)) for seed in seeds]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert found == alone
