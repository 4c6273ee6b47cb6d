"""Share of input tokens a provider would serve from its prompt cache in a 30-day lemonade episode.

Usage: python bench/prompt_cache_share.py [--days 30] [--price 1.0]

One model seat (against ``baseline:weather``) plays through the real SDKs against the
wire-level test server with its prompt cache on (``tests/support/wire_cache.py``: OpenAI caches
the longest repeated prefix of 1,024+ tokens in 128-token steps under one
``prompt_cache_key``; Anthropic reads and writes at ``cache_control`` breakpoints of
1,024+ tokens; tokens are ``ceil(chars / 4)``). For each wire format, with and without
transcript memory, it prints input tokens, cached and cache-written tokens, the cached
share, and the input cost at ``--price`` dollars per million against the same tokens
at the full price (cached reads 0.1x, Anthropic writes 1.25x). The last column is the
cached share if providers cached prefixes of any length (no 1,024-token minimum).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from games.lemonade import DEFINITION as LEMONADE
from players.models import ModelsConfig, ModelSettings
from tests.support.wire_server import Behaviour, WireServer, reply

DECISION = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady at the base price"}
KEY_ENV = "ARENA_BENCH_KEY"
FORMATS: dict[str, dict[str, Any]] = {
    "openai responses": {"provider": "openai", "model": "gpt-test", "api": "responses"},
    "openai chat": {"provider": "openai", "model": "gpt-test", "api": "chat"},
    "anthropic messages": {"provider": "anthropic", "model": "claude-test"},
    "openai-compat chat": {"provider": "openai-compat", "model": "qwen-test"},
}


class CachingServer(WireServer):
    """Answers every request with the same legal decision and plays a prompt cache."""

    def __init__(self, minimum: bool) -> None:
        super().__init__()
        self.prompt_cache = True
        if not minimum:
            self.cache.openai_min = self.cache.anthropic_min = 0

    def next_behaviour(self) -> Behaviour:
        return reply(DECISION)


async def one_episode(
    fmt: dict[str, Any], memory: str, days: int, price: float, folder: Path, *, minimum: bool = True
) -> list[str]:
    """Play one episode and return the printed row."""
    with CachingServer(minimum) as server:
        base = server.url if fmt["provider"] == "anthropic" else server.openai_url
        settings = ModelSettings(
            **fmt,
            base_url=base,
            api_key_env=KEY_ENV,
            memory=memory,
            price_input_per_mtok=price,
        )
        store = Store(folder / f"{fmt['provider']}-{fmt.get('api', '')}-{memory}-{minimum}.db")
        try:
            outcome = await play_match(
                MatchConfig("lemonade", {"a": "m", "b": "baseline:weather"}, seed=11, options={"days": days}),
                store,
                models_config=ModelsConfig(models={"m": settings}),
            )
            turns = [t for t in store.turns(outcome.episode_id or 0, LEMONADE) if t["seat"] == "a"]
        finally:
            store.close()
        usage = outcome.usage["a"]
    total, cached = usage.input_tokens, usage.cached_tokens
    writes = usage.cache_write_tokens
    full = total * price / 1e6
    return [
        str(len(turns)),
        str(total),
        str(cached),
        str(writes),
        f"{cached / total:.1%}" if total else "-",
        f"${usage.cost_usd:.4f}",
        f"${full:.4f}",
    ]


async def run(days: int, price: float) -> None:
    os.environ.setdefault(KEY_ENV, "sk-bench-not-a-real-key")
    header = ["wire format", "memory", "turns", "input", "cached", "written", "cached share"]
    header += ["cost", "uncached", "share w/o minimum"]
    rows = [header]
    with tempfile.TemporaryDirectory() as tmp:
        for name, fmt in FORMATS.items():
            for memory in ("none", "transcript"):
                row = await one_episode(fmt, memory, days, price, Path(tmp))
                unlimited = await one_episode(fmt, memory, days, price, Path(tmp), minimum=False)
                rows.append([name, memory, *row, unlimited[4]])
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    print(f"lemonade, {days} days, seat a a model (output tokens priced at 0), input ${price}/Mtok")
    for row in rows:
        cells = zip(row, widths, strict=True)
        print("  ".join(c.rjust(w) if i > 1 else c.ljust(w) for i, (c, w) in enumerate(cells)))


def main() -> None:
    """Parse arguments and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--price", type=float, default=1.0, help="input dollars per million tokens")
    args = parser.parse_args()
    asyncio.run(run(args.days, args.price))


if __name__ == "__main__":
    main()
