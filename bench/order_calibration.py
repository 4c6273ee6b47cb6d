"""How true are the tables' intervals and "how sure" figures? The simulation of issue 43, large.

For each design of :mod:`tests.support.calibration` at 10, 30 and 100 deal seeds: the share
of 95% rating intervals that cover the truth; the neighbouring pairs printed as sure
(``sure`` = 1 - q >= 0.95, the table's "how sure" column) and the share of them in the wrong
order (the claim: at most 5%); and the same for each pair's own P(order right) >= 0.95,
unadjusted, as the tables printed before issue 43. One row per design and seed count.

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
        f"{'design':12} {'seeds':>5} {'coverage':>9} | {'sure>=.95':>9} {'wrong':>5} {'share':>6} |"
        f" {'P>=.95':>7} {'wrong':>5} {'share':>6} | {'cpu s':>6}"
    )
    for name in args.design or list(DESIGNS):
        for seeds in args.seeds or SEED_COUNTS:
            started = time.process_time()
            tally = run(DESIGNS[name], seeds, args.tournaments, resamples=args.resamples, base_seed=7)
            spent = time.process_time() - started
            print(
                f"{name:12} {seeds:5d} {100 * tally.coverage:8.1f}% | {tally.printed:9d} {tally.wrong:5d}"
                f" {100 * tally.wrong_share:5.1f}% | {tally.raw_printed:7d} {tally.raw_wrong:5d}"
                f" {100 * tally.raw_wrong_share:5.1f}% | {spent:6.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
