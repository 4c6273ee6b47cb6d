"""A failing seat is never rated: a player that cannot be reached is refused before the first
episode, and a tournament stops seating a player whose server stopped answering mid-run.

The real SDKs talk to a local wire server (or to a port nothing listens on); SQLite is real.
"""

from __future__ import annotations

import json
import socket
import threading
from pathlib import Path
from typing import Any

import pytest

from arena.cli.main import main
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import TournamentRun, create_tournament
from arena.tournament.standings import tournament_table
from players.models import ModelsConfig
from tests.support.modelkit import CANARY_KEY, KEY_ENV, settings_for
from tests.support.wire_server import Behaviour, WireServer, reply

GOOD = {"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady"}


def closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def dying_server(answers: int) -> WireServer:
    """A started wire server that answers ``answers`` requests, then goes away for good."""
    wire = WireServer().start()
    answered = 0

    def answer(body: Any) -> Behaviour:
        nonlocal answered
        answered += 1
        if answered == answers:
            threading.Thread(target=wire.stop, daemon=True).start()
        return reply(GOOD)

    wire.responder = answer
    return wire


DEAD_SPECS = {
    "openai": (
        "openai:gpt-4.1-mini",
        {"OPENAI_BASE_URL": "http://127.0.0.1:{port}/v1", "OPENAI_API_KEY": "sk-x"},
    ),
    "anthropic": (
        "anthropic:claude-haiku-4-5",
        {"ANTHROPIC_BASE_URL": "http://127.0.0.1:{port}", "ANTHROPIC_API_KEY": "sk-x"},
    ),
    "openai-compat": ("openai-compat:qwen@http://127.0.0.1:{port}/v1", {}),
}


@pytest.mark.parametrize("provider", list(DEAD_SPECS))
def test_a_tournament_with_an_unreachable_model_is_refused_before_the_first_episode(
    provider: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    port = closed_port()
    spec, env = DEAD_SPECS[provider]
    spec = spec.format(port=port)
    for name, value in env.items():
        monkeypatch.setenv(name, value.format(port=port))
    db = tmp_path / "arena.db"
    argv = [
        "--db",
        str(db),
        "tournament",
        "run",
        "lemonade",
        "--player",
        spec,
        "--player",
        "baseline:weather",
    ]
    code = main([*argv, "--seeds", "2", "--option", "days=3"])
    err = capsys.readouterr().err
    assert code == 1
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[-1].startswith("arena: error: ") and "server down: connection refused" in lines[-1]
    assert "Traceback" not in err
    store = Store(db)
    assert store.conn.execute("SELECT count(*) FROM episodes").fetchone()[0] == 0  # nothing was played


@pytest.mark.parametrize("provider", ["openai-chat", "anthropic", "openai-compat"])
async def test_a_player_whose_server_dies_mid_tournament_gets_no_new_episodes_and_is_never_rated(
    provider: str, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    wire = dying_server(3)  # the first episode's three days
    try:
        models = ModelsConfig(models={"m": settings_for(provider, wire, max_retries=0)})
        config = build_config(
            game="lemonade",
            players=("m", "baseline:weather", "baseline:cost-plus"),
            seeds=2,
            concurrency=1,
            options={"days": 3},
        )
        tournament_id = create_tournament(store, config)
        progress = await TournamentRun(store, tournament_id, models_config=models).run()
    finally:
        wire.stop()
    assert progress.status == "aborted"
    (notice,) = progress.notices  # said once
    assert notice.startswith("m stopped answering since ") and "provider_error: connection failed" in notice
    assert progress.message.endswith(f"continue with: arena tournament resume {tournament_id}")
    rows = store.conn.execute(
        "SELECT e.status, e.message, group_concat(s.player) FROM episodes e"
        " JOIN seats s ON s.episode_id = e.id GROUP BY e.id ORDER BY e.id"
    ).fetchall()
    played_by_m = [(status, message) for status, message, players in rows if "m" in players.split(",")]
    assert played_by_m[0][0] == "finished"
    assert [status for status, _ in played_by_m[1:]] == ["player_failed"]  # then no new episode for m
    assert "could not play: 3 decisions in a row failed" in played_by_m[1][1]
    others = [status for status, _, players in rows if "m" not in players.split(",")]
    assert others and set(others) == {"finished"}  # the others finished their games
    table = tournament_table(store, tournament_id, resamples=50)
    assert [item["status"] for item in table["left_out"]] == ["player_failed"]
    assert "connection failed" in table["left_out"][0]["reason"]
    assert table["tournament"]["not_played"] > 0


def test_the_cli_says_which_player_stopped_answering_once_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wire = dying_server(2)
    models = tmp_path / "models.toml"
    models.write_text(
        f'[models.m]\nprovider = "openai-compat"\nmodel = "t"\nbase_url = "{wire.openai_url}"\n'
        "max_retries = 0\n"
    )
    db = tmp_path / "arena.db"
    argv = ["--db", str(db), "--models", str(models), "tournament", "run", "lemonade", "--player", "m"]
    argv += ["--player", "baseline:weather", "--seeds", "2", "--option", "days=2", "--concurrency", "1"]
    try:
        code = main(argv)
    finally:
        wire.stop()
    out, err = capsys.readouterr()
    assert code == 1
    assert err.count("m stopped answering since") == 1
    assert "continue with: arena tournament resume 1" in " ".join(out.split())
    assert json.dumps(err).count("Traceback") == 0
