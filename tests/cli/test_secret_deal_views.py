"""A person's episode that has not ended keeps its deal secret in every view that would show it.

A person who stopped a bargain (Ctrl-C, a closed terminal) can resume it with ``arena resume``.
Its replay, export and comparison show the other side's hidden value, so each waits until the
episode ends: one line and exit 1 by id, left out (and counted) from a filter. Once it has
ended, each shows it as before.

The stopped episode is made as a crash leaves one: a whole episode cut back to its first steps
and marked ``aborted``, with its buyer's seat a person's.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from arena.app.replay_data import ReplayData, ReplayError
from arena.cli.main import main
from arena.engine.bulk_export import Selection, select_episodes
from arena.engine.export import EpisodeSecret, export_episode
from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store

SEATS = {"seller": "baseline:honest", "buyer": "baseline:bluffing"}


def played(store: Store, seed: int) -> int:
    outcome = asyncio.run(play_match(MatchConfig(game="bargain", seats=SEATS, seed=seed), store))
    assert outcome.episode_id is not None and outcome.status == "finished"
    return outcome.episode_id


def stopped_by_a_person(store: Store, episode_id: int) -> None:
    """As a person's Ctrl-C after two steps leaves it: the buyer a person, the turns so far, aborted."""
    store.conn.execute(
        "UPDATE seats SET kind='human', player='human' WHERE episode_id=? AND seat='buyer'", (episode_id,)
    )
    store.conn.execute("DELETE FROM turns WHERE episode_id=? AND step>=2", (episode_id,))
    store.set_status(episode_id, "aborted", "interrupted")


@pytest.fixture
def two_episodes(db_path: Path) -> tuple[int, int]:
    """A finished machines-only episode and a person's stopped one, in the test's database."""
    store = Store(db_path)
    try:
        finished, stopped = played(store, 4), played(store, 5)
        stopped_by_a_person(store, stopped)
    finally:
        store.close()
    return finished, stopped


def test_export_compare_and_replay_of_a_stopped_persons_episode_wait_for_its_end(
    db_path: Path, two_episodes: tuple[int, int]
) -> None:
    finished, stopped = two_episodes
    store = Store(db_path)
    try:
        assert store.deal_is_secret(stopped) and not store.deal_is_secret(finished)
        with pytest.raises(
            EpisodeSecret, match=rf"episode {stopped} has a person's seat .*arena resume {stopped}"
        ):
            export_episode(store, stopped)
        with pytest.raises(ReplayError, match="its replay would show the hidden deal"):
            ReplayData.load(store, stopped)
        with pytest.raises(EpisodeSecret):
            select_episodes(store, Selection(ids=(finished, stopped)))
        assert select_episodes(store, Selection(game="bargain")) == ([finished], 1)
        assert export_episode(store, finished)["episode"]["id"] == finished
        store.set_status(stopped, "finished", "resumed and played to its end")
        assert not store.deal_is_secret(stopped)
        assert export_episode(store, stopped)["episode"]["seed"] is not None
        assert ReplayData.load(store, stopped).episode["id"] == stopped
        assert select_episodes(store, Selection(game="bargain")) == ([finished, stopped], 0)
    finally:
        store.close()


def test_the_console_says_so_in_one_line_and_leaves_it_out_of_a_filter(
    db_path: Path, two_episodes: tuple[int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    finished, stopped = two_episodes
    db = ["--db", str(db_path)]
    for command in (
        ["export", str(stopped)],
        ["replay", str(stopped)],
        ["compare", str(finished), str(stopped)],
    ):
        assert main([*db, *command]) == 1, command
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1, (command, err)
        assert f"episode {stopped} has a person's seat and has not ended (aborted)" in err
        assert "Traceback" not in err
    assert main([*db, "export", "--game", "bargain", "--format", "jsonl"]) == 0
    out, err = capsys.readouterr()
    assert {json.loads(line)["episode_id"] for line in out.splitlines()} == {finished}
    assert "left out 1 episode a person may still play" in err


def test_listings_hide_the_scores_of_a_persons_episode_until_it_ends(
    db_path: Path, two_episodes: tuple[int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    """``arena episodes``, its ``--json`` and the app's episode list show no score before the end.

    The stopped episode's seats hold scores (a crash can leave them), which would tell the
    person where the deal stands; the console promised the results stay hidden.
    """
    from arena.app.browse_data import COLUMNS, episode_cells

    finished, stopped = two_episodes
    db = ["--db", str(db_path)]
    assert main([*db, "episodes", "--json"]) == 0
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows[stopped]["scores"] is None and rows[finished]["scores"]
    assert main([*db, "episodes"]) == 0
    lines = {line.split("\t")[0]: line.split("\t") for line in capsys.readouterr().out.splitlines()}
    assert lines[str(stopped)][-1] == "hidden until the end"
    assert "=" in lines[str(finished)][-1]
    store = Store(db_path)
    try:
        cells = {row["id"]: episode_cells(row) for row in store.list_episodes()}
        store.set_status(stopped, "finished", "resumed and played to its end")
        ended = {row["id"]: row["scores"] for row in store.list_episodes()}
    finally:
        store.close()
    assert cells[stopped][COLUMNS.index("scores")] == "hidden until the end"
    assert ended[stopped], "once it has ended its scores show"
