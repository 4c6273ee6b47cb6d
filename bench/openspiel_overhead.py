"""Arena's per-step overhead on OpenSpiel games against the library's own loop, in the same run.

Random against random, ``--episodes`` episodes (default 1,000) of Kuhn poker and connect four.
A "step" is one player decision (chance outcomes are not counted). Five loops, each timed alone:

- ``pyspiel bare``: the plain loop: chance by ``random.Random(seed).choices``, a move by
  ``rng.choice(legal_actions())``, ``apply_action``; about 2-3 us a step.
- ``pyspiel + strings`` (the fair baseline): the same, plus what Arena must compute at every
  decision: the acting seat's view string (information-state or observation string) and the
  names of its legal actions (``action_to_string``), with the move chosen by name.
- ``adapter``: Arena's OpenSpiel state alone (``sample_action`` and ``apply``, the observation
  of the acting seat built at each step): the adapter's own cost.
- ``runner``: the real episode runner with ``baseline:random`` in every seat, not recorded.
- ``recorded``: the same, every turn written to a real SQLite file (as ``arena play`` does).

Prints microseconds per step, each loop against the fair baseline and against the bare loop,
and episodes per second. Asserts nothing.

Usage: ``.venv/bin/python bench/openspiel_overhead.py [--episodes 1000]``
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pyspiel

from arena.engine.match import MatchConfig, play_match
from arena.plugins.games import get_game
from arena.store.database import Store
from games.openspiel_catalogue.state import OpenSpielState

GAMES = ("kuhn_poker", "connect_four")


def library_loop(name: str, episodes: int, *, strings: bool) -> int:
    """Random play in pyspiel itself; returns the player steps taken."""
    game = pyspiel.load_game(name)
    perfect = game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    steps = 0
    for seed in range(episodes):
        state = game.new_initial_state()
        chance = random.Random(seed)
        seat = random.Random(f"seat:{seed}")
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(chance.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            player = state.current_player()
            legal = state.legal_actions(player)
            if strings:
                view = state.observation_string(player) if perfect else state.information_state_string(player)
                names = [state.action_to_string(player, a) for a in legal]
                action = legal[names.index(seat.choice(names))]
                del view
            else:
                action = seat.choice(legal)
            state.apply_action(action)
            steps += 1
    return steps


def adapter_loop(name: str, episodes: int) -> int:
    """Random play through Arena's OpenSpiel state alone; returns the player steps taken."""
    definition = get_game(f"openspiel:{name}")
    steps = 0
    for seed in range(episodes):
        state = definition.create(seed)
        assert isinstance(state, OpenSpielState)
        rng = random.Random(f"seat:{seed}")
        while not state.over():
            pending = state.pending()
            for seat in pending:
                state.observation(seat)
            state.apply({seat: state.sample_action(seat, rng) for seat in pending})
            steps += len(pending)
    return steps


def runner_loop(name: str, episodes: int, store: Store | None) -> int:
    """Random play through the real runner (recorded when ``store`` is given); returns the decisions."""
    definition = get_game(f"openspiel:{name}")
    seats = {seat: "baseline:random" for seat in definition.default_seats}

    async def play_all() -> int:
        decisions = 0
        for seed in range(episodes):
            outcome = await play_match(MatchConfig(definition.name, seats, seed=seed), store)
            assert outcome.status == "finished"
            decisions += sum(int(result.metrics["decisions"]) for result in outcome.results.values())
        return decisions

    return asyncio.run(play_all())


def timed(run: Callable[[], int]) -> tuple[float, int]:
    start = time.perf_counter()
    steps = run()
    return time.perf_counter() - start, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--episodes", type=int, default=1000)
    args = parser.parse_args()
    episodes = args.episodes
    print(f"load average {os.getloadavg()[0]:.2f}; {episodes} episodes each, random vs random")
    header = ("game", "loop", "seconds", "steps", "us/step", "x fair", "x bare", "eps/s")
    print("{:<13} {:<17} {:>8} {:>7} {:>8} {:>7} {:>7} {:>8}".format(*header))
    for name in GAMES:
        with tempfile.TemporaryDirectory() as folder:
            store = Store(Path(folder) / "bench.db")
            try:
                loops: list[tuple[str, Callable[[int], int]]] = [
                    ("pyspiel bare", functools.partial(library_loop, name, strings=False)),
                    ("pyspiel + strings", functools.partial(library_loop, name, strings=True)),
                    ("adapter", functools.partial(adapter_loop, name)),
                    ("runner", functools.partial(runner_loop, name, store=None)),
                    ("recorded", functools.partial(runner_loop, name, store=store)),
                ]
                for _, run in loops:  # warm up: the game loaded, caches filled, code paths hot
                    run(max(1, episodes // 20))
                results = {label: timed(functools.partial(run, episodes)) for label, run in loops}
            finally:
                store.close()
        bare = results["pyspiel bare"][0] / results["pyspiel bare"][1]
        fair = results["pyspiel + strings"][0] / results["pyspiel + strings"][1]
        for label, (seconds, steps) in results.items():
            per_step = seconds / steps
            print(
                f"{name:<13} {label:<17} {seconds:>8.3f} {steps:>7} {per_step * 1e6:>8.1f}"
                f" {per_step / fair:>7.1f} {per_step / bare:>7.1f} {episodes / seconds:>8.0f}"
            )


if __name__ == "__main__":
    main()
