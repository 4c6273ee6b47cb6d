"""``--on-invalid fallback|forfeit`` and the fallback share every table shows beside a rating.

A model seat on the wire server (real SDK, real SQLite) answers illegally twice in a row on
one day: under ``fallback`` (the default) the game's fallback plays that day and is counted;
under ``forfeit`` the seat forfeits the episode, is ranked last in it and its metrics of that
episode are left out.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from arena.cli.main import main
from arena.display.tables import render_leaderboard, render_table
from arena.store.database import Store
from arena.tournament.config import build_config, load_config_file
from arena.tournament.leaderboard import leaderboard
from arena.tournament.report import build_report
from arena.tournament.run import TournamentRun, create_tournament
from arena.tournament.standings import tournament_table
from players.models import ModelsConfig
from tests.support.modelkit import settings_for
from tests.support.wire_server import Behaviour, WireServer, reply

GOOD = reply({"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady"})
ILLEGAL = reply({"price": 3.0, "produce": 400, "promotion": "none", "reason": "go big"})


def script() -> list[Behaviour]:
    """Episode 1: day 1 fine, day 2 illegal and illegal again on the re-ask, day 3 fine; episode 2 fine."""
    return [GOOD, ILLEGAL, ILLEGAL, GOOD, GOOD, GOOD, GOOD]


async def play(store: Store, wire: WireServer, on_invalid: str | None) -> int:
    wire.script(*script())
    extra = {} if on_invalid is None else {"on_invalid": on_invalid}
    config = build_config(
        game="lemonade",
        players=("m", "baseline:weather"),
        seeds=1,
        concurrency=1,
        options={"days": 3},
        **extra,
    )
    tournament_id = create_tournament(store, config)
    models = ModelsConfig(models={"m": settings_for("openai-compat", wire)})
    progress = await TournamentRun(store, tournament_id, models_config=models).run()
    assert progress.status == "finished", progress.message
    return tournament_id


def rendered(table: dict[str, object]) -> str:
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(render_table(table))
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


async def test_the_default_plays_the_fallback_and_every_table_shows_the_share(store: Store) -> None:
    with WireServer() as wire:
        tournament_id = await play(store, wire, None)
    table = tournament_table(store, tournament_id, resamples=50)
    assert table["tournament"]["on_invalid"] == "fallback"
    row = next(r for r in table["players"] if r["player"] == "m")
    assert table["failures"]["per_player"]["m"]["fallback"] == 1
    assert row["fallback_share"] == pytest.approx(1 / 6, abs=1e-4)
    assert row["fallback_heavy"]  # more than a tenth
    baseline = next(r for r in table["players"] if r["player"] == "baseline:weather")
    assert baseline["fallback_share"] == 0.0 and not baseline["fallback_heavy"]
    text = rendered(table)
    assert "17%" in text and " !" in text and "more than a tenth" in text
    board = leaderboard(store, [tournament_id], resamples=50)
    leader = next(r for r in board["players"] if r["player"] == "m")
    assert leader["fallback_share"] == pytest.approx(1 / 6, abs=1e-4) and leader["fallback_heavy"]
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(render_leaderboard(board))
    assert "17%" in console.file.getvalue()  # type: ignore[attr-defined]
    report = build_report(store, tournament_id)
    assert report["identity"]["on_invalid"] == "fallback"
    assert report["harness"]["on_invalid"].startswith("fallback: ")
    assert any(r["player"] == "m" and r["fallback_heavy"] for r in report["players"])


async def test_forfeit_ranks_the_seat_last_and_leaves_its_metrics_out(store: Store) -> None:
    with WireServer() as wire:
        tournament_id = await play(store, wire, "forfeit")
        assert len(wire.posts()) == 6  # the forfeited episode stopped at day 2
    episodes = store.conn.execute("SELECT id, status, message FROM episodes ORDER BY id").fetchall()
    assert [status for _, status, _ in episodes] == ["finished", "finished"]
    assert episodes[0][2].startswith(
        "seat a (m) forfeited at step 2: no usable answer after the re-ask (illegal:"
    )
    seats = {s["seat"]: s for s in store.seats(episodes[0][0])}
    assert seats["a"]["metrics"]["forfeited"] == 1
    table = tournament_table(store, tournament_id, resamples=50)
    assert table["tournament"]["on_invalid"] == "forfeit"
    row = next(r for r in table["players"] if r["player"] == "m")
    assert row["losses"] >= 1  # ranked last in the episode it forfeited
    metric = next(iter(table["metrics"]["m"].values()))
    assert metric["n"] == 1  # only the episode it played to the end
    report = build_report(store, tournament_id)
    assert report["identity"]["on_invalid"] == "forfeit"
    assert report["harness"]["on_invalid"].startswith("forfeit: ")


def test_the_policy_is_a_flag_of_play_and_tournament_run_and_a_field_of_the_toml_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "t.toml"
    file.write_text(
        'game = "lemonade"\nplayers = ["baseline:weather", "baseline:cost-plus"]\nseeds = 1\n'
        'on_invalid = "forfeit"\n'
    )
    assert load_config_file(file).on_invalid == "forfeit"
    db = tmp_path / "arena.db"
    code = main(["--db", str(db), "tournament", "run", "--file", str(file), "--on-invalid", "fallback"])
    assert code == 0
    store = Store(db)
    row = store.tournament(1)
    assert row is not None and row["config"]["on_invalid"] == "fallback"  # the flag wins over the file
    code = main(
        [
            "--db",
            str(db),
            "play",
            "lemonade",
            "--seat",
            "a=baseline:weather",
            "--seat",
            "b=baseline:cost-plus",
            "--on-invalid",
            "forfeit",
            "--quiet",
        ]
    )
    assert code == 0
    code = main(["--db", str(db), "play", "lemonade", "--on-invalid", "maybe"])
    assert code == 2
    assert "--on-invalid" in capsys.readouterr().err
