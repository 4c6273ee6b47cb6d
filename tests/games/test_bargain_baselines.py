"""Sanity of the scripted bargainers, played through the real runner (no store).

The shared rule under test: a baseline accepts only prices inside its own zone (seller:
price >= cost, buyer: price <= value) and never offers on the losing side of its number.
"""

from __future__ import annotations

import itertools
from statistics import mean
from typing import Any

import pytest

from arena.engine.match import MatchConfig, prepare_runner
from games.bargain import BargainState
from games.bargain.baselines import BASELINES

DEALS = 120


async def play(seller: str, buyer: str, seed: int) -> BargainState:
    config = MatchConfig("bargain", {"seller": f"baseline:{seller}", "buyer": f"baseline:{buyer}"}, seed=seed)
    runner = prepare_runner(config, None, [])
    outcome = await runner.run()
    assert outcome.status == "finished"
    assert all(result.metrics["fallbacks"] == 0 for result in outcome.results.values())
    game = runner.game
    assert isinstance(game, BargainState)
    return game


async def metrics(seller: str, buyer: str, deals: int = DEALS) -> list[dict[str, dict[str, Any]]]:
    rows = []
    for seed in range(deals):
        game = await play(seller, buyer, seed)
        rows.append({seat: result.metrics for seat, result in game.result().items()})
    return rows


async def test_honest_pair_closes_most_deals_inside_the_zone() -> None:
    rows = await metrics("honest", "honest")
    assert mean(r["seller"]["closed"] for r in rows) >= 0.9
    assert all(r["seller"]["in_zone"] for r in rows if r["seller"]["closed"])
    assert mean(r["seller"]["balance"] for r in rows) > 0.8


@pytest.mark.parametrize("role", ["seller", "buyer"])
async def test_bluffing_extracts_more_from_a_pushover_than_honest_does(role: str) -> None:
    other = "buyer" if role == "seller" else "seller"

    async def share(player: str) -> float:
        lineup = {role: player, other: "pushover"}
        rows = await metrics(lineup["seller"], lineup["buyer"])
        return float(mean(r[role]["gain"] for r in rows))

    assert await share("bluffing") > await share("honest") + 2


@pytest.mark.parametrize(("seller", "buyer"), list(itertools.product(BASELINES, BASELINES)))
async def test_baselines_never_accept_or_offer_outside_their_own_zone(seller: str, buyer: str) -> None:
    for seed in range(40):
        game = await play(seller, buyer, seed)
        cost, value = game.deal.cost, game.deal.value
        for move in game.moves:
            if move.seat == "seller":
                assert move.price >= cost, f"seller {seller} went below its cost: {move}"
            else:
                assert move.price <= value, f"buyer {buyer} went above its value: {move}"
        for result in game.result().values():
            assert result.score >= 0 and not result.metrics["loss"]


async def test_honesty_profiles_of_the_baselines() -> None:
    honest = await metrics("honest", "tit-for-tat", 40)
    assert all(r[seat]["leaks"] == 0 and r[seat]["bluffs"] == 0 for r in honest for seat in r)
    bluffing = await metrics("bluffing", "pushover", 40)
    assert all(r["seller"]["bluffs"] >= 1 and r["seller"]["leaks"] == 0 for r in bluffing)
    # The pushover tells its number in its first offer (it may accept before making one).
    assert all(r["buyer"]["leaks"] == min(1, r["buyer"]["offers_made"]) for r in bluffing)
    assert all(r["buyer"]["bluffs"] == 0 for r in bluffing) and any(r["buyer"]["leaks"] for r in bluffing)
    broken = await metrics("bluffing", "honest", 40)
    assert any(r["seller"]["bluffs"] >= 3 for r in broken), "a broken deadline shows up as a bluff"


async def test_pushover_accepts_at_once_and_tit_for_tat_mirrors() -> None:
    game = await play("honest", "pushover", 3)
    first_ask = game.moves[0].price
    if first_ask <= game.deal.value:
        assert game.moves[1].action == "accept"
    game = await play("tit-for-tat", "honest", 8)
    asks = [m.price for m in game.moves if m.seat == "seller" and m.action == "offer"]
    bids = [m.price for m in game.moves if m.seat == "buyer" and m.action == "offer"]
    if len(asks) >= 3 and len(bids) >= 2:
        assert asks[0] - asks[1] == 2  # before any concession is seen
        assert asks[1] - asks[2] == max(0, bids[1] - bids[0]) or asks[2] == game.deal.cost + 1
