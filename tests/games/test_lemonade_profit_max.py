"""profit-max on a shared street plans for its share of the customers, and stays solvent."""

from __future__ import annotations

import random

import pytest

from arena.engine.runner import decision_request
from games.lemonade.baselines import ProfitMaxStand, WeatherStand, expected_demand, expected_share
from games.lemonade.observation import LemonadeObservation, RivalDay, SharedLemonadeObservation
from games.lemonade.rules import (
    MAX_PRICE,
    MIN_PRICE,
    PROMOTIONS,
    LemonadeDecision,
    affordable,
    shared_traffic_shares,
)
from tests.support.gamekit import new_lemonade


async def _play(
    seed: int, kinds: dict[str, type[ProfitMaxStand] | type[WeatherStand]]
) -> dict[str, int | None]:
    """Play a shared street of three stands to the end; each stand's bankrupt day (None if solvent)."""
    state = new_lemonade(seed, market="shared", stands=3)
    players = {seat: kind(random.Random(seed)) for seat, kind in kinds.items()}
    step = 0
    while not state.over():
        actions: dict[str, LemonadeDecision] = {}
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


def plain_choice(observation: LemonadeObservation) -> tuple[float, str, int]:
    """profit-max's search written plainly: every price and promotion through the game's own rules."""
    today = observation.today
    assert today is not None
    best: tuple[float, float, str, int] = (-1e9, 3.0, "none", 0)
    for promotion, effect in PROMOTIONS.items():
        if effect.fixed_cost > observation.cash:
            continue
        limit = affordable(observation.cash, today.unit_cost, promotion)
        for tenth in range(int(MIN_PRICE * 10), int(MAX_PRICE * 10) + 1):
            price = tenth / 10
            share = 1.0
            if isinstance(observation, SharedLemonadeObservation):
                rivals = observation.rivals_yesterday
                if not rivals and observation.day <= 1:
                    share = 0.5
                else:
                    prices = {"me": price, **{seat: r.price for seat, r in rivals.items()}}
                    promotions = {"me": promotion, **{seat: r.promotion for seat, r in rivals.items()}}
                    share = shared_traffic_shares(prices, promotions)["me"]
            cups = min(int(expected_demand(today, price, promotion) * share), limit)
            profit = cups * (price * effect.revenue_share - today.unit_cost) - effect.fixed_cost
            if profit > best[0]:
                best = (profit, price, promotion, cups)
    return best[1], best[2], best[3]


@pytest.mark.parametrize(("market", "stands"), [("identical", 2), ("shared", 2), ("shared", 3)])
def test_profit_max_picks_what_the_plain_search_picks(market: str, stands: int) -> None:
    stand = ProfitMaxStand(random.Random(0))
    for seed in range(4):
        state = new_lemonade(seed, market=market, stands=stands)
        rng = random.Random(seed)
        while not state.over():
            actions: dict[str, LemonadeDecision] = {}
            for seat in state.pending():
                observation = state.observation(seat)
                decision = stand.choose(observation)
                assert (decision.price, decision.promotion, decision.produce) == plain_choice(observation)
                # Some random play, so rivals' promotions and low cash show up too.
                actions[seat] = decision if rng.random() < 0.5 else state.sample_action(seat, rng)
            state.apply(actions)
