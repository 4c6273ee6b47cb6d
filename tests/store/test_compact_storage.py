"""Compact turn rows: observation and state rebuilt from the log, proved by a digest."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import orjson
import pytest

from arena.contract.records import Event, Observer, TurnsRecorded
from arena.engine.export import export_episode
from arena.engine.match import MatchConfig, play_match
from arena.plugins.games import installed_game
from arena.store.database import Store
from arena.store.turn_rows import dumps_bytes, state_digest, turn_digest
from games.lemonade import LemonadeState
from tests.support.episodes import stored_turns

SEATS = {"a": "baseline:weather", "b": "baseline:cost-plus"}


class Seen(Observer):
    """Observer keeping what the runner itself saw for every turn."""

    def __init__(self) -> None:
        self.turns: list[tuple[int, dict[str, Any], dict[str, Any]]] = []

    def __call__(self, event: Event) -> None:
        if isinstance(event, TurnsRecorded):
            for turn in event.turns:
                self.turns.append((turn.index, turn.observation, turn.state))


def json_round_trip(value: Any) -> Any:
    return orjson.loads(orjson.dumps(value))


async def test_rows_leave_out_observation_and_state_and_reading_rebuilds_them(store: Store) -> None:
    seen = Seen()
    outcome = await play_match(MatchConfig("lemonade", SEATS, seed=11), store, [seen])
    episode_id = outcome.episode_id or 0
    raw = store.raw_turns(episode_id)
    assert len(raw) == 60
    assert all(row["observation"] is None and row["state"] is None for row in raw)
    assert all(isinstance(row["digest"], int) for row in raw)
    assert all(row["reason_in_action"] == 1 and "reason" not in row["action"] for row in raw)
    turns = stored_turns(store, episode_id)
    for (index, observation, state), turn in zip(seen.turns, turns, strict=True):
        assert turn["idx"] == index
        assert turn["observation"] == json_round_trip(observation)
        assert turn["state"] == json_round_trip(state)
        assert turn["action"]["reason"] == turn["reason"]
        assert "rebuild_error" not in turn


async def test_bargain_and_paperclip_rebuild_too(store: Store) -> None:
    for game, seats, options in (
        ("bargain", {"seller": "baseline:honest", "buyer": "baseline:bluffing"}, {}),
        ("paperclip", {"a": "baseline:oracle"}, {"seats": 1, "puzzles": 3}),
    ):
        seen = Seen()
        outcome = await play_match(MatchConfig(game, seats, seed=5, options=options), store, [seen])
        turns = stored_turns(store, outcome.episode_id or 0)
        assert [t["observation"] for t in turns] == [json_round_trip(o) for _, o, _ in seen.turns]
        assert [t["state"] for t in turns] == [json_round_trip(s) for _, _, s in seen.turns]


async def test_a_rebuild_that_does_not_match_its_digest_is_not_trusted(db_path: Path) -> None:
    store = Store(db_path)
    outcome = await play_match(MatchConfig("lemonade", SEATS, seed=3, options={"days": 3}), store)
    episode_id = outcome.episode_id or 0
    store.close()
    with sqlite3.connect(db_path) as conn:  # someone edits a stored action afterwards
        conn.execute(
            "UPDATE turns SET action = json_set(action, '$.produce', 1) WHERE episode_id = ? AND idx = 0",
            (episode_id,),
        )
    store = Store(db_path)
    turns = stored_turns(store, episode_id)
    store.close()
    assert all(t["observation"] is None for t in turns)
    assert "does not match its digest" in turns[0]["rebuild_error"]


async def test_an_episode_recorded_under_another_game_version_says_so(db_path: Path) -> None:
    store = Store(db_path)
    outcome = await play_match(MatchConfig("lemonade", SEATS, seed=3, options={"days": 2}), store)
    episode_id = outcome.episode_id or 0
    store.conn.execute("UPDATE episodes SET game_version = '0.9' WHERE id = ?", (episode_id,))
    document = export_episode(store, episode_id)
    store.close()
    assert document["turns"][0]["observation"] is None
    assert "recorded with lemonade 0.9" in document["turns"][0]["rebuild_error"]


async def test_a_thirty_day_baseline_episode_takes_under_25_kb(tmp_path: Path) -> None:
    db = tmp_path / "size.db"
    store = Store(db)
    for seed in range(1, 41):
        await play_match(MatchConfig("lemonade", SEATS, seed=seed), store)
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    assert db.stat().st_size / 40 <= 25 * 1024


async def test_rows_hold_a_digest_of_the_state_alone(store: Store) -> None:
    outcome = await play_match(MatchConfig("lemonade", SEATS, seed=4, options={"days": 2}), store)
    raw = store.raw_turns(outcome.episode_id or 0)
    turns = stored_turns(store, outcome.episode_id or 0)
    for row, turn in zip(raw, turns, strict=True):
        assert row["digest"] == state_digest(dumps_bytes(turn["state"]))
        assert row["digest"] != turn_digest(dumps_bytes(turn["observation"]), dumps_bytes(turn["state"]))


def test_rows_with_the_older_digest_of_observation_and_state_are_still_checked(tmp_path: Path) -> None:
    db = tmp_path / "v5.db"
    shutil.copy(Path(__file__).parents[1] / "data" / "schema_v5.db", db)
    with sqlite3.connect(db) as conn:  # someone edits a stored action afterwards
        conn.execute(
            "UPDATE turns SET action = json_set(action, '$.produce', 1) WHERE episode_id = 1 AND idx = 0"
        )
    store = Store(db)
    turns = stored_turns(store, 1)
    store.close()
    assert "does not match its digest" in turns[0]["rebuild_error"]


async def test_a_turn_state_the_game_changes_afterwards_is_stored_as_it_was(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A game (a plugin, say) whose turn state shares a list it keeps appending to.
    played = LemonadeState.turn_state

    def live_state(self: LemonadeState, seat: str) -> dict[str, Any]:
        state = played(self, seat)
        days: list[int] = self.__dict__.setdefault("_days_seen", [])
        if seat == "a":
            days.append(state["day"])
        state["days_seen"] = days
        return state

    monkeypatch.setattr(LemonadeState, "turn_state", live_state)
    seen = Seen()
    outcome = await play_match(MatchConfig("lemonade", SEATS, seed=6, options={"days": 5}), store, [seen])
    turns = stored_turns(store, outcome.episode_id or 0)
    assert all("rebuild_error" not in turn for turn in turns)
    assert [turn["state"]["days_seen"] for turn in turns][:4] == [[1], [1], [1, 2], [1, 2]]


async def test_states_alone_are_rebuilt_when_observations_are_not_wanted(store: Store) -> None:
    outcome = await play_match(
        MatchConfig("bargain", {"seller": "baseline:honest", "buyer": "baseline:bluffing"}), store
    )
    episode_id = outcome.episode_id or 0
    game = installed_game("bargain")
    whole = store.turns(episode_id, game)
    states_only = store.turns(episode_id, game, observations=False)
    assert [t["state"] for t in states_only] == [t["state"] for t in whole]
    assert all(t["observation"] is None and "rebuild_error" not in t for t in states_only)
    assert all(t["observation"] is not None for t in whole)
    # A rule change still shows: the state no longer matches its digest.
    store.conn.execute(
        "UPDATE turns SET action = json_set(action, '$.price', 1) WHERE episode_id = ? AND idx = 0",
        (episode_id,),
    )
    broken = store.turns(episode_id, game, observations=False)
    assert "does not match its digest" in broken[0]["rebuild_error"]


def test_rows_of_the_older_digest_rebuild_their_states_alone_too(tmp_path: Path) -> None:
    db = tmp_path / "v5.db"
    shutil.copy(Path(__file__).parents[1] / "data" / "schema_v5.db", db)
    store = Store(db)
    try:
        episode = store.episode(1)
        assert episode is not None
        game = installed_game(episode["game"])
        whole = store.turns(1, game)
        states_only = store.turns(1, game, observations=False)
    finally:
        store.close()
    assert whole and all("rebuild_error" not in t for t in (*whole, *states_only))
    assert [t["state"] for t in states_only] == [t["state"] for t in whole]
