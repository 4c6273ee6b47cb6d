"""The report's disclosure on real tournaments: code, environment, prompts, what served a model, time, prices.

Baselines play in a temporary SQLite file; a model seat plays through the real openai SDK
against the wire server, which names a dated model snapshot and a fingerprint that changes
mid-run.
"""

from __future__ import annotations

import hashlib
import json
import platform
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena import __version__
from arena.cli.main import main
from arena.engine.export import export_episode
from arena.plugins.games import get_game
from arena.store.database import Store
from arena.tournament import provenance
from arena.tournament.config import build_config
from arena.tournament.report import build_report, markdown
from arena.tournament.run import run_tournament
from arena.tournament.standings import tournament_table
from players.models import ModelsConfig
from tests.support.modelkit import CANARY_KEY, KEY_ENV, settings_for
from tests.support.wire_server import WireServer, reply

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
STAND = {"price": 2.5, "produce": 20, "promotion": "none", "reason": "steady"}
PRICE_SOURCE = {"source": "https://openai.com/api/pricing/", "date": "2026-11-30"}
SNAPSHOT = "gpt-test-2026-01-01"


@pytest.fixture
def wire() -> Iterator[WireServer]:
    with WireServer() as server:
        yield server


def sha256(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


async def baseline_report(store: Store) -> dict[str, Any]:
    config = build_config(game="bargain", players=("baseline:honest", "baseline:bluffing"), seeds=3, seed=4)
    progress = await run_tournament(store, config)
    assert progress.status == "finished"
    return build_report(store, progress.tournament_id)


async def model_tournament(store: Store, wire: WireServer, monkeypatch: pytest.MonkeyPatch) -> int:
    """Lemonade, 3 days, model ``m`` (Chat Completions) against a baseline on one deal in both seatings.

    Played one episode at a time: the first episode's three calls and the second's first are
    served under fingerprint ``fp_a``, the second episode's last two under ``fp_b``.
    """
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    first = [reply(STAND, served_model=SNAPSHOT, system_fingerprint="fp_a") for _ in range(4)]
    then = [reply(STAND, served_model=SNAPSHOT, system_fingerprint="fp_b") for _ in range(2)]
    wire.script(*first, *then)
    settings = settings_for(
        "openai-chat", wire, price_input_per_mtok=2.0, price_output_per_mtok=8.0, price_source=PRICE_SOURCE
    )
    config = build_config(
        game="lemonade", players=("m", "baseline:weather"), seeds=1, options={"days": 3}, concurrency=1
    )
    progress = await run_tournament(store, config, models_config=ModelsConfig(models={"m": settings}))
    assert progress.status == "finished" and len(wire.posts()) == 6
    return progress.tournament_id


def test_arena_code_is_named_by_commit_and_by_a_digest_sha256sum_reproduces() -> None:
    code = provenance.arena_code()
    assert code["version"] == __version__
    listing = subprocess.run(
        "find arena players -type f ! -path '*__pycache__*' | LC_ALL=C sort | xargs sha256sum | sha256sum",
        shell=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert code["source_sha256"] == listing.stdout.split()[0]
    git = shutil.which("git")
    if git is not None and (ROOT / ".git").exists():
        head = subprocess.run([git, "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
        assert code["commit"] == head.stdout.strip()
        assert isinstance(code["dirty"], bool)


def test_without_git_the_report_still_names_the_version_and_the_source_digest(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no git to be found
    code = provenance.arena_code()
    assert (code["commit"], code["dirty"], code["commit_note"]) == (None, None, "git not found")
    assert code["version"] == __version__ and len(code["source_sha256"]) == 64


async def test_a_report_discloses_code_environment_prompts_time_and_failures(store: Store) -> None:
    report = await baseline_report(store)
    ident, harness, appendix = report["identity"], report["harness"], report["appendix"]
    # The grader: every file of the game's package, each with its SHA-256.
    source = ident["game_source"]
    assert source["package"] == "games.bargain"
    assert source["files"]["games/bargain/rules.py"] == sha256((ROOT / "games/bargain/rules.py").read_bytes())
    listing = "".join(f"{digest}  {path}\n" for path, digest in sorted(source["files"].items()))
    assert source["sha256"] == sha256(listing)
    # Python and the installed packages, listed and digested.
    env = harness["environment"]
    assert env["python"] == f"{platform.python_implementation()} {platform.python_version()}"
    assert f"arena=={__version__}" in appendix["packages"] and appendix["packages"] == sorted(
        appendix["packages"]
    )
    assert env["packages_sha256"] == sha256("".join(f"{line}\n" for line in appendix["packages"]))
    assert env["packages_count"] == len(appendix["packages"])
    # The game's prompt template: the full SHA-256 its recorded version starts with, and the texts.
    (game_templates,) = harness["prompt_templates"]
    assert game_templates["version"] == ident["prompt_version"] == get_game("bargain").prompt_version
    assert game_templates["sha256"].startswith(ident["prompt_version"])
    parts = [t["text"] for t in appendix["prompt_templates"]]
    assert len(parts) == 2 and sha256("\x1f".join(parts)) == game_templates["sha256"]
    assert all(t["sha256"] == sha256(t["text"]) for t in appendix["prompt_templates"])
    definition = get_game("bargain")
    rules = {r["seat"]: r["text"] for r in appendix["rules"]}
    assert rules == {s: definition.rules(definition.parse_options({}), s) for s in ("seller", "buyer")}
    assert appendix["example_prompts"] == []  # baselines are sent no prompt
    # The schedule in plain words with this tournament's numbers, no docstring markup.
    rule = ident["schedule_rule"]
    assert "``" not in rule and ":func:" not in rule and "*" not in rule
    assert "The two players play every deal seed twice" in rule and "2 x 3 deal seeds = 6 episodes" in rule
    # Wall-clock: when, how long, and the decisions' time summed.
    clock = report["cost"]["wallclock"]
    assert clock["started_at"] == ident["started_at"] and clock["finished_at"] == ident["finished_at"]
    assert clock["span_seconds"] is not None and clock["span_seconds"] >= 0
    assert clock["decisions"] == sum(c["decisions"] for c in report["failures"]["per_player"].values())
    assert report["failures"]["errors_by_player"] == {"baseline:honest": {}, "baseline:bluffing": {}}
    text = markdown(report)
    for line in (
        f"- Arena code: commit `{ident['arena']['commit']}`"
        if ident["arena"]["commit"]
        else "- Arena code: no commit",
        f"SHA-256 `{source['sha256']}` over {len(source['files'])} files",
        f"packages, SHA-256 `{env['packages_sha256']}`",
        f"- wall-clock: started {ident['started_at']}, finished {ident['finished_at']}",
        f"- schedule: {rule}",
        "## Appendix A: prompt templates",
        f"SHA-256 `{appendix['prompt_templates'][0]['sha256']}`",
        f"arena=={__version__}",
    ):
        assert line in text, line


async def test_what_served_a_model_seat_is_stored_when_it_changes_and_reported(
    store: Store, wire: WireServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament_id = await model_tournament(store, wire, monkeypatch)
    rows = store.conn.execute(
        "SELECT t.episode_id, t.step, t.served FROM turns t JOIN seats s ON s.episode_id = t.episode_id"
        " AND s.seat = t.seat WHERE s.player = 'm' ORDER BY t.episode_id, t.idx"
    ).fetchall()
    served = [(episode, step, json.loads(value) if value else None) for episode, step, value in rows]
    a = {"model": SNAPSHOT, "system_fingerprint": "fp_a"}
    b = {"model": SNAPSHOT, "system_fingerprint": "fp_b"}
    # Each episode's first model turn says what served it; later turns only when it changed.
    first, second = sorted({episode for episode, _, _ in served})
    assert served == [
        (first, 0, a),
        (first, 1, None),
        (first, 2, None),
        (second, 0, a),
        (second, 1, b),
        (second, 2, None),
    ]
    turns = export_episode(store, second)["turns"]
    assert [t["served"] for t in turns if "served" in t] == [a, b]
    report = build_report(store, tournament_id)
    entry = report["inference"]["m"]
    assert entry["served"] == [
        {**a, "first_episode": first, "last_episode": second, "episodes": 2},
        {**b, "first_episode": second, "last_episode": second, "episodes": 1},
    ]
    assert entry["output_cap_sent"] == {"min": 256, "max": 256}
    prices = report["cost"]["prices"]["m"]
    assert prices["priced"] and prices["price_source"] == PRICE_SOURCE
    assert prices["builtin_ratios_source"]["date"] == "2026-11-30"
    assert report["cost"]["per_player"]["m"]["decision_seconds"] > 0
    # The model players' own templates are disclosed beside the game's, matching what the seats recorded.
    owners = {group["owner"]: group for group in report["harness"]["prompt_templates"]}
    assert owners["model players"]["matches"] is True
    assert owners["model players"]["version"] == entry["settings"]["system_prompt_version"]
    system = next(t for t in report["appendix"]["prompt_templates"] if t["name"] == "model system")
    assert "Reply with a single JSON object" in system["text"]
    (example,) = [p for p in report["appendix"]["example_prompts"] if p["player"] == "m"][:1]
    assert example["text"].startswith("You run a lemonade stand for 3 days")
    text = markdown(report)
    assert f"served by: model {SNAPSHOT}, system_fingerprint fp_a (in 2 counted episodes" in text
    assert (
        f"served by: model {SNAPSHOT}, system_fingerprint fp_b (in 1 counted episode (episode {second}))"
        in text
    )
    assert "https://openai.com/api/pricing/ (2026-11-30)" in text


async def unpriced_tournament(store: Store, wire: WireServer, monkeypatch: pytest.MonkeyPatch) -> int:
    """Lemonade, 1 day, model ``m`` with no price against a baseline, one deal in both seatings."""
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    wire.script(*[reply(STAND) for _ in range(2)])
    models = ModelsConfig(models={"m": settings_for("openai-chat", wire)})
    config = build_config(game="lemonade", players=("m", "baseline:weather"), seeds=1, options={"days": 1})
    progress = await run_tournament(store, config, models_config=models)
    assert progress.spend_text() == "unpriced (2 decisions)", "the live spend never reads $0 for it"
    return progress.tournament_id


async def test_an_unpriced_model_costs_unknown_dollars_not_zero(
    store: Store, wire: WireServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = build_report(store, await unpriced_tournament(store, wire, monkeypatch))
    assert report["cost"]["unpriced_players"] == ["m"]
    price = report["cost"]["prices"]["m"]
    assert (price["priced"], price["price_source"]) == (False, None)
    text = markdown(report)
    assert (
        "- total unknown (2 decisions unpriced): no price for m" in text and "| unknown (no price) |" in text
    )


async def test_the_table_leaves_an_unpriced_models_dollars_empty_not_zero(
    store: Store, wire: WireServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = tournament_table(store, await unpriced_tournament(store, wire, monkeypatch))
    rows = {row["player"]: row for row in table["players"]}
    assert rows["m"]["tokens_per_episode"] > 0, "it spent tokens"
    assert rows["m"]["usd_per_episode"] is None and rows["m"]["rating_per_dollar"] is None
    assert rows["baseline:weather"]["usd_per_episode"] == 0.0, "a baseline costs nothing, truly"


async def test_a_schema_5_database_migrates_and_then_records_what_served_a_model(
    tmp_path: Path, wire: WireServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "old.db"
    shutil.copy(DATA / "schema_v5.db", db)
    expected = json.loads((DATA / "schema_v5_export.json").read_text())
    store = Store(db)
    try:
        columns = [row[1] for row in store.conn.execute("PRAGMA table_info(turns)")]
        assert "served" in columns
        assert store.conn.execute("SELECT count(*) FROM turns WHERE served IS NOT NULL").fetchone() == (0,)
        for episode_id, document in expected.items():  # the old turns export as they did (no served key)
            exported = export_episode(store, int(episode_id))
            assert not any("served" in turn for turn in exported["turns"])
            assert len(exported["turns"]) == len(document["turns"])
        tournament_id = await model_tournament(store, wire, monkeypatch)
        report = build_report(store, tournament_id)
        assert [s["system_fingerprint"] for s in report["inference"]["m"]["served"]] == ["fp_a", "fp_b"]
    finally:
        store.close()


def test_the_cli_writes_a_report_with_the_appendix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "a.db")
    argv = ["--db", db, "tournament", "run", "lemonade", "--seeds", "2", "--option", "days=2"]
    assert main([*argv, "--player", "baseline:weather", "--player", "baseline:cost-plus"]) == 0
    out = tmp_path / "report"
    assert main(["--db", db, "tournament", "report", "1", "--out", str(out)]) == 0
    document = json.loads((out / "report.json").read_text())
    text = (out / "report.md").read_text()
    for template in document["appendix"]["prompt_templates"]:
        assert template["text"].split("\n")[0] in text
    capsys.readouterr()
    assert main(["--db", db, "tournament", "report", "1", "--out", str(out), "--format", "reprobe"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tournament 1 has no rated model player" in err


async def test_a_model_seat_states_its_sampling_passes_and_seed(
    store: Store, wire: WireServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = build_report(store, await model_tournament(store, wire, monkeypatch))
    sampling = report["inference"]["m"]["sampling"]
    assert sampling["method"] == "the provider's default sampling (no temperature or top-p sent)"
    assert sampling["passes_per_episode"] == 1
    assert sampling["seed"].startswith("per decision: sha256(episode seed, seat, step, attempt)")
    assert "sampling" not in report["inference"]["baseline:weather"]
    assert f"  - sampling: {sampling['method']}; seed: {sampling['seed']}; each episode" in markdown(report)


async def test_every_table_says_unpriced_and_the_totals_count_the_unpriced_decisions(
    store: Store, wire: WireServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The console's ratings table, the app's leaderboard row and the report say "unpriced", never $0."""
    from rich.console import Console

    from arena.app.tournament_board import leader_rows
    from arena.display.tables import render_table

    tournament_id = await unpriced_tournament(store, wire, monkeypatch)
    table = tournament_table(store, tournament_id)
    assert table["cost"]["unpriced_decisions"] == 2, "one day in each of two seatings"
    assert table["cost"]["per_player"]["m"]["unpriced_decisions"] == 2
    assert table["cost"]["per_player"]["baseline:weather"]["unpriced_decisions"] == 0
    console = Console(width=200, record=True)
    console.print(render_table(table))
    row = next(line for line in console.export_text().splitlines() if "│ m " in line)
    assert "unpriced" in row and "0.0000" not in row
    board = {row.player: row.dollars_text() for row in leader_rows(table)}
    assert board == {"m": "unpriced", "baseline:weather": "free"}
    text = markdown(build_report(store, tournament_id))
    assert "| unpriced |" in text
    assert "- total unknown (2 decisions unpriced): no price for m" in text
    assert "(priced part $0.0000 each)" in text
