"""A reply above :data:`~arena.contract.player.MAX_REPLY_CHARS` is never used and is stored cut.

It counts as its own failure class (``oversized``), is re-asked once like a cut-off reply, and
what the store keeps (the attempt's raw text, the transcript memory) is cut to the limit with a
note of the full length: a 2.76 MB reply used to be stored whole (~7 MB) and took 9.6 s to draw
in replay.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.contract.player import MAX_REPLY_CHARS, cut_reply
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import run_tournament
from arena.tournament.standings import tournament_table
from tests.support.episodes import stored_turns
from tests.support.wire_server import WireServer, reply

GOOD = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady at the base price"}
HUGE = "I will think out loud. " * 120_000 + json.dumps(GOOD)
"""2.76 MB of prose, then a valid answer: read whole, it would have been used."""


def test_a_cut_reply_keeps_the_limit_and_says_how_long_it_was() -> None:
    assert cut_reply("short") == "short"
    cut = cut_reply(HUGE)
    assert len(cut) == MAX_REPLY_CHARS and cut.startswith(HUGE[:1000])
    assert cut.endswith(
        f"[reply cut by Arena: {len(HUGE):,} characters in all, the first {cut.index(chr(10) + '…'):,} kept]"
    )


async def test_an_oversized_reply_is_its_own_failure_stored_cut_and_re_asked(
    wire: WireServer, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = tmp_path / "models.toml"
    models.write_text(
        f'[models.m]\nprovider = "openai-compat"\nmodel = "t"\nbase_url = "{wire.openai_url}"\n'
    )
    monkeypatch.setenv("ARENA_MODELS", str(models))
    assert len(HUGE) > 2_700_000
    wire.script(reply(HUGE), *(reply(GOOD) for _ in range(6)))
    lineup = {
        "players": ("m", "baseline:weather"),
        "seeds": 1,
        "seed": 4,
        "options": {"days": 3},
        "concurrency": 1,
    }
    progress = await run_tournament(store, build_config(game="lemonade", **lineup))
    assert progress.status == "finished"
    first = next(t for t in stored_turns(store, 1) if t["seat"] == "a")
    assert (first["valid"], first["error"], first["fallback"]) == (0, "oversized", 0)
    assert first["action"]["price"] == 3.0, "the re-ask's answer is used"
    [attempt] = first["attempts"]
    assert len(attempt["raw"]) == MAX_REPLY_CHARS and f"{len(HUGE):,} characters in all" in attempt["raw"]
    assert attempt["action"] is None, "the oversized reply was not read for an answer"
    assert "above the 65,536 a reply may have" in attempt["detail"]
    asks = [r for r in wire.requests if r.path.endswith("/chat/completions")]
    re_ask = json.dumps(asks[1].body["messages"][-1])
    assert "above the 65,536 a reply may have" in re_ask
    table = tournament_table(store, progress.tournament_id)
    assert table["failures"]["errors_by_player"]["m"] == {"oversized": 1}
    store.close()
    assert Path(store.path).stat().st_size < 1_000_000, "the store kept the cut reply, not 2.76 MB"
