"""The episode runner: validation, re-asking, fallbacks, interruption and budgets."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from arena.contract.player import Decision, ErrorClass, FatalPlayerError, PlayerSetupError
from arena.contract.records import CallbackObserver, EpisodeEnded, Event, TurnsRecorded
from arena.contract.usage import Usage
from arena.engine.match import MatchConfig, play_match, prepare_runner
from arena.engine.run_control import Budget, RunControl
from arena.plugins.games import get_game
from arena.store.database import Store
from tests.support.episodes import stored_turns
from tests.support.scripted import CrashingPlayer, ScriptedPlayer, decision

GOOD = {"price": 3.0, "produce": 10, "promotion": "none", "reason": "steady"}


def lemonade(seats: dict[str, str] | None = None, days: int = 3, **kwargs: object) -> MatchConfig:
    return MatchConfig(
        game="lemonade",
        seats=seats or {"a": "baseline:weather", "b": "baseline:cost-plus"},
        seed=1,
        options={"days": days},
        **kwargs,  # type: ignore[arg-type]
    )


async def test_baselines_play_to_the_end_and_every_turn_is_stored(store: Store) -> None:
    outcome = await play_match(lemonade(days=30), store)
    assert outcome.status == "finished"
    assert outcome.episode_id is not None
    turns = stored_turns(store, outcome.episode_id)
    assert len(turns) == 60
    assert {t["seat"] for t in turns} == {"a", "b"}
    assert all(t["valid"] and not t["fallback"] for t in turns)
    episode = store.episode(outcome.episode_id)
    assert episode is not None and episode["status"] == "finished" and episode["turns"] == 60
    seats = store.seats(outcome.episode_id)
    assert [s["score"] for s in seats] == [outcome.results["a"].score, outcome.results["b"].score]
    assert seats[0]["metrics"]["final_cash"] == outcome.results["a"].score


async def test_illegal_reply_is_reasked_once_with_the_error_then_accepted(store: Store) -> None:
    bad = decision({"price": 3.0, "produce": 900, "promotion": "none"}, raw="too many")
    player = ScriptedPlayer([bad, decision(GOOD, reason="fixed it"), *[decision(GOOD)] * 10])
    runner = prepare_runner(lemonade(days=2), store, [], players={"a": player})
    outcome = await runner.run()
    turns = stored_turns(store, outcome.episode_id or 0)
    first_a = next(t for t in turns if t["seat"] == "a")
    assert first_a["valid"] == 0 and first_a["fallback"] == 0
    assert first_a["error"] == ErrorClass.ILLEGAL
    assert first_a["action"]["produce"] == 10
    assert first_a["reason"] == "fixed it"
    assert first_a["attempts"][0]["raw"] == "too many"
    assert player.requests[1].feedback is not None and "at most" in player.requests[1].feedback
    assert player.requests[1].attempt == 2


async def test_unusable_replies_fall_back_and_are_counted(store: Store) -> None:
    junk = decision(
        None, raw="I think lemonade is great", error=ErrorClass.UNPARSABLE, error_detail="no JSON"
    )
    schema = decision({"price": "cheap", "produce": -3}, raw='{"price": "cheap"}')
    player = ScriptedPlayer([junk, schema])
    runner = prepare_runner(lemonade(days=2), store, [], players={"a": player})
    outcome = await runner.run()
    turns = [t for t in stored_turns(store, outcome.episode_id or 0) if t["seat"] == "a"]
    assert all(t["fallback"] == 1 for t in turns)
    assert turns[0]["error"] == "unparsable"
    assert [a["error"] for a in turns[0]["attempts"]] == ["unparsable", "schema"]
    assert turns[0]["action"]["price"] == 3.0  # the game's conservative fallback
    metrics = outcome.results["a"].metrics
    assert metrics["fallbacks"] == 2 and metrics["invalid_replies"] == 4


async def test_provider_failures_are_not_reasked(store: Store) -> None:
    timeout = decision(None, error=ErrorClass.TIMEOUT, error_detail="deadline of 30s passed")
    player = ScriptedPlayer([timeout])
    runner = prepare_runner(lemonade(days=1), store, [], players={"a": player})
    outcome = await runner.run()
    turn = next(t for t in stored_turns(store, outcome.episode_id or 0) if t["seat"] == "a")
    assert turn["fallback"] == 1 and turn["error"] == "timeout"
    assert len(player.requests) == 1


async def test_a_crashing_player_does_not_stop_the_episode(store: Store) -> None:
    runner = prepare_runner(lemonade(days=2), store, [], players={"a": CrashingPlayer()})
    outcome = await runner.run()
    assert outcome.status == "finished"
    turns = [t for t in stored_turns(store, outcome.episode_id or 0) if t["seat"] == "a"]
    assert all(t["fallback"] and t["error"] == "player_crash" for t in turns)
    assert "boom" in turns[0]["error_detail"]


async def test_fatal_player_error_ends_the_episode_failed(store: Store) -> None:
    def revoke(_: object) -> Decision:
        raise FatalPlayerError("401: key revoked")

    runner = prepare_runner(lemonade(days=5), store, [], players={"a": ScriptedPlayer([revoke])})
    outcome = await runner.run()
    assert outcome.status == "failed" and "revoked" in outcome.message
    episode = store.episode(outcome.episode_id or 0)
    assert episode is not None and episode["status"] == "failed"


async def test_setup_error_stops_before_anything_is_recorded(store: Store) -> None:
    class Keyless(ScriptedPlayer):
        async def prepare(self) -> None:
            raise PlayerSetupError("OPENAI_API_KEY is not set")

    runner = prepare_runner(lemonade(), store, [], players={"a": Keyless([decision(GOOD)])})
    with pytest.raises(PlayerSetupError):
        await runner.run()
    assert store.list_episodes() == []


async def test_cancelled_episode_is_marked_aborted_and_readable(store: Store) -> None:
    slow = ScriptedPlayer([decision(GOOD)], delay=0.05)
    seen: list[Event] = []
    runner = prepare_runner(lemonade(days=30), store, [CallbackObserver(seen.append)], players={"a": slow})
    task = asyncio.create_task(runner.run())
    while not any(isinstance(e, TurnsRecorded) for e in seen):
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert isinstance(seen[-1], EpisodeEnded) and seen[-1].status == "aborted"
    episode = store.episode(runner.episode_id or 0)
    assert episode is not None and episode["status"] == "aborted"
    assert 0 < len(stored_turns(store, runner.episode_id or 0)) < 60


async def test_budget_stops_the_episode_cleanly(store: Store) -> None:
    costly = decision(GOOD, usage=Usage(input_tokens=500, output_tokens=50, cost_usd=0.01))
    runner = prepare_runner(
        lemonade(days=30, budget=Budget(max_cost_usd=0.025)),
        store,
        [],
        players={"a": ScriptedPlayer([costly])},
    )
    outcome = await runner.run()
    assert outcome.status == "budget_exceeded"
    assert "budget" in outcome.message
    assert len(stored_turns(store, outcome.episode_id or 0)) == 6  # three days of two stands
    seats = {s["seat"]: s for s in store.seats(outcome.episode_id or 0)}
    assert seats["a"]["cost_usd"] == pytest.approx(0.03)
    assert seats["a"]["input_tokens"] == 1500


async def test_prompt_is_stored_only_when_a_player_read_it(store: Store) -> None:
    reader = ScriptedPlayer([lambda request: decision(GOOD, raw=request.prompt[:10])])
    runner = prepare_runner(lemonade(days=1), store, [], players={"a": reader})
    outcome = await runner.run()
    turns = {t["seat"]: t for t in stored_turns(store, outcome.episode_id or 0)}
    assert turns["a"]["prompt"].startswith("You run a lemonade stand")
    assert turns["b"]["prompt"] is None


async def test_pause_and_step_controls() -> None:
    control = RunControl()
    control.pause()
    seen: list[Event] = []
    runner = prepare_runner(lemonade(days=5), None, [CallbackObserver(seen.append)], control=control)
    task = asyncio.create_task(runner.run())
    await asyncio.sleep(0.05)
    assert not any(isinstance(e, TurnsRecorded) for e in seen)
    control.step()
    while sum(isinstance(e, TurnsRecorded) for e in seen) < 1:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    assert sum(isinstance(e, TurnsRecorded) for e in seen) == 1
    control.resume()
    outcome = await task
    assert outcome.status == "finished"


async def test_same_seed_same_players_same_episode(tmp_path: Path) -> None:
    documents = []
    for name in ("one.db", "two.db"):
        store = Store(tmp_path / name)
        outcome = await play_match(
            lemonade(seats={"a": "baseline:random", "b": "baseline:profit-max"}, days=30), store
        )
        turns = stored_turns(store, outcome.episode_id or 0)
        documents.append(json.dumps([(t["action"], t["state"]) for t in turns]))
        store.close()
    assert documents[0] == documents[1]


def refused(detail: str = "HTTP 404: not found") -> Decision:
    """A provider error retrying will not fix."""
    return decision(None, error=ErrorClass.PROVIDER_ERROR, error_detail=detail, permanent=True)


async def test_a_seat_whose_provider_keeps_refusing_ends_the_episode_player_failed(store: Store) -> None:
    player = ScriptedPlayer(
        [refused("HTTP 400: first"), refused("HTTP 400: second"), refused("HTTP 400: third")]
    )
    runner = prepare_runner(lemonade(days=30), store, [], players={"a": player})
    outcome = await runner.run()
    assert outcome.status == "player_failed"
    assert outcome.message == (
        "seat a (test:scripted) could not play: 3 decisions in a row failed;"
        " last: provider_error: HTTP 400: third"
    )
    assert len(player.requests) == 3  # not re-asked, and stopped at once
    episode = store.episode(outcome.episode_id or 0)
    assert episode is not None and episode["status"] == "player_failed" and episode["turns"] == 6
    seats = store.seats(outcome.episode_id or 0)
    assert [s["score"] for s in seats] == [None, None]  # nobody scores in an episode a seat could not play
    assert seats[0]["metrics"]["fallbacks"] == 3
    assert seats[0]["metrics"]["decisions"] == 3 and seats[0]["metrics"]["fallback_rate"] == 1.0
    assert seats[1]["metrics"]["fallback_rate"] == 0.0  # a seat that won on fallbacks would show it


async def test_a_success_resets_the_run_and_the_limit_is_configurable(store: Store) -> None:
    flaky = ScriptedPlayer([refused(), refused(), decision(GOOD), refused(), refused(), decision(GOOD)])
    outcome = await play_match(lemonade(days=6), store, players={"a": flaky})
    assert outcome.status == "finished"
    strict = ScriptedPlayer([refused(), refused()])
    outcome = await play_match(lemonade(days=6, failure_limit=2), store, players={"a": strict})
    assert outcome.status == "player_failed" and len(strict.requests) == 2

    class Patient(ScriptedPlayer):
        failure_limit = 4  # a player's own limit (a models file's max_consecutive_errors) wins

    patient = Patient([refused()])
    outcome = await play_match(lemonade(days=6, failure_limit=2), store, players={"a": patient})
    assert outcome.status == "player_failed" and len(patient.requests) == 4


FAILED_DECISIONS = {
    "timeout": decision(None, error=ErrorClass.TIMEOUT, error_detail="no reply within 60s"),
    "5xx": decision(None, error=ErrorClass.PROVIDER_ERROR, error_detail="HTTP 503 (gave up)"),
    "429": decision(None, error=ErrorClass.RATE_LIMITED, error_detail="HTTP 429 (gave up)"),
    "connection": decision(None, error=ErrorClass.PROVIDER_ERROR, error_detail="connection failed"),
    "refusal": decision(None, error=ErrorClass.REFUSAL, error_detail="I can't help with that."),
    "unparsable": decision(None, error=ErrorClass.UNPARSABLE, error_detail="no JSON object found"),
    "illegal": decision({**GOOD, "produce": 100000}),
}


@pytest.mark.parametrize("cause", list(FAILED_DECISIONS))
async def test_every_failed_decision_counts_towards_a_failed_seat_whatever_the_cause(
    cause: str, store: Store
) -> None:
    # Errors that may pass (a timeout, a 503, a 429 after retries) used to reset nothing and count
    # nothing: a dead server played a whole episode on fallbacks and was rated.
    player = ScriptedPlayer([FAILED_DECISIONS[cause]])
    outcome = await play_match(lemonade(days=30), store, players={"a": player})
    assert outcome.status == "player_failed", outcome.message
    assert "3 decisions in a row failed" in outcome.message
    assert outcome.failure is not None and outcome.failure.seat == "a"
    assert outcome.failure.server_down == (cause in ("timeout", "5xx", "429", "connection"))
    seats = store.seats(outcome.episode_id or 0)
    assert [s["score"] for s in seats] == [None, None]


async def test_a_model_seat_with_no_valid_decision_of_its_own_is_not_scored(store: Store) -> None:
    # Two days, both on the fallback: below the limit of 3, but nothing the seat did was its own.
    busy = FAILED_DECISIONS["5xx"]
    outcome = await play_match(lemonade(days=2), store, players={"a": ScriptedPlayer([busy])})
    assert outcome.status == "player_failed"
    assert outcome.message.startswith("seat a (test:scripted) made no valid decision of its own: all 2")
    seats = store.seats(outcome.episode_id or 0)
    assert [s["score"] for s in seats] == [None, None]
    one_good = ScriptedPlayer([busy, decision(GOOD), busy])
    outcome = await play_match(lemonade(days=3), store, players={"a": one_good})
    assert outcome.status == "finished"


async def test_every_seat_is_stored_with_its_configuration(store: Store) -> None:
    outcome = await play_match(lemonade(days=1), store)
    seats = store.seats(outcome.episode_id or 0)
    version = get_game("lemonade").version
    assert seats[0]["config"] == {
        "kind": "baseline",
        "name": "baseline:weather",
        "game": "lemonade",
        "game_version": version,
    }
    assert seats[1]["config"]["name"] == "baseline:cost-plus"
    assert seats[0]["config_hash"] != seats[1]["config_hash"]
