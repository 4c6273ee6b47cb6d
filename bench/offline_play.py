"""Does the offline model play or fall back? ``local:gemma3-270m`` against a baseline, per game.

Usage:
  python bench/offline_play.py                   # the full set: 30 lemonade days, 20 bargain
                                                 # rounds, 10 TextArena Nim games, 10 OpenSpiel
                                                 # games (tic_tac_toe, kuhn_poker, liars_dice,
                                                 # connect_four, in turn)
  python bench/offline_play.py --scale 0.3       # fewer days, rounds and games (a loaded machine)

Prints per game: the model's decisions, the invalid-reply rate (invalid replies per
decision, re-asks included), the fallback rate, the share of its own decisions equal to
the first listed option and to the game's fallback (the ``first_option`` and
``same_as_fallback`` metrics, where the runner records them), seconds per decision
(median of the stored latencies, re-asks included), and the load average beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.engine.match import MatchConfig, play_match
from arena.plugins.games import get_game
from arena.store.database import Store
from players.models import ModelsConfig

MODEL = "local:gemma3-270m"
OPENSPIEL = (
    "openspiel:tic_tac_toe",
    "openspiel:kuhn_poker",
    "openspiel:liars_dice",
    "openspiel:connect_four",
)


@dataclass
class Tally:
    """One game's counts for the model's seat."""

    episodes: int = 0
    decisions: int = 0
    invalid: int = 0
    fallbacks: int = 0
    first_option: int | None = None
    same_as_fallback: int | None = None
    latencies: list[float] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)


def plan(scale: float) -> list[tuple[str, str, dict[str, object], int]]:
    """(row label, game, options, seed) per episode to play."""
    days = max(1, round(30 * scale))
    rounds = max(2, round(20 * scale))
    nim = max(1, round(10 * scale))
    spiel = max(len(OPENSPIEL), round(10 * scale)) if scale >= 0.4 else len(OPENSPIEL)
    episodes: list[tuple[str, str, dict[str, object], int]] = [
        ("lemonade", "lemonade", {"days": days}, 0),
        ("bargain", "bargain", {"rounds": rounds}, 0),
    ]
    episodes += [("textarena:Nim-v0", "textarena:Nim-v0", {}, seed) for seed in range(nim)]
    episodes += [(OPENSPIEL[i % len(OPENSPIEL)], OPENSPIEL[i % len(OPENSPIEL)], {}, i) for i in range(spiel)]
    return episodes


def baseline(game: str) -> str:
    names = list(get_game(game).baselines)
    return f"baseline:{'weather' if 'weather' in names else 'honest' if 'honest' in names else 'random'}"


async def run(scale: float, store: Store) -> dict[str, Tally]:
    tallies: dict[str, Tally] = {}
    for label, game, options, seed in plan(scale):
        seats = list(get_game(game).seats_for(dict(options)))
        model_seat = seats[seed % 2] if not game.startswith("lemonade") else seats[0]
        lineup = {seat: (MODEL if seat == model_seat else baseline(game)) for seat in seats}
        outcome = await play_match(
            MatchConfig(game, lineup, seed=seed, options=dict(options)), store, models_config=ModelsConfig()
        )
        tally = tallies.setdefault(label, Tally())
        tally.episodes += 1
        tally.statuses.append(outcome.status)
        metrics = outcome.results[model_seat].metrics if model_seat in outcome.results else {}
        tally.decisions += int(metrics.get("decisions", 0))
        tally.invalid += int(metrics.get("invalid_replies", 0))
        tally.fallbacks += int(metrics.get("fallbacks", 0))
        for name in ("first_option", "same_as_fallback"):
            if name in metrics:
                setattr(tally, name, (getattr(tally, name) or 0) + int(metrics[name]))
        if outcome.episode_id is not None:
            rows = store.conn.execute(
                "SELECT latency FROM turns WHERE episode_id = ? AND seat = ?",
                (outcome.episode_id, model_seat),
            )
            tally.latencies += [float(latency) for (latency,) in rows]
        print(f"  {label} seed {seed}: {outcome.status}, {metrics.get('decisions', 0)} decisions", flush=True)
    return tallies


def share(part: int | None, whole: int) -> str:
    return "n/a" if part is None or not whole else f"{part / whole:.0%}"


def report(tallies: dict[str, Tally], seconds: float) -> None:
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\n{MODEL}, {seconds:.0f} s wall; load average at the end (1/5/15 min): {load}")
    print(
        "| game | episodes | decisions | invalid replies | fallback rate | first option | same as fallback"
        " | s per decision (median) | statuses |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for label, t in tallies.items():
        own = t.decisions - t.fallbacks
        median = f"{statistics.median(t.latencies):.1f}" if t.latencies else "-"
        statuses = ", ".join(f"{s} {t.statuses.count(s)}" for s in sorted(set(t.statuses)))
        print(
            f"| {label} | {t.episodes} | {t.decisions} | {share(t.invalid, t.decisions)} |"
            f" {share(t.fallbacks, t.decisions)} | {share(t.first_option, own)} |"
            f" {share(t.same_as_fallback, own)} | {median} | {statuses} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="share of the full counts to play (0-1]")
    parser.add_argument("--db", type=Path, help="keep the episodes in this database")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(args.db or Path(tmp) / "offline_play.db")
        started = time.perf_counter()
        tallies = asyncio.run(run(args.scale, store))
        report(tallies, time.perf_counter() - started)
        store.close()


if __name__ == "__main__":
    main()
