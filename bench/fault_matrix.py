"""The fault matrix: what a tournament makes of a model seat whose server misbehaves.

Usage: python bench/fault_matrix.py [--policy fallback|forfeit|both]

For each provider kind (``openai:`` through the Responses API, ``anthropic:`` with a forced
tool, ``openai-compat:`` through Chat Completions) and each fault, a small lemonade
tournament (the model against ``baseline:weather``, 1 deal seed, both seatings, 3 days) is
played through the real SDKs against the local wire-level server, into a fresh SQLite file.
Every request of the model is answered with the fault:

* ``closed port``: the base URL is a port nothing listens on;
* ``500`` / ``429``: every call answers HTTP 500 / 429 (``Retry-After: 0``; retried, then given up);
* ``refusal``: the provider's refusal (OpenAI's ``refusal`` field, Anthropic's ``stop_reason``);
* ``prose``: words and no JSON; ``truncated``: a reply cut off at the token limit;
* ``revised``: a first answer, then a final one (the last is played, counted ``revised``);
* ``hostile``: a legal answer whose reason carries Textual markup, an escape sequence and an
  instruction to the harness (played, stored literally).

It prints one row per fault with the outcome per provider: ``refused`` (one line before any
episode, exit 1 from the CLI), ``failed`` (its episodes ended ``player_failed``: the model
is not rated) or ``rated`` (with its fallback share and revised count).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.fault_matrix import FAULTS, KEY_ENV, PROVIDERS, outcome


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", choices=("fallback", "forfeit", "both"), default="fallback")
    args = parser.parse_args()
    os.environ[KEY_ENV] = "sk-bench-0000"
    policies = ("fallback", "forfeit") if args.policy == "both" else (args.policy,)
    with tempfile.TemporaryDirectory() as tmp:
        for policy in policies:
            print(f"\non_invalid = {policy}")
            print(f"| fault | {' | '.join(p + ':' for p in PROVIDERS)} |")
            print(f"|---|{'---|' * len(PROVIDERS)}")
            for fault in FAULTS:
                cells = [await outcome(provider, fault, policy, Path(tmp)) for provider in PROVIDERS]
                print(f"| {fault} | {' | '.join(cells)} |", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
