"""Arena's per-step overhead on a TextArena game against TextArena's own loop, in the same run.

Usage: python bench/textarena_overhead.py [--episodes 1000] [--game TicTacToe-v0] [--rounds 3]

Random vs random, the same seeds and the same moves in every loop:

- ``library``: TextArena driven directly, as its own examples do: ``ta.make(id)``,
  ``reset(num_players, seed)``, then per step ``get_observation()`` (the acting player's whole
  conversation as one string: the view a player is given) and ``step(move)``, ``close()`` at
  the end. Each move is drawn from the environment's legal moves (Arena's move list for it,
  the list a player picks from), so the baseline computes what Arena must: the view string
  and the legal moves. It uses the process-global ``random`` as TextArena does.
- ``arena state``: Arena's state alone (no runner, no store): isolated library calls, every
  seat's messages kept, the observation model of the acting seat, the move checked, applied.
- ``arena recorded``: the real runner with ``baseline:random`` in every seat, every turn written
  to a real SQLite file, as ``arena play`` does; also given as recorded episodes per second.

The loops run alternately ``--rounds`` times (the machine is shared: this evens out the load)
and the best round of each is printed with the ratio to the library's time per step.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import textarena as ta

from arena.engine.lineup import player_rng
from arena.engine.match import MatchConfig, play_match
from arena.plugins.games import get_game
from arena.store.database import Store
from games.textarena_catalogue.episode import unwrapped
from games.textarena_catalogue.listing import LISTED
from games.textarena_catalogue.moves import MOVES
from games.textarena_catalogue.seats import seat_name


def library_loop(env_id: str, episodes: int) -> int:
    """TextArena's own loop; returns the steps played."""
    entry = LISTED[env_id]
    moves_of = MOVES[str(entry.moves)]  # the first thirteen read their moves off the state
    players = entry.players[0]
    steps = 0
    for seed in range(episodes):
        env = ta.make(env_id)
        env.reset(num_players=players, seed=seed)
        base = unwrapped(env)
        rngs = [player_rng(seed, seat_name(p), "baseline:random") for p in range(players)]
        done = False
        while not done:
            pid, _view = env.get_observation()
            move = rngs[pid].choice(moves_of(base.state.game_state, pid, base))
            done, _ = env.step(move)
            steps += 1
        env.close()
    return steps


def state_loop(env_id: str, episodes: int) -> int:
    """Arena's state, driven the way the runner drives it, without the runner and the store."""
    definition = get_game(f"textarena:{env_id}")
    baseline = definition.baselines["random"]
    steps = 0
    for seed in range(episodes):
        state = definition.create(seed)
        players: dict[str, Any] = {
            seat: baseline.factory(player_rng(seed, seat, "baseline:random")) for seat in state.seats
        }
        while not state.over():
            seat = state.pending()[0]
            action = players[seat].choose(state.observation(seat))
            assert state.validate(seat, action) is None
            state.apply({seat: action})
            steps += 1
        state.result()
    return steps


def recorded_loop(env_id: str, episodes: int, db: Path) -> int:
    """The real runner with random baselines, every turn recorded; returns the turns stored."""
    definition = get_game(f"textarena:{env_id}")
    seats = dict.fromkeys(definition.default_seats, "baseline:random")
    store = Store(db)
    steps = 0

    async def play_all() -> int:
        played = 0
        for seed in range(episodes):
            outcome = await play_match(MatchConfig(definition.name, seats, seed=seed), store)
            assert outcome.status == "finished"
            played += len(store.raw_turns(outcome.episode_id or 0))
        return played

    try:
        steps = asyncio.run(play_all())
    finally:
        store.close()
    return steps


def main() -> None:
    """Run the three loops alternately and print the best round of each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--game", default="TicTacToe-v0", choices=sorted(LISTED))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    best: dict[str, tuple[float, int]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for round_index in range(args.rounds):
            db = Path(folder) / f"bench{round_index}.db"
            for name in ("library", "arena state", "arena recorded"):
                started = time.perf_counter()
                if name == "library":
                    steps = library_loop(args.game, args.episodes)
                elif name == "arena state":
                    steps = state_loop(args.game, args.episodes)
                else:
                    steps = recorded_loop(args.game, args.episodes, db)
                seconds = time.perf_counter() - started
                if name not in best or seconds < best[name][0]:
                    best[name] = (seconds, steps)
    print(f"{args.game}, {args.episodes} episodes random vs random, best of {args.rounds} rounds")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    library_per_step = best["library"][0] / best["library"][1]
    for name, (seconds, steps) in best.items():
        per_step = seconds / steps
        print(
            f"{name:>15}: {seconds:6.2f} s, {steps} steps, {per_step * 1e6:7.1f} us/step,"
            f" {per_step / library_per_step:4.2f}x the library, {args.episodes / seconds:7.1f} episodes/s"
        )


if __name__ == "__main__":
    main()
