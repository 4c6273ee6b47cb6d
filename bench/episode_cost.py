"""Where a recorded baseline lemonade episode's time goes, in CPU milliseconds per episode.

Usage: python bench/episode_cost.py [--episodes 500] [--rounds 3]

Three loops over the same seeds (weather vs cost-plus, 30 days, two stands), measured with
``time.process_time`` (CPU time of this process, so other programs on the machine disturb
it less than wall time), interleaved over ``--rounds`` rounds, best round kept:

* ``game``: the game state and the two baselines alone (observation, decision, apply);
* ``runner``: ``play_match`` without a store (runner, records, no rows);
* ``recorded``: ``play_match`` into a real SQLite file, as ``arena play`` does (SQLite runs in
  this process, so its CPU time is counted); the wall time per episode is printed too.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.engine.lineup import build_player
from arena.engine.match import MatchConfig, play_match
from arena.engine.runner import decision_request
from arena.plugins.games import get_game
from arena.store.database import Store

SEATS = {"a": "baseline:weather", "b": "baseline:cost-plus"}


async def game_only(episodes: int, _folder: Path) -> None:
    """The game and its baselines, with no runner: the floor of any episode loop."""
    definition = get_game("lemonade")
    for seed in range(1, episodes + 1):
        game = definition.new_state(seed, definition.parse_options(definition.resolve_options({})))
        players = {seat: build_player(text, definition, seed=seed, seat=seat) for seat, text in SEATS.items()}
        step = 0
        while not game.over():
            actions = {}
            for seat in game.pending():
                request = decision_request(game, seat, step, "", game.observation(seat))
                actions[seat] = (await players[seat].decide(request)).action
            game.apply(actions)
            step += 1
        game.result()


async def runner_only(episodes: int, _folder: Path) -> None:
    """``play_match`` with no store."""
    for seed in range(1, episodes + 1):
        await play_match(MatchConfig("lemonade", SEATS, seed=seed), None)


async def recorded(episodes: int, folder: Path) -> None:
    """``play_match`` into a fresh SQLite file."""
    store = Store(folder / f"cost-{time.monotonic_ns()}.db")
    try:
        for seed in range(1, episodes + 1):
            await play_match(MatchConfig("lemonade", SEATS, seed=seed), store)
    finally:
        store.close()


LOOPS: dict[str, Callable[[int, Path], Coroutine[Any, Any, None]]] = {
    "game": game_only,
    "runner": runner_only,
    "recorded": recorded,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    best_cpu = dict.fromkeys(LOOPS, float("inf"))
    best_wall = dict.fromkeys(LOOPS, float("inf"))
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        asyncio.run(recorded(20, folder))  # warm imports and caches
        for _ in range(args.rounds):
            for label, loop in LOOPS.items():
                cpu, wall = time.process_time(), time.perf_counter()
                asyncio.run(loop(args.episodes, folder))
                best_cpu[label] = min(best_cpu[label], (time.process_time() - cpu) / args.episodes * 1000)
                best_wall[label] = min(best_wall[label], (time.perf_counter() - wall) / args.episodes * 1000)
    print(f"{args.episodes} episodes per loop, best of {args.rounds} rounds")
    print(f"{'loop':<10} {'CPU ms/episode':>15} {'wall ms/episode':>16}")
    for label in LOOPS:
        print(f"{label:<10} {best_cpu[label]:>15.3f} {best_wall[label]:>16.3f}")
    print(f"runner over game: {best_cpu['runner'] - best_cpu['game']:.3f} ms CPU per episode")
    print(f"recording over runner: {best_cpu['recorded'] - best_cpu['runner']:.3f} ms CPU per episode")


if __name__ == "__main__":
    main()
