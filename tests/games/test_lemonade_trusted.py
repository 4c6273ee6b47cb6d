"""The lemonade observation models the game builds without validation equal validated ones."""

from __future__ import annotations

import random

import pytest
from pydantic import BaseModel

from games.lemonade.baselines import BASELINES
from games.lemonade.observation import LemonadeObservation, SharedLemonadeObservation
from games.lemonade.rules import LemonadeDecision
from tests.support.gamekit import new_lemonade


def assert_as_validated(model: BaseModel) -> None:
    """``model`` is what validating its own data gives: same values, types, field order and set."""
    again = type(model).model_validate(model.model_dump())
    assert model == again
    assert model.model_dump_json() == again.model_dump_json()  # order too
    # The values held are of the types validation gives (model_dump_json writes 2 as 2.0 in a
    # float field either way, and 2 == 2.0, so only the held types tell an int from a float).
    assert [type(value) for value in model.__dict__.values()] == [type(v) for v in again.__dict__.values()]
    assert model.model_fields_set == again.model_fields_set


@pytest.mark.parametrize(
    ("market", "stands"), [("identical", 2), ("shared", 2), ("shared", 3), ("identical", 1)]
)
def test_trusted_observations_equal_validated_ones(market: str, stands: int) -> None:
    for seed in range(6):
        game = new_lemonade(seed, market=market, stands=stands, days=12)
        rng = random.Random(seed)
        checked = 0
        while not game.over():
            for seat in game.seats:
                observation = game.observation(seat)
                kind = SharedLemonadeObservation if market == "shared" else LemonadeObservation
                assert type(observation) is kind
                assert_as_validated(observation)
                for model in [observation.today, *observation.recent_days]:
                    if model is not None:
                        assert_as_validated(model)
                if isinstance(observation, SharedLemonadeObservation):
                    for rival in observation.rivals_yesterday.values():
                        assert_as_validated(rival)
                checked += 1
            game.apply({seat: game.sample_action(seat, rng) for seat in game.pending()})
        for seat in game.seats:
            assert_as_validated(game.observation(seat))  # after the last day: no forecast
        assert checked >= stands


def test_a_state_read_back_from_json_observes_the_same() -> None:
    game = new_lemonade(3, market="shared", stands=3, days=5)
    rng = random.Random(3)
    for _ in range(3):
        game.apply({seat: game.sample_action(seat, rng) for seat in game.pending()})
    copy = game.clone()
    for seat in game.seats:
        assert copy.observation(seat).model_dump_json() == game.observation(seat).model_dump_json()


def test_whole_number_cash_in_stored_json_is_observed_as_a_float() -> None:
    data = new_lemonade(1).to_json()
    data["stands"]["a"]["cash"] = 50
    state = new_lemonade(1).definition.state_from_json(data)
    assert_as_validated(state.observation("a"))


@pytest.mark.parametrize("name", ["weather", "cost-plus"])
@pytest.mark.parametrize("market", ["identical", "shared"])
def test_baseline_decisions_built_unvalidated_equal_validated_ones(name: str, market: str) -> None:
    cut = 0
    for seed in range(10):
        game = new_lemonade(seed, market=market, stands=2, days=20)
        stand = BASELINES[name](random.Random(seed))
        rng = random.Random(seed)
        while not game.over():
            for seat in game.pending():
                decision = stand.choose(game.observation(seat))
                assert type(decision) is LemonadeDecision
                assert_as_validated(decision)
                assert game.validate(seat, decision) is None
                cut += "cut to" in decision.reason or "all the cash pays for" in decision.reason
            game.apply({seat: game.sample_action(seat, rng) for seat in game.pending()})
    assert cut > 0  # random play runs low on cash: the capped branch was checked too
