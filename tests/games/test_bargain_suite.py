"""Suite mode over a real SQLite file: deals, swaps, tournament rows, aggregates, disclosure."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from arena.specs import SpecError
from arena.store import Store
from arena.suite import SuiteReport, deal_seed, rotations, run_suite
from arena.suite_view import suite_table

LINEUP = {"seller": "baseline:honest", "buyer": "baseline:bluffing"}


def test_deal_seeds_are_stable_and_distinct() -> None:
    seeds = [deal_seed(7, i) for i in range(100)]
    assert seeds == [deal_seed(7, i) for i in range(100)]
    assert len(set(seeds)) == 100 and all(0 <= s < 2**31 for s in seeds)
    assert deal_seed(8, 0) != deal_seed(7, 0)


def test_rotations_swap_seats_and_skip_duplicates() -> None:
    seats = ("seller", "buyer")
    assert rotations(seats, LINEUP, True) == [
        LINEUP,
        {"seller": "baseline:bluffing", "buyer": "baseline:honest"},
    ]
    assert rotations(seats, LINEUP, False) == [LINEUP]
    same = {"seller": "baseline:honest", "buyer": "baseline:honest"}
    assert rotations(seats, same, True) == [same]


async def test_suite_records_every_episode_under_a_tournament(tmp_path: Path) -> None:
    store = Store(tmp_path / "suite.db")
    calls: list[tuple[int, int]] = []
    try:
        report = await run_suite(
            store, "bargain", LINEUP, n=12, seed=3, progress=lambda done, total: calls.append((done, total))
        )
        assert report.status == "finished" and report.tournament_id is not None
        assert len(report.episodes) == 24 and calls[-1] == (24, 24) and len(calls) == 24
        rows = store.conn.execute(
            "SELECT COUNT(*), COUNT(DISTINCT seed) FROM episodes"
            " WHERE tournament_id = ? AND status = 'finished'",
            (report.tournament_id,),
        ).fetchone()
        assert rows == (24, 12)
        status = store.conn.execute("SELECT status FROM tournaments WHERE id = ?", (report.tournament_id,))
        assert status.fetchone()[0] == "finished"
        first = report.episodes[0]
        assert first.episode_id is not None and store.turns(first.episode_id)
        assert {e.seed for e in report.episodes} == {deal_seed(3, i) for i in range(12)}
        # Each deal is played with the seats swapped: same seed, same deal, roles exchanged.
        assert report.episodes[0].seed == report.episodes[1].seed
        assert report.episodes[1].seats == {"seller": "baseline:bluffing", "buyer": "baseline:honest"}
    finally:
        store.close()

    per_player = report.per_player
    assert set(per_player) == {"baseline:honest", "baseline:bluffing"}
    honest, bluffing = per_player["baseline:honest"], per_player["baseline:bluffing"]
    assert honest.episodes == bluffing.episodes == 24
    assert honest.wins + honest.draws + honest.losses == 24
    assert 0.8 <= honest.metrics["closed"] <= 1.0
    assert honest.metrics["in_zone"] == honest.metrics["closed"]
    assert bluffing.score > honest.score
    assert bluffing.metrics["bluffs"] > 0 and honest.metrics["bluffs"] == 0
    assert set(report.per_role["baseline:honest"]) == {"seller", "buyer"}
    assert report.per_role["baseline:honest"]["seller"].episodes == 12

    document = json.loads(report.to_json())
    assert {"identity", "harness", "inference", "cost", "failures", "per_player", "per_role"} <= set(document)
    assert document["identity"]["seed"] == 3 and document["identity"]["n"] == 12
    assert document["harness"]["first_to_move"] == ["seller"]
    assert document["harness"]["options"] == {"rounds": 8}
    assert "Never accept" in document["harness"]["fallback"]
    assert document["inference"]["baseline:honest"] == {"spec": "baseline:honest", "kind": "baseline"}
    assert document["cost"]["avg_input_tokens"] == 0
    failures = document["failures"]
    assert failures["fallback_rate"] == 0 and failures["parse_failure_rate"] == 0
    assert failures["no_deal_rate"] == pytest.approx(1 - honest.metrics["closed"], abs=1e-3)

    buffer = io.StringIO()
    console = Console(file=buffer, width=200, color_system=None)
    console.print(suite_table(report))
    table = buffer.getvalue()
    assert "baseline:bluffing" in table and "in_zone" in table and "bluffs" in table


async def test_suite_is_reproducible_and_works_without_a_store() -> None:
    first = await run_suite(None, "bargain", LINEUP, n=5, seed=11, swap=False, options={"rounds": 6})
    second = await run_suite(None, "bargain", LINEUP, n=5, seed=11, swap=False, options={"rounds": 6})
    assert len(first.episodes) == 5 and first.tournament_id is None
    assert [e.scores for e in first.episodes] == [e.scores for e in second.episodes]
    assert first.to_dict()["harness"]["episode_length"] == 6


async def test_suite_is_generic_over_games() -> None:
    lineup = {"a": "baseline:weather", "b": "baseline:cost-plus"}
    report = await run_suite(None, "lemonade", lineup, n=2, seed=1, options={"days": 3})
    assert isinstance(report, SuiteReport) and len(report.episodes) == 4
    assert report.per_player["baseline:weather"].episodes == 4
    assert "final_cash" in report.per_player["baseline:weather"].metrics
    assert "no_deal_rate" not in report.failures()
    buffer = io.StringIO()
    console = Console(file=buffer, width=250, color_system=None)
    console.print(suite_table(report))


async def test_bad_lineups_fail_before_anything_is_recorded(tmp_path: Path) -> None:
    store = Store(tmp_path / "bad.db")
    try:
        with pytest.raises(SpecError):
            await run_suite(store, "bargain", {"seller": "baseline:honest"}, n=2, seed=0)
        with pytest.raises(ValueError):
            await run_suite(store, "bargain", LINEUP, n=2, seed=0, options={"rounds": 1})
        assert store.conn.execute("SELECT COUNT(*) FROM tournaments").fetchone()[0] == 0
        with pytest.raises(SpecError):
            await run_suite(
                store, "bargain", {"seller": "baseline:nope", "buyer": "baseline:honest"}, n=2, seed=0
            )
        assert store.conn.execute("SELECT COUNT(*) FROM tournaments").fetchone()[0] == 0
        # A player that fails once play has started leaves its tournament marked failed.
        with pytest.raises(SpecError):
            await run_suite(store, "bargain", {"seller": "human", "buyer": "baseline:honest"}, n=2, seed=0)
        status = store.conn.execute("SELECT status FROM tournaments").fetchone()[0]
        assert status == "failed"
    finally:
        store.close()
