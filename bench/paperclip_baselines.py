"""Paperclip baselines on many puzzles: scores per tier, tags, breaking points, and speed.

Usage: python bench/paperclip_baselines.py [--puzzles 500] [--seed 1]

Plays oracle, sloppy and random on the same puzzles through the real game object (no
database), once per reporting variant, and prints each seat's score, accuracy per tier
and per dimension, breaking point and tag distribution, then how fast the generator and
the grader run.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time

from arena.engine.runner import decision_request
from arena.plugins.games import get_game
from games.paperclip import PaperclipState
from games.paperclip.baselines import OraclePlayer, RandomPlayer, SloppyPlayer
from games.paperclip.generator import generate_set
from games.paperclip.grading import grade_puzzle

PLAYERS = {"a": OraclePlayer, "b": SloppyPlayer, "c": RandomPlayer}


async def play(puzzles: int, seed: int, reporting: str) -> PaperclipState:
    game = get_game("paperclip").create(
        seed, {"puzzles": puzzles, "reporting": reporting, "seats": len(PLAYERS)}
    )
    assert isinstance(game, PaperclipState)
    players = {seat: cls(random.Random(f"{seed}:{seat}")) for seat, cls in PLAYERS.items()}
    step = 0
    while not game.over():
        actions = {}
        for seat, player in players.items():
            decision = await player.decide(decision_request(game, seat, step))
            actions[seat] = game.action_model(seat).model_validate(decision.action)
        game.apply(actions)
        step += 1
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=500, help="at most 500 (the game option's limit)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for reporting in ("full", "touched"):
        started = time.perf_counter()
        game = asyncio.run(play(args.puzzles, args.seed, reporting))
        elapsed = time.perf_counter() - started
        print(f"== {args.puzzles} mixed puzzles, batch mode, {reporting} reporting ({elapsed:.2f} s) ==")
        for seat, result in game.result().items():
            m = result.metrics
            print(
                f"{PLAYERS[seat].name:>7}: score {result.score:.3f}  full/core/wrong/invalid "
                f"{m['full']}/{m['core']}/{m['wrong']}/{m['invalid']}  by tier {m['accuracy_by_tier']}  "
                f"breaking point {m['breaking_point']}"
            )
            print(f"         by dimensions {m['accuracy_by_dimensions']}  tags {m['tags']}")
    started = time.perf_counter()
    puzzles = generate_set(args.seed, 5000, "mix", "mix", 1)
    generated = time.perf_counter() - started
    started = time.perf_counter()
    for puzzle in puzzles:
        grade_puzzle(puzzle, list(puzzle.states), puzzle.answer)
    graded = time.perf_counter() - started
    speed = f"generator: {len(puzzles) / generated:,.0f} puzzles/s"
    print(f"{speed}; grader: {len(puzzles) / graded:,.0f} answers/s")


if __name__ == "__main__":
    main()
