"""Tournaments end to end: every slot once, resume after Ctrl-C and kill -9, failures, one probe."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.cli.main import main
from arena.store.database import Store
from arena.tournament.config import TournamentConfigError, build_config
from arena.tournament.report import build_report, markdown
from arena.tournament.run import (
    LOST_REPLAYS,
    TournamentProgress,
    TournamentRun,
    create_tournament,
    plan,
    run_tournament,
)
from arena.tournament.standings import tournament_table
from players.models import ModelsConfig
from tests.support.modelkit import CANARY_KEY, KEY_ENV, settings_for
from tests.support.sleepy import LOSE_ENV, forget_kinds, install_sleepy
from tests.support.wire_server import WireServer, reply, unauthorized

TRIO = ("baseline:honest", "baseline:bluffing", "baseline:pushover")


@pytest.fixture
def wire() -> Iterator[WireServer]:
    with WireServer() as server:
        yield server


def finished_per_slot(store: Store, tournament_id: int) -> Counter[str]:
    rows = store.conn.execute(
        "SELECT slot_key FROM episodes WHERE tournament_id = ? AND status = 'finished'", (tournament_id,)
    )
    return Counter(key for (key,) in rows)


async def test_every_slot_is_played_and_counted_exactly_once(store: Store) -> None:
    config = build_config(game="bargain", players=TRIO, seeds=4, seed=7, concurrency=3)
    progress = await run_tournament(store, config)
    assert progress.status == "finished"
    assert (progress.done, progress.total) == (24, 24)  # 3 pairs x 2 seatings x 4 seeds
    counted = finished_per_slot(store, progress.tournament_id)
    assert set(counted) == {slot.slot_key for slot in plan(config)}
    assert set(counted.values()) == {1}
    table = tournament_table(store, progress.tournament_id)
    rows = {row["player"]: row for row in table["players"]}
    assert set(rows) == set(TRIO)
    assert all(row["episodes"] == 16 for row in rows.values())
    assert table["players"][0]["player"] == "baseline:bluffing"  # it exploits both others
    for r in rows.values():  # a rating inside its interval, or (a sweep) a one-sided bound
        if r["rating"] is None:
            # one side bounded, or (a sweep of too few seeds to bound a gap, issue 43) neither
            few = r["bound"] is not None and r["bound"]["points"] is None
            assert r["bound"] is not None and ((r["rating_low"] is None) != (r["rating_high"] is None) or few)
        else:
            assert r["reference"] or r["rating_low"] <= r["rating"] <= r["rating_high"]
    assert table["tournament"]["counted"] == 24 and table["left_out"] == []
    # The rate stops with the run: read later (on the home screen) it is the run's, not a decaying one.
    assert progress.ended_at is not None and progress.rate == progress.rate
    assert progress.rate == pytest.approx(24 / (progress.ended_at - progress.started))


async def test_episodes_yield_through_the_runs_yield_point_and_play_the_same(
    store: Store, tmp_path: Path
) -> None:
    """A front end's yield point is where every episode of the run gives the loop away."""
    config = build_config(game="bargain", players=TRIO, seeds=3, seed=7, concurrency=2)
    yields = 0

    async def counted() -> None:
        nonlocal yields
        yields += 1
        await asyncio.sleep(0)

    tournament_id = create_tournament(store, config)
    progress = await TournamentRun(store, tournament_id, yield_point=counted).run()
    assert progress.status == "finished" and yields >= progress.done, "each episode yields at least once"
    other = Store(tmp_path / "default.db")
    try:
        plain = await run_tournament(other, config)
        mine, theirs = tournament_table(store, tournament_id), tournament_table(other, plain.tournament_id)
    finally:
        other.close()
    assert mine["players"] == theirs["players"], "where it yields does not change what is played"


async def test_a_cancelled_tournament_resumes_with_only_the_missing_slots(store: Store) -> None:
    config = build_config(game="lemonade", players=("baseline:weather", "baseline:cost-plus"), seeds=6)
    tournament_id = create_tournament(store, config)
    seen: list[TournamentProgress] = []

    async def first_run() -> None:
        task = asyncio.current_task()
        assert task is not None

        def stop_after_three(progress: TournamentProgress) -> None:
            if progress.done >= 3 and not seen:
                seen.append(progress)
                task.cancel()

        await TournamentRun(store, tournament_id, progress=stop_after_three).run()

    with pytest.raises(asyncio.CancelledError):
        await asyncio.create_task(first_run())
    assert store.tournament(tournament_id)["status"] == "aborted"  # type: ignore[index]
    before = finished_per_slot(store, tournament_id)
    assert 3 <= sum(before.values()) < 12
    kept = {row[0] for row in store.conn.execute("SELECT id FROM episodes WHERE status = 'finished'")}

    resumed = TournamentRun(store, tournament_id)
    assert len(resumed.missing()) == 12 - sum(before.values())
    progress = await resumed.run()
    assert progress.status == "finished" and progress.done == 12
    after = finished_per_slot(store, tournament_id)
    assert set(after.values()) == {1} and len(after) == 12
    still = {row[0] for row in store.conn.execute("SELECT id FROM episodes WHERE status = 'finished'")}
    assert kept <= still  # nothing finished before the stop was lost or replayed
    table = tournament_table(store, tournament_id)
    assert (
        table["failures"]["episodes_by_status"].get("aborted", 0) >= 1
    )  # the interrupted episodes are listed


def test_resume_after_a_real_sigkill_adds_no_duplicates(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    argv = [sys.executable, "-m", "arena.cli.main", "--db", str(db), "tournament", "run", "lemonade"]
    argv += ["--player", "baseline:weather", "--player", "baseline:cost-plus", "--player", "baseline:random"]
    argv += ["--seeds", "60", "--concurrency", "2"]
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finished = 0
    while child.poll() is None and finished < 20:
        time.sleep(0.02)
        try:
            with sqlite3.connect(db) as conn:
                finished = conn.execute("SELECT count(*) FROM episodes WHERE status='finished'").fetchone()[0]
        except sqlite3.OperationalError:
            continue  # the schema is not there yet
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    store = Store(db)  # opening reaps the killed process's running episode and tournament
    try:
        assert store.tournament(1)["status"] == "aborted"  # type: ignore[index]
        before = finished_per_slot(store, 1)
        assert 20 <= sum(before.values()) < 360
        assert set(before.values()) == {1}
        kept = {row[0] for row in store.conn.execute("SELECT id FROM episodes WHERE status = 'finished'")}
    finally:
        store.close()
    assert main(["--db", str(db), "tournament", "resume", "1"]) == 0
    store = Store(db)
    try:
        after = finished_per_slot(store, 1)
        assert len(after) == 360 and set(after.values()) == {1}
        still = {row[0] for row in store.conn.execute("SELECT id FROM episodes WHERE status = 'finished'")}
        assert kept <= still
        assert store.tournament(1)["status"] == "finished"  # type: ignore[index]
    finally:
        store.close()


async def test_a_failed_slot_is_played_again_once_then_left_out(store: Store, wire: WireServer) -> None:
    # The model's key is refused mid-match: every episode it plays ends failed.
    wire.script(*[unauthorized() for _ in range(8)])
    models = ModelsConfig(models={"m": settings_for("openai-compat", wire)})
    config = build_config(game="bargain", players=("m", "baseline:honest"), seeds=1, concurrency=1)
    tournament_id = create_tournament(store, config)
    progress = await TournamentRun(store, tournament_id, models_config=models).run()
    assert progress.status == "finished" and progress.done == 0 and progress.given_up == 2
    statuses = Counter(row[0] for row in store.conn.execute("SELECT status FROM episodes"))
    assert statuses == {"failed": 4}  # two slots, each tried twice
    table = tournament_table(store, tournament_id)
    assert table["tournament"]["given_up"] == 2
    assert len(table["left_out"]) == 4 and all(item["status"] == "failed" for item in table["left_out"])
    assert all(row["episodes"] == 0 for row in table["players"])
    again = TournamentRun(store, tournament_id, models_config=models)
    assert again.missing() == []  # a resume does not retry a slot that failed twice


@pytest.fixture
def sleepy_kind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The ``sleepy`` test kind installed (:mod:`tests.support.sleepy`)."""
    monkeypatch.syspath_prepend(str(install_sleepy(tmp_path / "sleepy")))
    forget_kinds()
    yield
    monkeypatch.undo()
    forget_kinds()


async def test_a_slot_lost_with_its_worker_is_played_again_without_using_a_retry(
    store: Store, sleepy_kind: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every episode is lost: each slot is played again LOST_REPLAYS times at once, then the
    # next loss counts as the slot's failure, and with no retries it is left out.
    monkeypatch.setenv(LOSE_ENV, "1")
    config = build_config(game="bargain", players=("sleepy:honest", "baseline:honest"), seeds=1, retries=0)
    tournament_id = create_tournament(store, config)
    progress = await TournamentRun(store, tournament_id).run()
    assert progress.status == "finished" and progress.done == 0 and progress.given_up == 2
    statuses = Counter(row[0] for row in store.conn.execute("SELECT status FROM episodes"))
    assert statuses == {"lost": 2 * (LOST_REPLAYS + 1)}
    assert len(TournamentRun(store, tournament_id).missing()) == 2  # a resume tries them afresh
    monkeypatch.delenv(LOSE_ENV)
    progress = await TournamentRun(store, tournament_id).run()
    assert progress.done == 2 and progress.given_up == 0


async def test_each_model_is_probed_once_per_tournament(store: Store, wire: WireServer) -> None:
    offer = {"action": "offer", "price": 40, "message": "", "reason": "opening"}
    wire.script(*[reply(offer) for _ in range(3 * 2)])
    models = ModelsConfig(models={"m": settings_for("openai-compat", wire)})
    config = build_config(
        game="bargain", players=("m", "baseline:pushover"), seeds=3, options={"rounds": 2}, concurrency=2
    )
    progress = await run_tournament(store, config, models_config=models)
    assert progress.status == "finished" and progress.done == 6
    gets = [r for r in wire.requests if r.method == "GET"]
    assert len(gets) == 1
    assert len(wire.posts()) == 6  # one decision per episode, no re-asks


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"players": ("baseline:honest", "human")}, "cannot seat a human"),
        ({"players": ("baseline:honest", "baseline:nobody")}, "no baseline 'nobody'"),
        ({"players": ("baseline:honest", "baseline:honest")}, "repeated: baseline:honest"),
        ({"players": ("baseline:honest",)}, "at least two players"),
        ({"seeds": 0}, "seeds: Input should be greater than or equal to 1"),
        ({"concurrency": 0}, "concurrency"),
        ({"budget_usd": -1}, "budget_usd"),
        ({"options": {"rounds": 1}}, "rounds must be at least 2"),
    ],
)
def test_bad_tournaments_are_refused_before_anything_is_played(
    store: Store, fields: dict[str, object], message: str
) -> None:
    base: dict[str, object] = {"game": "bargain", "players": TRIO[:2], "seeds": 2}
    with pytest.raises((TournamentConfigError, ValueError), match=message):
        create_tournament(store, build_config(**{**base, **fields}))
    assert store.list_tournaments() == []


def test_cli_run_table_json_and_listing(capsys: pytest.CaptureFixture[str], db_path: Path) -> None:
    argv = ["--db", str(db_path), "tournament", "run", "bargain", "--seeds", "3"]
    argv += [arg for player in TRIO for arg in ("--player", player)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("tournament 1: bargain: baseline:honest vs")
    assert "how sure is the order?" in out and "tournament 1 finished" in out
    assert main(["--db", str(db_path), "tournament", "table", "1", "--json"]) == 0
    import json

    table = json.loads(capsys.readouterr().out)
    first = table["players"][0]
    assert {"player", "rating", "rating_low", "rating_high", "episodes", "wins", "draws", "losses"} <= set(
        first
    )
    assert main(["--db", str(db_path), "tournaments"]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[1].split("\t")[4] == "18/18" and listing[1].split("\t")[5] == "finished"


def test_cli_errors_are_one_line(capsys: pytest.CaptureFixture[str], db_path: Path) -> None:
    code = main(["--db", str(db_path), "tournament", "run", "bargain", "--player", "human", "--player", "x"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "cannot seat a human" in err
    code = main(["--db", str(db_path), "tournament", "resume", "9"])
    err = capsys.readouterr().err
    assert code == 1 and err.strip() == f"arena: error: no tournament 9 in {db_path}"


def test_report_validates_against_its_schema_and_keeps_keys_out(
    capsys: pytest.CaptureFixture[str], db_path: Path, tmp_path: Path
) -> None:
    import json

    from arena.tournament.report_schema import report_errors

    argv = ["--db", str(db_path), "tournament", "run", "lemonade", "--seeds", "2", "--option", "stands=3"]
    argv += ["--player", "baseline:weather", "--player", "baseline:cost-plus", "--player", "baseline:random"]
    assert main(argv) == 0
    out_dir = tmp_path / "report"
    assert main(["--db", str(db_path), "tournament", "report", "1", "--out", str(out_dir)]) == 0
    report = json.loads((out_dir / "report.json").read_text())
    assert report_errors(report) == []
    assert set(report) >= {"identity", "harness", "inference", "cost", "failures", "players", "left_out"}
    assert report["identity"]["episodes_finished"] == report["identity"]["episodes_planned"] == 6
    assert report["ratings"]["method"] == "plackett-luce"  # three seats
    assert report["ratings"]["openskill"] is not None
    markdown = (out_dir / "report.md").read_text()
    assert "## How sure is the order?" in markdown and "## Failures" in markdown
    capsys.readouterr()
    assert main(["--db", str(db_path), "tournament", "report", "9", "--out", str(out_dir)]) == 1
    assert "no tournament 9" in capsys.readouterr().err


async def test_a_name_cannot_change_configuration_between_runs(store: Store, wire: WireServer) -> None:
    offer = {"action": "offer", "price": 40, "message": "", "reason": "opening"}
    wire.script(*[reply(offer) for _ in range(2)])
    first = ModelsConfig(models={"m": settings_for("openai-compat", wire)})
    config = build_config(
        game="bargain", players=("m", "baseline:pushover"), seeds=1, options={"rounds": 2}, concurrency=1
    )
    progress = await run_tournament(store, config, models_config=first)
    assert progress.status == "finished"
    stored = store.tournament(progress.tournament_id)["config"]  # type: ignore[index]
    assert set(stored["player_configs"]) == {"m", "baseline:pushover"}
    warmer = ModelsConfig(models={"m": settings_for("openai-compat", wire, temperature=0.9)})
    with pytest.raises(TournamentConfigError, match="m: its configuration changed since tournament 1"):
        await TournamentRun(store, progress.tournament_id, models_config=warmer).run()
    again = await TournamentRun(store, progress.tournament_id, models_config=first).run()
    assert again.status == "finished"


def test_listing_shows_the_players_of_a_suite_made_by_an_older_arena(
    capsys: pytest.CaptureFixture[str], db_path: Path
) -> None:
    store = Store(db_path)
    old = {"kind": "suite", "players": {"seller": "baseline:honest", "buyer": "baseline:random"}, "n": 2}
    store.create_tournament("suite bargain", "bargain", old)
    store.close()
    assert main(["--db", str(db_path), "tournaments"]) == 0
    row = capsys.readouterr().out.splitlines()[1].split("\t")
    assert row[3] == "baseline:honest baseline:random" and row[4] == "0/?"


async def test_the_cost_table_and_report_count_prompt_cache_reads_and_writes(
    store: Store, wire: WireServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    offer = {"action": "offer", "price": 40, "message": "", "reason": "opening"}
    wire.script(*[reply(offer, cached_tokens=500, cache_write_tokens=70) for _ in range(2)])
    models = ModelsConfig(models={"m": settings_for("anthropic", wire, price_input_per_mtok=3.0)})
    config = build_config(game="bargain", players=("m", "baseline:pushover"), seeds=1, options={"rounds": 2})
    progress = await run_tournament(store, config, models_config=models)
    assert progress.status == "finished" and progress.done == 2 and len(wire.posts()) == 2
    report = build_report(store, progress.tournament_id)
    cost = report["cost"]
    assert (cost["cached_tokens"], cost["cache_write_tokens"]) == (1000, 140)
    mine = cost["per_player"]["m"]
    assert (mine["input_tokens"], mine["cached_tokens"], mine["cache_write_tokens"]) == (2 * 690, 1000, 140)
    assert cost["per_player"]["baseline:pushover"]["cache_write_tokens"] == 0
    assert "1380 input (1000 read from a prompt cache, 140 written to it)" in markdown(report)


async def test_a_report_reads_the_tournament_row_once(store: Store) -> None:
    from arena.tournament.report import build_report

    config = build_config(game="bargain", players=TRIO[:2], seeds=1, options={"rounds": 2})
    progress = await run_tournament(store, config)
    statements: list[str] = []
    store.conn.set_trace_callback(statements.append)
    try:
        report = build_report(store, progress.tournament_id)
    finally:
        store.conn.set_trace_callback(None)
    assert report["identity"]["players"] == list(TRIO[:2])
    assert sum("FROM tournaments" in statement for statement in statements) == 1


async def test_a_budget_refuses_a_model_without_a_price(store: Store, wire: WireServer) -> None:
    """Spend of an unpriced model is unknown, so no budget can stop it: refused before any episode."""
    models = ModelsConfig(models={"m": settings_for("openai-compat", wire)})
    config = build_config(game="bargain", players=("m", "baseline:pushover"), seeds=1, budget_usd=0.5)
    with pytest.raises(TournamentConfigError, match=r"a budget of \$0.5 cannot be kept: m has no price"):
        await run_tournament(store, config, models_config=models)
    assert wire.posts() == []
    priced = ModelsConfig(
        models={"m": settings_for("openai-compat", wire, price_input_per_mtok=1.0, price_output_per_mtok=2.0)}
    )
    offer = {"action": "offer", "price": 40, "message": "", "reason": "opening"}
    wire.script(*[reply(offer) for _ in range(2)])
    config = build_config(
        game="bargain", players=("m", "baseline:pushover"), seeds=1, options={"rounds": 2}, budget_usd=0.5
    )
    progress = await run_tournament(store, config, models_config=priced)
    assert progress.status == "finished"
