"""The TextArena catalogue check over every candidate; ``--write`` makes the listing from what passes.

    .venv/bin/python bench/textarena_catalogue.py          # print the table and the figures
    .venv/bin/python bench/textarena_catalogue.py --write  # and write textarena_catalogue/offered.json

Each candidate (``games.textarena_catalogue.listing.CANDIDATES``) is played by its ``random``
baseline on several seeds, each episode up to a step cap that it must end within, twice alone and
once interleaved with the other seeds (see :mod:`games.textarena_catalogue.check`). ``offered.json`` lists the
ones that pass and gives each other one its reason; ``arena games textarena`` lists only what
it names. Prints one line per game (status, seats, moves, steps, ended, determinism) and the
CPU seconds the sweep took.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from games.textarena_catalogue.check import check_candidate
from games.textarena_catalogue.listing import CANDIDATES, LIBRARY_VERSION, OFFERED_FILE


def main() -> None:
    """Check every candidate, print the table, write ``offered.json`` when asked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="write games/textarena_catalogue/offered.json")
    parser.add_argument("--seeds", type=int, default=3, help="seeds per game (0, 1, ...)")
    parser.add_argument(
        "--cap", type=int, default=3000, help="steps per episode at most (it must end by then)"
    )
    parser.add_argument("--only", nargs="*", default=None, help="these environment ids only")
    args = parser.parse_args()
    seeds = tuple(range(args.seeds))
    offered: list[str] = []
    not_offered: dict[str, str] = {}
    checks: dict[str, Any] = {}
    started = time.process_time()
    for env_id, entry in CANDIDATES.items():
        if args.only and env_id not in args.only:
            continue
        took = time.process_time()
        result = check_candidate(entry, seeds, args.cap, must_end=True)
        took = time.process_time() - took
        status = ("listed moves" if entry.listed_moves else "free moves") if result.passed else "NOT OFFERED"
        low, high = entry.players
        print(
            f"{env_id:30s} {'race' if entry.race else 'seats'} {low}-{high}  {status:12s}"
            f" steps={list(result.steps.values())} ended={result.ended}/{len(seeds)}"
            f" alone-twice={result.alone_twice} side-by-side={result.side_by_side}"
            f" refused-listed={result.refused_listed} cpu={took:.2f}s"
            + ("" if result.passed else f"  -- {result.reason()}")
        )
        checks[env_id] = {
            "status": status,
            "seeds": list(seeds),
            "cap": args.cap,
            "steps": list(result.steps.values()),
            "ended": result.ended,
            "alone_twice": result.alone_twice,
            "side_by_side": result.side_by_side,
            "refused_listed": result.refused_listed,
        }
        if result.passed:
            offered.append(env_id)
        else:
            not_offered[env_id] = result.reason()
    print(f"offered {len(offered)} of {len(checks)}; CPU {time.process_time() - started:.1f} s")
    if args.write:
        data = {
            "library_version": LIBRARY_VERSION,
            "made_by": "bench/textarena_catalogue.py --write",
            "offered": offered,
            "not_offered": not_offered,
            "checks": checks,
        }
        OFFERED_FILE.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {OFFERED_FILE}")


if __name__ == "__main__":
    main()
