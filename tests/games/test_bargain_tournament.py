"""A one-line-up tournament (what `arena suite` was) over a real SQLite file.

Deals, swaps, rows, aggregates, disclosure."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from arena.display.tables import render_table
from arena.plugins.players import SpecError
from arena.store.database import Store
from arena.tournament.config import TournamentConfig, TournamentConfigError, build_config
from arena.tournament.report import build_report
from arena.tournament.run import TournamentProgress, TournamentRun, create_tournament, run_tournament
from arena.tournament.schedule import deal_seed, lineups, schedule
from arena.tournament.standings import read_tournament, tournament_table
from tests.support.episodes import stored_turns

SEATS = ("seller", "buyer")
LINEUP = {"seller": "baseline:honest", "buyer": "baseline:bluffing"}
SWAPPED = {"seller": "baseline:bluffing", "buyer": "baseline:honest"}


def suite(
    lineup: dict[str, str], n: int, seed: int, options: dict[str, str] | None = None
) -> TournamentConfig:
    """The tournament of ``lineup``'s players on ``n`` deals: what ``arena suite bargain`` played."""
    players = tuple(lineup[seat] for seat in SEATS if seat in lineup)
    return build_config(game="bargain", players=players, seeds=n, seed=seed, options=options or {})


def printed(table: dict[str, object], width: int) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None).print(render_table(table))
    return buffer.getvalue()


def test_deal_seeds_are_stable_and_distinct() -> None:
    seeds = [deal_seed(7, i) for i in range(100)]
    assert seeds == [deal_seed(7, i) for i in range(100)]
    assert len(set(seeds)) == 100 and all(0 <= s < 2**31 for s in seeds)
    assert deal_seed(8, 0) != deal_seed(7, 0)


def test_every_deal_is_played_in_both_seatings_and_a_player_only_once() -> None:
    players = list(dict.fromkeys(LINEUP.values()))
    assert [slot.seating for slot in schedule(SEATS, players, 1, 0)] == [LINEUP, SWAPPED]
    with pytest.raises(ValueError, match="repeated: baseline:honest"):
        lineups(SEATS, ["baseline:honest", "baseline:honest"])
    with pytest.raises(TournamentConfigError, match="repeated: baseline:honest"):
        suite({"seller": "baseline:honest", "buyer": "baseline:honest"}, 1, 0)


async def test_suite_records_every_episode_under_a_tournament(tmp_path: Path) -> None:
    store = Store(tmp_path / "suite.db")
    calls: list[tuple[int, int]] = []

    def seen(progress: TournamentProgress) -> None:
        calls.append((progress.done, progress.total))

    try:
        tournament_id = create_tournament(store, suite(LINEUP, 12, 3))
        progress = await TournamentRun(store, tournament_id, progress=seen).run()
        assert progress.status == "finished" and progress.done == 24
        assert calls[-1] == (24, 24) and sorted({done for done, _ in calls}) == list(range(25))
        rows = store.conn.execute(
            "SELECT COUNT(*), COUNT(DISTINCT seed) FROM episodes"
            " WHERE tournament_id = ? AND status = 'finished'",
            (tournament_id,),
        ).fetchone()
        assert rows == (24, 12)
        status = store.conn.execute("SELECT status FROM tournaments WHERE id = ?", (tournament_id,))
        assert status.fetchone()[0] == "finished"
        first = store.conn.execute("SELECT min(id) FROM episodes").fetchone()[0]
        assert stored_turns(store, first)
        records = read_tournament(store, tournament_id).records
        assert {r.deal_seed for r in records} == {deal_seed(3, i) for i in range(12)}
        # Each deal is played with the seats swapped: same seed, same deal, roles exchanged.
        seatings: dict[int, list[dict[str, str]]] = {}
        for record in records:
            seatings.setdefault(record.deal_seed, []).append(dict(record.seating))
        assert all(sorted(s, key=str) == sorted([LINEUP, SWAPPED], key=str) for s in seatings.values())
        table = tournament_table(store, tournament_id)
        document = build_report(store, tournament_id)
    finally:
        store.close()

    per_player = {row["player"]: row for row in table["players"]}
    assert set(per_player) == {"baseline:honest", "baseline:bluffing"}
    honest, bluffing = per_player["baseline:honest"], per_player["baseline:bluffing"]
    assert honest["episodes"] == bluffing["episodes"] == 24
    assert honest["wins"] + honest["draws"] + honest["losses"] == 24
    metrics = table["metrics"]
    # With two players every deal has both in it: the deal facts over all deals are theirs.
    deals = table["deal_facts"]["all"]["metrics"]
    closed = deals["closed"]["mean"]
    assert 0.8 <= closed <= 1.0
    assert deals["in_zone"]["mean"] == closed
    assert metrics["baseline:bluffing"]["score"]["mean"] > metrics["baseline:honest"]["score"]["mean"]
    assert (
        metrics["baseline:bluffing"]["bluffs"]["mean"] > 0
        and metrics["baseline:honest"]["bluffs"]["mean"] == 0
    )
    roles = Counter(
        seat for r in records for seat, player in r.seating.items() if player == "baseline:honest"
    )
    assert roles == {"seller": 12, "buyer": 12}

    assert {"identity", "harness", "inference", "cost", "failures", "players", "metrics"} <= set(document)
    assert document["identity"]["master_seed"] == 3 and document["identity"]["seeds"] == 12
    assert document["harness"]["first_to_move"] == ["seller"]
    assert document["identity"]["options"] == {"rounds": 8}
    assert "Never accept" in document["harness"]["fallback"]
    honest_inference = document["inference"]["baseline:honest"]
    assert (honest_inference["spec"], honest_inference["kind"]) == ("baseline:honest", "baseline")
    assert document["cost"]["input_tokens"] == 0
    failures = document["failures"]
    assert all(p["fallback"] == 0 and p["invalid"] == 0 for p in failures["per_player"].values())
    assert failures["errors_by_class"] == {}
    no_deal = sum(not r.metrics["seller"]["closed"] for r in records) / len(records)
    assert no_deal == pytest.approx(1 - closed, abs=1e-3)

    text = printed(table, 200)
    assert "baseline:bluffing" in text and "in zone" in text and "bluffs" in text


async def test_suite_is_reproducible_in_any_database(tmp_path: Path) -> None:
    results = []
    for name in ("first.db", "second.db"):
        store = Store(tmp_path / name)
        try:
            progress = await run_tournament(store, suite(LINEUP, 5, 11, {"rounds": "6"}))
            assert progress.done == 10
            records = read_tournament(store, progress.tournament_id).records
            results.append({r.slot_key: r.scores for r in records})
            report = build_report(store, progress.tournament_id)
        finally:
            store.close()
    assert results[0] == results[1] and len(results[0]) == 10
    assert report["harness"]["episode_length"] == 6


async def test_suite_is_generic_over_games(store: Store) -> None:
    players = ("baseline:weather", "baseline:cost-plus")
    config = build_config(game="lemonade", players=players, seeds=2, seed=1, options={"days": "3"})
    progress = await run_tournament(store, config)
    assert progress.done == 4
    table = tournament_table(store, progress.tournament_id)
    weather = next(row for row in table["players"] if row["player"] == "baseline:weather")
    assert weather["episodes"] == 4
    assert "final_cash" in table["metrics"]["baseline:weather"]
    assert "closed" not in table["metrics"]["baseline:weather"]
    printed(table, 250)


def test_bad_lineups_fail_before_anything_is_recorded(store: Store) -> None:
    with pytest.raises(TournamentConfigError, match="give at least two players"):
        create_tournament(store, suite({"seller": "baseline:honest"}, 2, 0))
    with pytest.raises(ValueError):
        create_tournament(
            store,
            build_config(game="bargain", players=tuple(LINEUP.values()), seeds=2, options={"rounds": 1}),
        )
    assert store.conn.execute("SELECT COUNT(*) FROM tournaments").fetchone()[0] == 0
    with pytest.raises(SpecError):
        create_tournament(store, suite({"seller": "baseline:nope", "buyer": "baseline:honest"}, 2, 0))
    assert store.conn.execute("SELECT COUNT(*) FROM tournaments").fetchone()[0] == 0
    # A human cannot sit in a tournament: refused before anything is recorded (it used to fail mid-play).
    with pytest.raises(TournamentConfigError, match="cannot seat a human"):
        create_tournament(store, suite({"seller": "human", "buyer": "baseline:honest"}, 2, 0))
    assert store.conn.execute("SELECT COUNT(*) FROM tournaments").fetchone()[0] == 0
