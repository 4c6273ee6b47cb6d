"""Random vs random through Arena (recorded in SQLite) is, seed for seed, TextArena driven directly.

The direct loop is TextArena's own: ``ta.make(id)``, ``reset(num_players, seed)``,
``get_observation()`` and ``step(move)`` until done, then ``close()``, with the same random
players (each seat's generator as Arena seeds ``baseline:random``, drawing from the same
legal-move lists). Every stored observation must read exactly as the string TextArena's LLM
wrapper gave that player at that turn, and the actions and rewards must be the same.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from arena.engine.lineup import player_rng
from arena.engine.match import MatchConfig, play_match
from arena.plugins.games import get_game
from arena.store.database import Store
from games.textarena_catalogue.listing import LISTED
from games.textarena_catalogue.messages import Message, conversation
from games.textarena_catalogue.moves import MOVES
from games.textarena_catalogue.seats import seat_name
from tests.support.optional import needs

pytestmark = needs("textarena")

CASES: list[tuple[str, dict[str, Any], int]] = [
    ("TicTacToe-v0", {}, 3),
    ("ThreePlayerTicTacToe-v0", {}, 4),
    ("ConnectFour-v0", {}, 5),
    ("Nim-v0", {}, 6),
    ("KuhnPoker-v0", {}, 7),
    ("LiarsDice-v0-small", {"players": 3}, 8),
    ("HighSociety-v0", {}, 9),
    ("Poker-v0", {"num_rounds": 3}, 10),
    ("ColonelBlotto-v0", {"num_rounds": 3}, 11),
    ("Battleship-v0", {}, 12),
]


def drive_directly(env_id: str, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """TextArena's own loop with Arena's random players; the moves, each observation and the rewards."""
    import textarena as ta

    from games.textarena_catalogue.episode import unwrapped

    entry = LISTED[env_id]
    players = int(options.get("players", entry.players[0]))
    kwargs = {k: v for k, v in options.items() if k != "players"}
    env = ta.make(env_id, **kwargs)
    env.reset(num_players=players, seed=seed)
    rngs = {pid: player_rng(seed, seat_name(pid), "baseline:random") for pid in range(players)}
    moves, observations = [], []
    done = False
    while not done:
        pid, observation = env.get_observation()
        base = unwrapped(env)
        move = rngs[pid].choice(MOVES[str(entry.moves)](base.state.game_state, pid, base))
        observations.append((seat_name(pid), observation))
        moves.append(move)
        done, _ = env.step(move)
    rewards, _ = env.close()
    return {
        "moves": moves,
        "observations": observations,
        "rewards": {seat_name(p): float(r) for p, r in rewards.items()},
    }


def drive_through_arena(env_id: str, options: dict[str, Any], seed: int, store: Store) -> dict[str, Any]:
    """The same match played by Arena's runner with ``baseline:random`` in every seat, recorded."""
    definition = get_game(f"textarena:{env_id}")
    seats = definition.seats_for(options)
    config = MatchConfig(
        game=definition.name, seats=dict.fromkeys(seats, "baseline:random"), seed=seed, options=options
    )
    outcome = asyncio.run(play_match(config, store))
    assert outcome.status == "finished" and outcome.episode_id is not None
    turns = store.turns(outcome.episode_id, definition)
    observations = [
        (
            turn["seat"],
            conversation(
                [Message(-1, m["sender"], m["text"], m["kind"]) for m in turn["observation"]["messages"]]
            ),
        )
        for turn in turns
    ]
    assert all(turn["valid"] and not turn["fallback"] for turn in turns)
    return {
        "moves": [turn["action"]["move"] for turn in turns],
        "observations": observations,
        "rewards": {row["seat"]: row["score"] for row in store.seats(outcome.episode_id)},
    }


@pytest.mark.parametrize(("env_id", "options", "seed"), CASES, ids=[case[0] for case in CASES])
def test_arena_plays_each_environment_as_textarena_does(
    env_id: str, options: dict[str, Any], seed: int, tmp_path: Path
) -> None:
    store = Store(tmp_path / "arena.db")
    try:
        through_arena = drive_through_arena(env_id, options, seed, store)
    finally:
        store.close()
    direct = drive_directly(env_id, options, seed)
    assert through_arena["moves"] == direct["moves"]
    assert through_arena["observations"] == direct["observations"]
    assert through_arena["rewards"] == direct["rewards"]
