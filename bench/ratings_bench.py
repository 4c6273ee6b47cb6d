"""Seconds to rate a 10-player tournament of ~10,000 episodes with 1,000 seed bootstraps.

Usage: python bench/ratings_bench.py [--players 10] [--episodes 10000] [--resamples 1000] [--repeat 3]

Synthetic two-seat outcomes from known Elo strengths on the tournament schedule (every pair,
both seatings, every deal), then each step the table needs, timed separately: breaking
episodes into per-seed pairwise results, the Bradley-Terry fit with its bootstrap, the
win/draw/loss counts and win matrix, metric means with intervals (own metrics, pooled and per
seat), the facts of the deals (overall and per line-up) and the order confidence.
Also times the Plackett-Luce maximum-likelihood fit with its bootstrap on a 4-seat game of
about the same size, and openskill's order-dependent online ratings beside it, and a
leaderboard across three synthetic games of the same players (the size given, a fifth and a
twentieth of it: the combined fit plus each game's own table). Prints the best of
``--repeat`` runs per step.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable
from typing import TypeVar

from arena.tournament.confidence import order_confidence
from arena.tournament.leaderboard import Source, leaderboard_from
from arena.tournament.metrics import MetricRoles, deal_facts, player_metrics
from arena.tournament.openskill_ratings import openskill_ratings
from arena.tournament.plackett_luce import PLACKETT_LUCE, choice_fit
from arena.tournament.ratings import comparisons, ratings_from, win_matrix
from arena.tournament.records import EpisodeRecord, outcome_counts
from arena.tournament.schedule import lineups, schedule

T = TypeVar("T")


def synthetic(players: int, episodes: int, seats: list[str], seed: int) -> list[EpisodeRecord]:
    """About ``episodes`` episodes of a ``len(seats)``-seat game with evenly spread strengths."""
    names = [f"player-{i:02d}" for i in range(players)]
    strength = {name: 600.0 - 1200.0 * i / max(1, players - 1) for i, name in enumerate(names)}
    deals = max(1, round(episodes / len(lineups(seats, names))))
    rng = random.Random(seed)
    records = []
    for slot in schedule(seats, names, deals, seed):
        scores = {
            seat: strength[p] * math.log(10) / 400 - math.log(rng.expovariate(1.0))
            for seat, p in slot.seating.items()
        }
        metrics = {
            seat: {"cash": round(value * 10, 2), "closed": value > 0} for seat, value in scores.items()
        }
        records.append(EpisodeRecord(slot.slot_key, slot.deal_seed, slot.seating, scores, metrics=metrics))
    return records


def best_of(repeat: int, work: Callable[[], T]) -> tuple[float, T]:
    """Fastest wall time of ``repeat`` runs of ``work`` and its last result."""
    times = []
    result: T | None = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - started)
    assert result is not None
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    records = synthetic(args.players, args.episodes, ["a", "b"], seed=1)
    deals = len({r.deal_seed for r in records})
    size = f"{len(records)} two-seat episodes on {deals} deal seeds"
    print(f"{args.players} players, {size}, {args.resamples} resamples")
    t_pairs, data = best_of(args.repeat, lambda: comparisons(records))
    t_bt, ratings = best_of(args.repeat, lambda: ratings_from(data, resamples=args.resamples, seed=0))
    t_counts, _ = best_of(args.repeat, lambda: (outcome_counts(records), win_matrix(data)))
    # Timed as the table runs them: own metrics pooled and per seat, and one metric as a deal fact.
    roles = MetricRoles(episode=frozenset({"closed"}))
    t_metrics, _ = best_of(
        args.repeat, lambda: player_metrics(records, resamples=args.resamples, roles=roles)
    )
    t_facts, _ = best_of(args.repeat, lambda: deal_facts(records, resamples=args.resamples, roles=roles))
    t_order, _ = best_of(args.repeat, lambda: order_confidence(ratings, seed_cost_usd=0.1))
    total = t_pairs + t_bt + t_counts + t_metrics + t_facts + t_order
    print(f"{'pairwise results per seed':<34} {t_pairs:8.3f} s")
    print(f"{'Bradley-Terry + bootstrap':<34} {t_bt:8.3f} s")
    print(f"{'W/D/L counts + win matrix':<34} {t_counts:8.3f} s")
    print(f"{'metric means + intervals':<34} {t_metrics:8.3f} s")
    print(f"{'deal facts (all, per line-up)':<34} {t_facts:8.3f} s")
    print(f"{'order confidence':<34} {t_order:8.3f} s")
    print(f"{'ratings table, total':<34} {total:8.3f} s")
    print("order:", " > ".join(p.removeprefix("player-") for p in ratings.players))
    four = synthetic(args.players, args.episodes, ["n", "e", "s", "w"], seed=2)
    four_data = comparisons(four)
    t_pl, _ = best_of(
        args.repeat,
        lambda: ratings_from(
            four_data,
            resamples=args.resamples,
            tier_fit=choice_fit(four, four_data, 1.0),
            method=PLACKETT_LUCE,
        ),
    )
    label = f"{len(four)} 4-seat episodes"
    print(f"{'Plackett-Luce MLE + bootstrap, ' + label:<50} {t_pl:8.3f} s")
    t_online, _ = best_of(1, lambda: openskill_ratings(four))
    print(f"{'openskill (order-dependent), ' + label:<50} {t_online:8.3f} s")
    games = leaderboard_games(args.players, args.episodes)
    t_board, board = best_of(args.repeat, lambda: leaderboard_from(games, resamples=args.resamples))
    sizes = "/".join(str(len(game.records)) for game in games)
    label = f"leaderboard, 3 games of {sizes} episodes"
    print(f"{label + ' (with each game alone)':<50} {t_board:8.3f} s")
    print(
        "leaderboard order:", " > ".join(str(r["player"]).removeprefix("player-") for r in board["players"])
    )


def leaderboard_games(players: int, episodes: int) -> list[Source]:
    """Three synthetic two-seat games of the same players, of ``episodes``, a fifth and a twentieth of it."""
    names = {f"player-{i:02d}": f"player-{i:02d}" for i in range(players)}
    return [
        Source(number, f"game {number}", f"game-{number}", tuple(names), names, tuple(records))
        for number, size in enumerate((episodes, episodes // 5, episodes // 20), 1)
        for records in [synthetic(players, size, ["a", "b"], seed=10 + number)]
    ]


if __name__ == "__main__":
    main()
