"""profit-max on a shared street plans for its share of the customers, and stays solvent."""

from __future__ import annotations

import random

import pytest
from pydantic import BaseModel

from arena.runner import decision_request
from games.lemonade.baselines import ProfitMaxStand, WeatherStand, expected_share
from games.lemonade.observation import LemonadeObservation, RivalDay
from games.lemonade.rules import LemonadeDecision
from tests.gamekit import new_lemonade


async def _play(
    seed: int, kinds: dict[str, type[ProfitMaxStand] | type[WeatherStand]]
) -> dict[str, int | None]:
    """Play a shared street of three stands to the end; each stand's bankrupt day (None if solvent)."""
    state = new_lemonade(seed, market="shared", stands=3)
    players = {seat: kind(random.Random(seed)) for seat, kind in kinds.items()}
    step = 0
    while not state.over():
        actions: dict[str, BaseModel] = {}
        for seat in state.pending():
            decision = await players[seat].decide(decision_request(state, seat, step))
            assert isinstance(decision.action, LemonadeDecision)
            assert state.validate(seat, decision.action) is None
            actions[seat] = decision.action
        state.apply(actions)
        step += 1
    return {seat: stand.bankrupt_day for seat, stand in state.stands.items()}


@pytest.mark.parametrize("seed", range(21))
async def test_three_profit_max_stands_on_a_shared_street_never_go_bankrupt(seed: int) -> None:
    bankrupt = await _play(seed, {"a": ProfitMaxStand, "b": ProfitMaxStand, "c": ProfitMaxStand})
    assert bankrupt == {"a": None, "b": None, "c": None}


@pytest.mark.parametrize("seed", range(21))
async def test_profit_max_beside_weather_stands_never_goes_bankrupt(seed: int) -> None:
    bankrupt = await _play(seed, {"a": ProfitMaxStand, "b": WeatherStand, "c": WeatherStand})
    assert bankrupt["a"] is None


def test_the_expected_share_follows_the_games_split_of_the_rivals_prices() -> None:
    state = new_lemonade(0, market="shared", stands=3)
    first = state.observation("a")
    assert isinstance(first, LemonadeObservation)
    assert expected_share(first, 3.0, "none") == 0.5, "no rival price known on the first morning"
    rival = RivalDay(price=3.0, promotion="none")
    later = first.model_copy(update={"day": 2, "rivals_yesterday": {"b": rival, "c": rival}})
    assert expected_share(later, 3.0, "none") == pytest.approx(1 / 3)
    assert expected_share(later, 2.0, "none") > 1 / 3 > expected_share(later, 5.0, "none")
    alone = new_lemonade(0).observation("a")
    assert isinstance(alone, LemonadeObservation) and expected_share(alone, 3.0, "none") == 1.0
