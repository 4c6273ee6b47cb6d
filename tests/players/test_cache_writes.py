"""Prompt-cache write tokens: read from an Anthropic reply, priced, stored per turn and seat, shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli.main import main
from arena.engine.export import export_episode
from arena.store.database import Store
from tests.support.modelkit import CANARY_KEY, KEY_ENV
from tests.support.wire_server import WireServer, reply

GOOD = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady at the base price"}
PRICE_IN, PRICE_OUT = 3.0, 15.0
"""Dollars per million input and output tokens; cached input defaults to 0.1x, writes to 1.25x."""
# What the fake Anthropic API reports per day: uncached input, cache reads, cache writes, output.
DAYS = [(200, 0, 1200, 30), (150, 1200, 90, 40), (180, 1290, 0, 35)]


@pytest.fixture
def wire() -> object:
    with WireServer() as server:
        yield server


def anthropic_match(wire: WireServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Play three lemonade days through ``arena play``: an Anthropic seat against a baseline."""
    monkeypatch.delenv("ARENA_MODELS", raising=False)  # main() sets it from --models
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    wire.script(
        *[
            reply(GOOD, input_tokens=fresh, cached_tokens=read, cache_write_tokens=written, output_tokens=out)
            for fresh, read, written, out in DAYS
        ]
    )
    models = tmp_path / "models.toml"
    models.write_text(
        f'[models.claude]\nprovider = "anthropic"\nmodel = "claude-test"\nbase_url = "{wire.url}"\n'
        f'api_key_env = "{KEY_ENV}"\nprice_input_per_mtok = {PRICE_IN}\nprice_output_per_mtok = {PRICE_OUT}\n'
    )
    db = tmp_path / "arena.db"
    argv = ["--db", str(db), "--models", str(models), "play", "lemonade", "--seat", "a=claude"]
    assert main([*argv, "--seat", "b=baseline:weather", "--option", "days=3", "--seed", "4"]) == 0
    return db


def test_cache_writes_are_stored_per_turn_and_seat_exported_shown_and_priced_at_1_25x(
    wire: WireServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = anthropic_match(wire, tmp_path, monkeypatch)
    out = capsys.readouterr().out
    assert "1400+30 tok (1200 written to cache)" in out  # the turn lines
    assert "1440+40 tok (1200 cached, 90 written to cache)" in out
    assert "1470+35 tok (1290 cached)" in out
    table = next(line for line in out.splitlines() if line.lstrip("│ ").startswith("cache-write input"))
    assert "1290" in table and "cached input" in out  # the results table, per episode
    store = Store(db)
    try:
        (episode,) = store.list_episodes()
        document = export_episode(store, episode["id"])
        seats = {seat["seat"]: seat for seat in store.seats(episode["id"])}
        rows = [t for t in store.raw_turns(episode["id"]) if t["seat"] == "a"]
    finally:
        store.close()
    assert [(t["cached_tokens"], t["cache_write_tokens"]) for t in rows] == [(0, 1200), (1200, 90), (1290, 0)]
    assert (seats["a"]["cache_write_tokens"], seats["b"]["cache_write_tokens"]) == (1290, 0)
    turns = [t for t in document["turns"] if t["seat"] == "a"]
    for turn, (fresh, read, written, output) in zip(turns, DAYS, strict=True):
        usage = turn["usage"]
        assert (usage["input_tokens"], usage["cached_tokens"], usage["cache_write_tokens"]) == (
            fresh + read + written,
            read,
            written,
        )
        expected = fresh * PRICE_IN + read * 0.1 * PRICE_IN + written * 1.25 * PRICE_IN + output * PRICE_OUT
        assert usage["cost_usd"] == pytest.approx(expected / 1e6, rel=1e-12)
    exported = {seat["seat"]: seat["usage"] for seat in document["seats"]}
    assert exported["a"]["cache_write_tokens"] == 1290 and exported["a"]["cached_tokens"] == 2490
    assert exported["a"]["cost_usd"] == pytest.approx(sum(t["usage"]["cost_usd"] for t in turns))
    assert "cache_write_tokens" not in exported["b"]  # a seat that wrote nothing exports as before
    assert all(t["usage"]["cache_write_tokens"] == 0 for t in document["turns"] if t["seat"] == "b")
