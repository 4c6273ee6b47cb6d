"""``--cluster`` without a cluster: how it is read, where it is kept, and that Ray stays unloaded."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from arena.cli.main import main
from arena.contract.player import ClusterWork
from arena.plugins.players import parse_player_spec
from arena.store.database import Store
from arena.tournament.cluster import ClusterError, check_reachable, executor_for, parse_cluster
from arena.tournament.config import TournamentConfigError, build_config, load_config_file
from arena.tournament.report import build_report, markdown
from arena.tournament.run import LocalExecutor, run_tournament
from players.models import ConfigError, build_model_player
from players.models.config import parse_models_config

REPO = Path(__file__).resolve().parents[2]


def test_cluster_values_are_read_or_refused_in_one_line() -> None:
    assert parse_cluster("ray").address is None
    assert parse_cluster(" Ray=10.0.0.5:6379 ").text == "ray=10.0.0.5:6379"
    with pytest.raises(ValueError, match="expected ray or ray=ADDRESS"):
        parse_cluster("dask")
    with pytest.raises(ValueError, match="give the address after ray="):
        parse_cluster("ray=")
    with pytest.raises(TournamentConfigError, match="cluster"):
        build_config(
            game="bargain", players=("baseline:honest", "baseline:bluffing"), seeds=1, cluster="spark"
        )
    assert isinstance(executor_for(None, 3), LocalExecutor)


def test_an_address_that_is_not_host_and_port_is_refused_before_ray_is_asked() -> None:
    with pytest.raises(ClusterError, match="expected HOST:PORT"):
        check_reachable("my-cluster")
    check_reachable("auto")  # left to Ray: the cluster ray start left running here


def test_a_port_where_something_else_listens_is_refused_before_ray_is_asked() -> None:
    # Ray's client waited without end on such a port (a web server, say); the probe asks for gRPC.
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]

        def answer_like_a_web_server() -> None:
            connection, _ = server.accept()
            with connection:
                connection.recv(1024)
                connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")

        web = threading.Thread(target=answer_like_a_web_server, daemon=True)
        web.start()
        with pytest.raises(ClusterError, match=r"answers but not as a Ray head \(no gRPC there\)"):
            check_reachable(f"127.0.0.1:{port}")
        web.join()
        # a port that accepts and says nothing is no Ray head either
        silent = socket.create_server(("127.0.0.1", 0))
        with silent, pytest.raises(ClusterError, match="not as a Ray head"):
            check_reachable(f"127.0.0.1:{silent.getsockname()[1]}")


def test_the_toml_file_names_the_cluster(tmp_path: Path) -> None:
    file = tmp_path / "t.toml"
    file.write_text(
        'game = "bargain"\nplayers = ["baseline:honest", "baseline:bluffing"]\nseeds = 1\ncluster = "ray"\n'
    )
    config = load_config_file(file)
    assert config.cluster == "ray"
    assert load_config_file(file, cluster="ray=10.0.0.5:6379").cluster == "ray=10.0.0.5:6379"


async def test_a_local_run_is_recorded_and_reported_as_local(store: Store) -> None:
    config = build_config(
        game="bargain", players=("baseline:honest", "baseline:bluffing"), seeds=1, cluster=None
    )
    progress = await run_tournament(store, config, executor=LocalExecutor(2))
    stored = store.tournament(progress.tournament_id)["config"]  # type: ignore[index]
    assert "cluster" not in stored
    assert stored["runs"] == [{"executor": "local", "concurrency": 2}]
    report = build_report(store, progress.tournament_id)
    assert report["harness"]["runs"] == [{"executor": "local", "concurrency": 2}]
    assert "- run 1: local, 2 episodes at once" in markdown(report)


def test_a_run_without_cluster_never_imports_ray(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from arena.cli.main import main\n"
        f"code = main(['--db', {str(tmp_path / 'a.db')!r}, 'tournament', 'run', 'bargain',"
        " '--player', 'baseline:honest', '--player', 'baseline:bluffing', '--seeds', '1'])\n"
        "assert code == 0, code\n"
        "assert 'ray' not in sys.modules, 'ray was imported'\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_a_bad_cluster_flag_is_one_line(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--db", str(store.path), "tournament", "run", "bargain", "--player", "baseline:honest"]
    assert main([*argv, "--player", "baseline:bluffing", "--seeds", "1", "--cluster", "yarn"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "expected ray or ray=ADDRESS" in err, err


def test_a_local_model_runs_on_as_many_workers_as_its_replicas_within_its_cap() -> None:
    config = parse_models_config(
        {
            "models": {
                "spread": {"provider": "local", "model": "gemma3-270m", "replicas": 8, "max_concurrency": 3},
                "one": {"provider": "local", "model": "gemma3-270m", "n_threads": 2},
            }
        }
    )

    def work(name: str) -> ClusterWork | None:
        return build_model_player(parse_player_spec(name), seed=0, config=config).cluster_work()

    assert work("spread") == ClusterWork(replicas=3, cpus=1.0)  # max_concurrency holds cluster-wide
    assert work("one") == ClusterWork(replicas=1, cpus=2.0)
    remote = parse_models_config({"models": {"api": {"provider": "openai", "model": "gpt-5-mini"}}})
    assert build_model_player(parse_player_spec("api"), seed=0, config=remote).cluster_work() is None
    with pytest.raises(ConfigError, match="'replicas' applies to provider local only"):
        parse_models_config({"models": {"x": {"provider": "openai", "model": "gpt-5-mini", "replicas": 2}}})
