"""How true are the tables' intervals and "how sure" figures? The simulation of issue 43, large.

For each design of :mod:`tests.support.calibration` at 10, 30 and 100 deal seeds: the share
of 95% rating intervals that cover the truth, and the share of neighbouring pairs printed
with P(order right) >= 0.95 that are in the wrong order (the table's claim is that at most
5% are). Prints one row per design and seed count.

    .venv/bin/python bench/order_calibration.py [--tournaments 200] [--resamples 1000] [--design NAME]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.calibration import DESIGNS, SEED_COUNTS, run


def main() -> None:
    """Run the designs and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--design", action="append", choices=sorted(DESIGNS))
    parser.add_argument("--seeds", type=int, action="append")
    args = parser.parse_args()
    print(f"{args.tournaments} tournaments per row, {args.resamples} bootstrap resamples")
    print(
        f"{'design':14} {'seeds':>5} {'coverage':>9} {'printed':>8} {'wrong':>6} {'wrong %':>8} {'cpu s':>6}"
    )
    for name in args.design or list(DESIGNS):
        for seeds in args.seeds or SEED_COUNTS:
            started = time.process_time()
            tally = run(DESIGNS[name], seeds, args.tournaments, resamples=args.resamples, base_seed=7)
            spent = time.process_time() - started
            print(
                f"{name:14} {seeds:5d} {tally.coverage:9.3f} {tally.printed:8d} {tally.wrong:6d}"
                f" {100 * tally.wrong_share:7.1f}% {spent:6.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
