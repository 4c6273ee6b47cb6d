"""``arena compare``: two seeded episodes of one deal, side by side, and where they first differ."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli.main import main
from arena.engine.compare import NotComparable, compare_episodes
from arena.store.database import Store

LEMONADE = ["play", "lemonade", "--quiet"]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Lemonade episodes: 1 and 2 on seed 7 with another baseline in seat b, 3 = 1 again, 4 on seed 8,
    5 a bargain episode, 6 lemonade seed 7 over 3 days."""
    db = tmp_path_factory.mktemp("compare") / "arena.db"
    plays = [
        [
            *LEMONADE,
            "--option",
            "days=5",
            "--seed",
            "7",
            "--seat",
            "a=baseline:weather",
            "--seat",
            "b=baseline:cost-plus",
        ],
        [
            *LEMONADE,
            "--option",
            "days=5",
            "--seed",
            "7",
            "--seat",
            "a=baseline:weather",
            "--seat",
            "b=baseline:profit-max",
        ],
        [
            *LEMONADE,
            "--option",
            "days=5",
            "--seed",
            "7",
            "--seat",
            "a=baseline:weather",
            "--seat",
            "b=baseline:cost-plus",
        ],
        [
            *LEMONADE,
            "--option",
            "days=5",
            "--seed",
            "8",
            "--seat",
            "a=baseline:weather",
            "--seat",
            "b=baseline:cost-plus",
        ],
        [
            "play",
            "bargain",
            "--seed",
            "7",
            "--seat",
            "seller=baseline:honest",
            "--seat",
            "buyer=baseline:honest",
        ],
        [
            *LEMONADE,
            "--seed",
            "7",
            "--option",
            "days=3",
            "--seat",
            "a=baseline:weather",
            "--seat",
            "b=baseline:cost-plus",
        ],
    ]
    for argv in plays:
        assert main(["--db", str(db), *argv]) == 0
    return db


def test_same_seed_different_baselines_diverge_where_the_changed_seat_first_moves_otherwise(
    played: Path,
) -> None:
    store = Store(played)
    try:
        comparison = compare_episodes(store, 1, 2)
        b_moves = {
            episode: [row["action"] for row in store.raw_turns(episode) if row["seat"] == "b"]
            for episode in (1, 2)
        }
    finally:
        store.close()
    assert len(comparison.steps) == 5 and comparison.notes == ()
    # Seat a is the same baseline on the same world: its every decision matches.
    assert all(pair.same for step in comparison.steps for pair in step.seats if pair.seat == "a")
    first_b = next(day for day, (x, y) in enumerate(zip(*b_moves.values(), strict=True), 1) if x != y)
    assert comparison.first_divergence == first_b
    step = comparison.steps[first_b - 1]
    (differing,) = [pair for pair in step.seats if not pair.same]
    assert differing.seat == "b" and differing.a is not None and differing.b is not None
    assert differing.a.reason and differing.b.reason  # each baseline's stated reason, side by side
    assert (
        comparison.a.players["b"] == "baseline:cost-plus"
        and comparison.b.players["b"] == "baseline:profit-max"
    )


def test_the_same_players_on_the_same_seed_never_diverge(played: Path) -> None:
    store = Store(played)
    try:
        comparison = compare_episodes(store, 1, 3)
    finally:
        store.close()
    assert comparison.first_divergence is None
    assert all(step.same for step in comparison.steps)


def run(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["--db", str(db), "compare", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_prints_both_decisions_and_the_first_divergence(
    capsys: pytest.CaptureFixture[str], played: Path
) -> None:
    store = Store(played)
    try:
        first = compare_episodes(store, 1, 2).first_divergence
    finally:
        store.close()
    assert first is not None
    code, out, err = run(capsys, played, "1", "2")
    assert code == 0, err
    assert "A: episode 1  a=baseline:weather b=baseline:cost-plus" in out
    assert "B: episode 2  a=baseline:weather b=baseline:profit-max" in out
    assert f"first divergence: step {first}, seat b: " in out
    assert "≠" in out
    code, out, _ = run(capsys, played, "1", "2", "--json")
    document = json.loads(out)
    assert document["first_divergence"] == first
    assert [e["id"] for e in document["episodes"]] == [1, 2]
    assert document["steps"][first - 1]["seats"][1]["same"] is False
    code, out, _ = run(capsys, played, "1", "3")
    assert "the same moves at every one of 5 steps" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("1", "5"), "episodes 1 and 5 are of different games (lemonade, bargain): nothing to compare"),
        (("1", "4"), "episodes 1 and 4 are not the same world: deal seeds differ (7, 8); --force compares"),
        (("1", "6"), "episodes 1 and 6 are not the same world: options differ (days 5 vs 3); --force"),
        (("1", "99"), "no episode 99 in "),
    ],
)
def test_other_worlds_are_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], played: Path, argv: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, played, *argv)
    assert code == 1 and out == ""
    assert err.startswith(f"arena: error: {message}") and err.count("\n") == 1


def test_force_compares_another_seed_and_says_so(capsys: pytest.CaptureFixture[str], played: Path) -> None:
    code, out, _ = run(capsys, played, "1", "4", "--force")
    assert code == 0
    assert "note: deal seeds differ (7, 8)" in out
    store = Store(played)
    try:
        with pytest.raises(NotComparable, match="different games"):
            compare_episodes(store, 1, 5, force=True)
    finally:
        store.close()
