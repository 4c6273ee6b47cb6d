"""How often a re-ask saves the decision: the share of re-asks that then succeed, per provider kind.

Usage:
  python bench/reask_success.py --db PATH            # read any Arena database
  python bench/reask_success.py --play 6 [--days 10] # first play N lemonade episodes of the
                                                     # offline model (local:gemma3-270m) against
                                                     # baseline:weather into a fresh database

A re-ask is made when a model's first answer was unusable in a way the runner asks again
about (unparsable, against the schema, illegal, cut off); it succeeded when the second
answer was used (the turn is no fallback). Counted per provider kind (the seat's stored
configuration) and per failure class of the first answer.

Measured (2026-12-08, ``--play 6 --days 5``, this loaded 2-core machine, 599 s): the offline
model (``local``) made 22 decisions, 18 were re-asked (13 against the schema, 5 illegal) and
0 of the 18 re-asks succeeded (0%). The wire-level test server's replies are scripted, so
the other provider kinds need a database played against the real APIs (``--db``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.engine.match import MatchConfig, play_match
from arena.engine.runner import REASK_ERRORS
from arena.store.database import Store


def reask_counts(store: Store) -> tuple[Counter[tuple[str, str]], Counter[tuple[str, str]]]:
    """Re-asks and the ones that succeeded, keyed by (provider kind, failure class)."""
    asked: Counter[tuple[str, str]] = Counter()
    saved: Counter[tuple[str, str]] = Counter()
    rows = store.conn.execute(
        "SELECT p.config, t.attempts, t.fallback FROM turns t"
        " JOIN seats s ON s.episode_id = t.episode_id AND s.seat = t.seat"
        " LEFT JOIN player_configs p ON p.hash = s.config_hash"
        " WHERE s.kind = 'model' AND t.attempts != '[]'"
    )
    for config, attempts_json, fallback in rows:
        attempts = orjson.loads(attempts_json)
        first = str(attempts[0].get("error", ""))
        if first not in REASK_ERRORS:
            continue  # not asked again (a refusal, a provider error)
        provider = str((orjson.loads(config) if config else {}).get("provider") or "?")
        asked[provider, first] += 1
        saved[provider, first] += int(not fallback)
    return asked, saved


async def play(store: Store, episodes: int, days: int) -> float:
    started = time.perf_counter()
    for seed in range(episodes):
        seats = {"a": "local:gemma3-270m", "b": "baseline:weather"}
        await play_match(MatchConfig("lemonade", seats, seed=seed, options={"days": days}), store)
    return time.perf_counter() - started


def report(store: Store) -> None:
    asked, saved = reask_counts(store)
    decisions = dict(
        store.conn.execute(
            "SELECT coalesce(json_extract(p.config, '$.provider'), '?'), count(*) FROM turns t"
            " JOIN seats s ON s.episode_id = t.episode_id AND s.seat = t.seat"
            " LEFT JOIN player_configs p ON p.hash = s.config_hash WHERE s.kind = 'model' GROUP BY 1"
        ).fetchall()
    )
    print("| provider | decisions | re-asks | succeeded | share | by first failure |")
    print("|---|---:|---:|---:|---:|---|")
    for provider in sorted(decisions):
        total = sum(n for (p, _), n in asked.items() if p == provider)
        good = sum(n for (p, _), n in saved.items() if p == provider)
        share = f"{good / total:.0%}" if total else "-"
        classes = ", ".join(
            f"{error} {saved[p, error]}/{n}" for (p, error), n in sorted(asked.items()) if p == provider
        )
        print(f"| {provider} | {decisions[provider]} | {total} | {good} | {share} | {classes or '-'} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="an Arena database to read")
    parser.add_argument("--play", type=int, default=0, help="offline-model episodes to play first")
    parser.add_argument("--days", type=int, default=10, help="days per lemonade episode (with --play)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(args.db or Path(tmp) / "reask.db")
        if args.play:
            seconds = asyncio.run(play(store, args.play, args.days))
            print(f"played {args.play} lemonade episodes of local:gemma3-270m in {seconds:.0f} s")
        report(store)
        store.close()


if __name__ == "__main__":
    main()
