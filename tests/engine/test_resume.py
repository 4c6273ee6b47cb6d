"""Resuming a stopped episode from its last recorded step (issue 24, item 13), in-process.

A crash leaves an episode with the steps it recorded and status ``aborted``: here that state is
made by playing an episode whole and then cutting its record back to an earlier step, as a
``kill -9`` would have left it. The real interruptions (Ctrl-C of a real ``arena play``) are
in tests/cli/test_resume_cli.py.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from arena.engine.export import EpisodeNotFound
from arena.engine.match import MatchConfig, play_match, resume_config
from arena.engine.resume import NotResumable
from arena.store.database import Store, StoreError

LINE_UPS: list[tuple[str, dict[str, str], dict[str, Any]]] = [
    ("lemonade", {"a": "baseline:random", "b": "baseline:weather"}, {"days": 12}),
    ("bargain", {"seller": "baseline:random", "buyer": "baseline:bluffing"}, {}),
    ("paperclip", {"a": "baseline:sloppy", "b": "baseline:random"}, {"mode": "stepwise"}),
    ("cattle", {"p1": "baseline:random", "p2": "baseline:tracker", "p3": "baseline:random"}, {"players": 3}),
]


def play(store: Store, game: str, seats: dict[str, str], options: dict[str, Any], seed: int = 9) -> int:
    outcome = asyncio.run(play_match(MatchConfig(game=game, seats=seats, seed=seed, options=options), store))
    assert outcome.episode_id is not None and outcome.status == "finished"
    return outcome.episode_id


def cut_back(store: Store, episode_id: int, keep_steps: int) -> None:
    """Leave the episode as a crash after ``keep_steps`` steps would: those turns, status aborted."""
    store.conn.execute("DELETE FROM turns WHERE episode_id=? AND step>=?", (episode_id, keep_steps))
    store.set_status(episode_id, "aborted", "process ended while the episode was running")


def outcome_of(store: Store, episode_id: int) -> tuple[list[Any], list[Any]]:
    """The seats' scores and metrics, and every turn's (step, seat, action, reason)."""
    seats = [(s["seat"], s["score"], s["metrics"]) for s in store.seats(episode_id)]
    turns = [(t["step"], t["seat"], t["action"], t["reason"]) for t in store.raw_turns(episode_id)]
    return seats, turns


def resume(store: Store, episode_id: int) -> str:
    outcome = asyncio.run(play_match(resume_config(store, episode_id), store))
    assert outcome.episode_id == episode_id
    return outcome.status


@pytest.mark.parametrize(("game", "seats", "options"), LINE_UPS, ids=[line[0] for line in LINE_UPS])
def test_a_resumed_episode_ends_as_the_uninterrupted_one(
    store: Store, game: str, seats: dict[str, str], options: dict[str, Any]
) -> None:
    whole = play(store, game, seats, options)
    steps = store.raw_turns(whole)[-1]["step"] + 1
    cut = play(store, game, seats, options)
    cut_back(store, cut, steps // 2)
    assert resume(store, cut) == "finished"
    assert outcome_of(store, cut) == outcome_of(store, whole)
    episode = store.episode(cut)
    assert episode is not None
    assert episode["turns"] == len(store.raw_turns(whole))
    assert episode["message"] == f"resumed at step {steps // 2 + 1}"


def test_an_episode_cut_before_its_first_step_plays_from_the_start(store: Store) -> None:
    game, seats, options = LINE_UPS[0]
    whole = play(store, game, seats, options)
    cut = play(store, game, seats, options)
    cut_back(store, cut, 0)
    assert resume(store, cut) == "finished"
    assert outcome_of(store, cut) == outcome_of(store, whole)


def test_an_episode_resumed_twice_still_ends_as_the_uninterrupted_one(store: Store) -> None:
    game, seats, options = LINE_UPS[1]
    whole = play(store, game, seats, options)
    cut = play(store, game, seats, options)
    cut_back(store, cut, 2)
    assert resume(store, cut) == "finished"
    cut_back(store, cut, 5)
    assert resume(store, cut) == "finished"
    assert outcome_of(store, cut) == outcome_of(store, whole)


def test_what_cannot_be_resumed_is_refused_in_one_line(store: Store) -> None:
    game, seats, options = LINE_UPS[0]
    finished = play(store, game, seats, options)
    with pytest.raises(NotResumable, match=f"episode {finished} cannot be resumed: it has finished"):
        resume_config(store, finished)
    with pytest.raises(EpisodeNotFound, match="no episode 999"):
        resume_config(store, 999)
    store.conn.execute("UPDATE episodes SET status='budget_exceeded' WHERE id=?", (finished,))
    with pytest.raises(NotResumable, match="it stopped at its budget"):
        resume_config(store, finished)
    store.conn.execute("UPDATE episodes SET status='running', pid=? WHERE id=?", (os.getpid(), finished))
    with pytest.raises(NotResumable, match=rf"it is still being played \(process {os.getpid()}\)"):
        resume_config(store, finished)
    store.conn.execute("UPDATE episodes SET status='aborted', game_version='0.1' WHERE id=?", (finished,))
    with pytest.raises(NotResumable, match=r"played under lemonade 0\.1; the installed rules are"):
        resume_config(store, finished)


def test_a_tournament_episode_points_at_tournament_resume(store: Store, db_path: Path) -> None:
    from arena.cli.main import main

    assert main(["--db", str(db_path), "tournament", "run", "bargain", "--player", "baseline:honest",
                 "--player", "baseline:random", "--seeds", "1"]) == 0  # fmt: skip
    episode_id = store.list_episodes()[0]["id"]
    cut_back(store, episode_id, 1)
    with pytest.raises(NotResumable, match=r"tournament 1 \(arena tournament resume 1 plays it again\)"):
        resume_config(store, episode_id)


def test_a_record_the_players_would_not_make_again_is_refused_and_left_as_it_was(store: Store) -> None:
    game, seats, options = LINE_UPS[0]
    episode_id = play(store, game, seats, options)
    cut_back(store, episode_id, 4)
    store.conn.execute(
        "UPDATE turns SET action=json_set(action, '$.price', 0.5) WHERE episode_id=? AND step=2 AND seat='a'",
        (episode_id,),
    )
    before = outcome_of(store, episode_id)
    with pytest.raises(NotResumable, match="seat a's baseline:random chose otherwise at step 3 than"):
        resume(store, episode_id)
    episode = store.episode(episode_id)
    assert episode is not None and episode["status"] == "aborted"
    assert outcome_of(store, episode_id) == before


def test_a_player_configured_otherwise_now_is_refused(store: Store) -> None:
    game, seats, options = LINE_UPS[0]
    episode_id = play(store, game, seats, options)
    cut_back(store, episode_id, 4)
    # As if the seat had been recorded with other settings than it gets built with today.
    store.conn.execute(
        "INSERT INTO player_configs (hash, name, kind, config, created_at)"
        " VALUES ('other', 'baseline:weather', 'baseline', '{\"setting\": 1}', '')"
    )
    store.conn.execute("UPDATE seats SET config_hash='other' WHERE episode_id=? AND seat='b'", (episode_id,))
    with pytest.raises(NotResumable, match="seat b's player 'baseline:weather' is configured differently"):
        resume(store, episode_id)


def test_only_one_process_takes_an_episode_up(store: Store, db_path: Path) -> None:
    game, seats, options = LINE_UPS[0]
    episode_id = play(store, game, seats, options)
    cut_back(store, episode_id, 4)
    config = resume_config(store, episode_id)
    other = Store(db_path)
    try:
        other.reopen_episode(episode_id)  # another process resumed it meanwhile
    finally:
        other.close()
    with pytest.raises(StoreError, match="no longer stopped: another process resumed it"):
        asyncio.run(play_match(config, store))
