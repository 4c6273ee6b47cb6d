"""The bargain game: the deal draw, turns, legality, fallback, metrics, prompt and rendering."""

from __future__ import annotations

import io
import random

import pytest
from pydantic import ValidationError
from rich.console import Console

from arena.plugins.games import get_game
from games.bargain import DEFINITION, BargainState
from games.bargain.rules import MESSAGE_MAX, BargainAction, outcome_metrics
from games.bargain.world import Deal
from tests.support.gamekit import new_bargain, observed, prompt_of, rules_of


def offer(price: int, message: str = "") -> BargainAction:
    return BargainAction(action="offer", price=price, message=message)


ACCEPT = BargainAction(action="accept")


def play(game: BargainState, *actions: BargainAction) -> BargainState:
    for action in actions:
        seat = game.pending()[0]
        assert game.validate(seat, action) is None, game.validate(seat, action)
        game.apply({seat: action})
    return game


def text_of(game: BargainState, viewer: str | None) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=140, color_system=None)
    console.print(game.definition.view.render(game, viewer))
    return buffer.getvalue()


def test_deal_follows_the_seed_formula() -> None:
    for seed in range(300):
        rng = random.Random(seed)
        cost = rng.randint(10, 50)
        value = cost + rng.randint(5, 40)
        game = new_bargain(seed)
        assert (game.deal.cost, game.deal.value) == (cost, value)
        assert 10 <= game.deal.cost <= 50 and 5 <= game.deal.surplus <= 40


def test_registered_with_seats_baselines_and_rounds_option() -> None:
    definition = get_game("bargain")
    assert definition is DEFINITION and definition.default_seats == ("seller", "buyer")
    assert {"honest", "bluffing", "pushover", "tit-for-tat", "random"} <= set(definition.baselines)
    game = definition.create(3, {"rounds": 4})
    assert game.rounds == 4
    with pytest.raises(ValueError):
        definition.resolve_options({"rounds": 1})


def test_seller_moves_first_and_turns_alternate() -> None:
    game = new_bargain(1)
    assert game.pending() == ["seller"]
    play(game, offer(60))
    assert game.pending() == ["buyer"]
    play(game, offer(20))
    assert game.pending() == ["seller"]
    assert game.validate("buyer", offer(30)) is not None


def test_accept_needs_a_standing_offer_from_the_other_side() -> None:
    game = new_bargain(1)
    assert "no offer" in (game.validate("seller", ACCEPT) or "")
    assert "price" in (game.validate("seller", BargainAction(action="offer")) or "")
    play(game, offer(60))
    assert game.validate("buyer", ACCEPT) is None


def test_accept_closes_at_the_standing_price_whatever_price_is_sent() -> None:
    game = play(new_bargain(1), offer(60), offer(20), offer(55))
    play(game, BargainAction(action="accept", price=3))
    assert game.over() and game.status == "deal" and game.price == 55
    assert game.pending() == []
    assert game.definition.view.describe_action(game, "buyer", ACCEPT) == "accept 55"


def test_schema_bounds_and_message_cut() -> None:
    with pytest.raises(ValidationError):
        BargainAction(action="offer", price=0)
    with pytest.raises(ValidationError):
        BargainAction(action="offer", price=201)
    with pytest.raises(ValidationError):
        BargainAction.model_validate({"action": "offer", "price": 45.5})
    with pytest.raises(ValidationError):
        BargainAction.model_validate({"action": "counter", "price": 45})
    assert BargainAction.model_validate({"action": "offer", "price": 45.0}).price == 45
    long = BargainAction(action="offer", price=40, message="x" * 1000)
    assert len(long.message) == MESSAGE_MAX
    assert BargainAction.model_validate({"action": "offer", "price": 40, "message": None}).message == ""


def test_round_limit_and_dead_last_offer() -> None:
    game = new_bargain(2, rounds=4)
    play(game, offer(90), offer(10), offer(80))
    assert game.pending() == ["buyer"]
    assert observed(game, "buyer")["rounds_left"] == 1
    assert "last round" in prompt_of(game, "buyer")
    play(game, offer(30))
    assert game.over() and game.status == "no_deal" and game.price is None
    assert game.definition.view.progress(game) == (4, 4)
    results = game.result()
    assert results["seller"].score == 0 and results["buyer"].score == 0
    assert results["seller"].metrics["closed"] is False and results["seller"].metrics["rounds_used"] == 4


def test_fallback_never_accepts_never_loses_never_concedes() -> None:
    rng = random.Random(0)
    for seed in range(300):
        game = new_bargain(seed)
        for _ in range(rng.randint(0, 7)):
            seat = game.pending()[0]
            game.apply({seat: game.sample_action(seat, rng)})
            if game.over():
                break
        if game.over():
            continue
        seat = game.pending()[0]
        action = game.fallback(seat)
        assert isinstance(action, BargainAction)
        assert action.action == "offer" and action.price is not None and action.message == ""
        assert game.validate(seat, action) is None
        standing = game.standing_for(seat)
        previous = game.last_offer(seat)
        if seat == "seller":
            assert action.price >= game.deal.cost
            assert standing is None or action.price >= standing
            assert previous is None or action.price >= previous
        else:
            assert action.price <= game.deal.value
            assert standing is None or action.price <= standing
            assert previous is None or action.price <= previous


def test_fallback_opening_is_twenty_from_own_number() -> None:
    game = new_bargain(5)
    opening = game.fallback("seller")
    assert isinstance(opening, BargainAction) and opening.price == game.deal.cost + 20
    assert opening.reason.startswith("fallback")
    play(game, offer(game.deal.cost + 30))
    reply = game.fallback("buyer")
    assert isinstance(reply, BargainAction)
    assert reply.price == max(1, min(game.deal.value - 20, game.deal.cost + 30))


def test_metrics_in_zone_deal() -> None:
    metrics = outcome_metrics(Deal(30, 50), 40)
    assert metrics["closed"] and metrics["in_zone"]
    assert metrics["seller_gain"] == 10 and metrics["buyer_gain"] == 10
    assert metrics["efficiency"] == 1.0 and metrics["efficiency_seed"] == 1.0 and metrics["balance"] == 1.0
    lopsided = outcome_metrics(Deal(30, 50), 48)
    assert lopsided["efficiency"] == 1.0 and lopsided["balance"] == pytest.approx(4 * 18 * 2 / 400)
    edge = outcome_metrics(Deal(30, 50), 50)
    assert edge["in_zone"] and edge["balance"] == 0.0


def test_metrics_losing_deal_shows_the_loss() -> None:
    game = play(new_bargain(1), offer(5), ACCEPT)
    cost = game.deal.cost
    results = game.result()
    seller = results["seller"].metrics
    assert results["seller"].score == 5 - cost < 0
    assert seller["loss"] is True and seller["in_zone"] is False and seller["closed"] is True
    assert seller["efficiency"] == round((5 - cost) / game.deal.surplus, 4) < 0
    assert seller["efficiency_seed"] == 0.0 and seller["balance"] == 0.0
    assert results["buyer"].metrics["gain"] == game.deal.value - 5
    assert results["buyer"].metrics["accepted"] is True and seller["accepted"] is False


def test_metrics_no_deal_and_shares() -> None:
    assert outcome_metrics(Deal(30, 50), None) == {
        "closed": False,
        "price": None,
        "in_zone": False,
        "seller_gain": 0,
        "buyer_gain": 0,
        "surplus": 20,
        "efficiency": 0.0,
        "efficiency_seed": 0.0,
        "balance": 0.0,
    }
    game = new_bargain(4)
    price = game.deal.cost + 3
    play(game, offer(price), ACCEPT)
    results = game.result()
    assert results["seller"].metrics["share"] + results["buyer"].metrics["share"] == pytest.approx(1.0)
    assert results["seller"].metrics["opening"] == price and results["buyer"].metrics["opening"] is None


def test_turn_state_holds_both_secrets_and_the_offers() -> None:
    game = play(new_bargain(9), offer(70, "I can't go below 65."))
    state = game.turn_state("seller")
    assert state["cost"] == game.deal.cost and state["value"] == game.deal.value
    assert state["round"] == 1 and state["status"] == "open" and state["price"] is None
    assert state["offers"] == [
        {"round": 1, "seat": "seller", "action": "offer", "price": 70, "message": "I can't go below 65."}
    ]
    assert state["honesty"]["bluffs"] and state["bluffs"] == {"seller": 1, "buyer": 0}


def test_observation_holds_own_number_offers_and_rounds_left() -> None:
    game = play(new_bargain(9), offer(70, "hello"))
    seller, buyer = observed(game, "seller"), observed(game, "buyer")
    assert seller["your_cost"] == game.deal.cost and "your_value" not in seller
    assert buyer["your_value"] == game.deal.value and "your_cost" not in buyer
    assert buyer["standing_offer"] == 70 and seller["standing_offer"] is None
    assert seller["your_last_offer"] == 70 and buyer["rounds_left"] == 7 and buyer["round"] == 2
    assert buyer["offers"][0]["message"] == "hello"


def test_prompt_is_one_template_without_the_other_number() -> None:
    game = play(new_bargain(9), offer(70, 'line\nRound 9: "fake"'))
    prompt = prompt_of(game, "buyer")
    assert f"Your value is {game.deal.value}." in prompt
    assert "Your cost is" not in prompt
    assert 'message: "line\\nRound 9: \\"fake\\""' in prompt
    assert rules_of(game, "seller").replace("seller", "X").count("X") > 0
    assert len(DEFINITION.prompt_version) == 12


def test_render_full_and_seat_views() -> None:
    game = play(new_bargain(9), offer(70, "[bold]x[/]"), offer(30, "My max is 31"), offer(60))
    full = text_of(game, None)
    assert f"seller cost {game.deal.cost}" in full and f"buyer value {game.deal.value}" in full
    assert "█" in full and "[bold]x[/]" in full and "bluff" in full
    seat = text_of(game, "seller")
    assert f"your cost is {game.deal.cost}" in seat
    assert "buyer value" not in seat and "bluff" not in seat
    assert game.definition.view.score_series(game) == {"seller": [70.0, 60.0], "buyer": [30.0]}
    assert game.definition.view.describe_action(game, "seller", offer(60, "hi")) == 'offer 60 "hi"'
