"""Cattle Trade's rulebook cases, each played through the state's own ``apply`` and checks."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from games.cattle import DEFINITION, CattleState
from games.cattle.actions import BidAction, OfferAction, PayAction, ResponseAction, SaleAction, TurnAction
from games.cattle.cards import parse_cards, set_score, smallest_overpay, total
from games.cattle.table import Table


def table_state(
    *,
    deck: list[str],
    money: dict[str, list[int]] | None = None,
    animals: dict[str, dict[str, int]] | None = None,
    players: int = 3,
    auction: str = "canonical",
    turn_cap: int = 400,
    bank: list[int] | None = None,
) -> CattleState:
    """A state whose table is set by hand (the deck's top card is its last), then started."""
    state = DEFINITION.create(0, {"players": players, "auction": auction, "turn_cap": turn_cap})
    seats = list(state.seats)
    state.table = Table(
        seats=seats,
        auction_mode=auction,
        turn_cap=turn_cap,
        keep_notes=False,
        deck=list(deck),
        bank=sorted(bank if bank is not None else [50] * 5 + [100] * 5 + [200] * 5 + [500] * 5),
        money={seat: sorted((money or {}).get(seat, [0, 0, 10, 10, 10, 10, 50])) for seat in seats},
        animals={seat: dict((animals or {}).get(seat, {})) for seat in seats},
        private={seat: [] for seat in seats},
        notes={seat: "" for seat in seats},
    )
    state.table.start_turn()
    return state


def act(state: CattleState, **actions: BaseModel) -> None:
    """Apply one step after checking every action is legal."""
    for seat, action in actions.items():
        assert state.validate(seat, action) is None, state.validate(seat, action)
    state.apply(dict(actions))


def bid(amount: int | None) -> BidAction:
    return BidAction(action="bid", amount=amount) if amount is not None else BidAction(action="pass")


PASS = BidAction(action="pass")


def kinds(state: CattleState) -> list[str]:
    return [event["kind"] for event in state.table.history]


def test_the_rulebook_scoring_example() -> None:
    assert set_score({"pig": 4, "dog": 4, "rooster": 4, "cow": 2}) == (650 + 160 + 10) * 3 == 2460
    assert set_score({"horse": 3}) == 0


def test_every_player_starts_with_90_and_the_bank_holds_the_rest() -> None:
    for players in (3, 4, 5):
        state = DEFINITION.create(1, {"players": players})
        table = state.table
        assert all(total(table.money[s]) == 90 and len(table.money[s]) == 7 for s in table.seats)
        assert table.money_in_play() == 4700 and table.money_cards_in_play() == 55
        assert len(table.deck) + 1 == 40  # the first card is on auction at once: nothing to trade


def test_donkeys_pay_everyone_50_100_200_500_before_their_auction() -> None:
    state = table_state(deck=["donkey"] * 4)
    received: list[int] = []
    for _ in range(4):
        if state.table.phase == "turn":  # holding a donkey someone else holds: a trade is open
            act(state, **{state.pending()[0]: TurnAction(move="auction")})
        assert state.table.phase == "bidding"
        received.append(total(state.table.money["p2"]) - 90 - sum(received))
        act(state, **{seat: PASS for seat in state.pending()})
    assert received == [50, 100, 200, 500]
    donkeys = [e["amount"] for e in state.table.history if e["kind"] == "donkey"]
    assert donkeys == [50, 100, 200, 500]
    # Each payout came before that donkey's auction.
    assert kinds(state)[:2] == ["donkey", "auction"]


def test_no_bid_gives_the_auctioneer_the_card_free() -> None:
    state = table_state(deck=["goat", "cow"])
    assert state.pending() == ["p2", "p3"]
    act(state, p2=PASS, p3=PASS)
    assert state.table.animals["p1"] == {"cow": 1}
    assert "free" in kinds(state)
    assert total(state.table.money["p1"]) == 90


def test_the_auctioneer_sells_and_the_high_bidder_pays() -> None:
    state = table_state(deck=["goat", "cow"])
    act(state, p2=bid(30), p3=bid(20))
    act(state, p3=bid(40))  # the standing high bidder sits out the next call round
    assert state.pending() == ["p2"]
    act(state, p2=PASS)
    assert state.table.phase == "sale" and state.pending() == ["p1"]
    act(state, p1=SaleAction(action="sell"))
    assert state.pending() == ["p3"]
    act(state, p3=PayAction(cards="auto"))
    assert state.table.animals["p3"] == {"cow": 1}
    assert total(state.table.money["p1"]) == 130 and total(state.table.money["p3"]) == 50


def test_the_buy_right_pays_the_bidder_and_is_refused_without_the_money() -> None:
    state = table_state(deck=["goat", "cow"], money={"p1": [0, 10, 50]})
    act(state, p2=bid(70), p3=PASS)
    act(state, p3=PASS)
    assert state.validate("p1", SaleAction(action="buy")) == "buying needs 70 and you hold 60"
    state = table_state(deck=["goat", "cow"])
    act(state, p2=bid(70), p3=PASS)
    act(state, p3=PASS)
    act(state, p1=SaleAction(action="buy"))
    assert state.pending() == ["p1"]
    act(state, p1=PayAction(cards="10 10 50"))
    assert state.table.animals["p1"] == {"cow": 1} and state.table.animals["p2"] == {}
    assert total(state.table.money["p2"]) == 160 and total(state.table.money["p1"]) == 20


def test_overpaying_is_legal_and_no_change_is_given() -> None:
    state = table_state(deck=["goat", "cow"], money={"p2": [0, 100]})
    act(state, p2=bid(60), p3=PASS)
    act(state, p3=PASS)
    act(state, p1=SaleAction(action="sell"))
    assert "less than the price" in (state.validate("p2", PayAction(cards="0")) or "")
    assert state.definition.view.caution(state, "p2", PayAction(cards="100")) == (
        "you pay 100 for a price of 60: the 40 over is lost"
    )
    act(state, p2=PayAction(cards="100"))
    assert state.table.money["p2"] == [0] and total(state.table.money["p1"]) == 190
    paid = next(e for e in state.table.history if e["kind"] == "paid")
    assert (paid["kind"], paid["count"], paid["amount"]) == ("paid", 1, 60)
    assert state.table.private["p1"][-1]["cards"] == [100]


def test_an_insolvent_winner_shows_their_money_and_the_auction_is_held_again_without_them() -> None:
    state = table_state(deck=["goat", "cow"], money={"p2": [0, 10]})
    act(state, p2=bid(200), p3=bid(20))
    act(state, p3=PASS)
    act(state, p1=SaleAction(action="sell"))
    insolvent = state.table.history[-1]
    assert (insolvent["kind"], insolvent["seat"], insolvent["cards"]) == ("insolvent", "p2", [0, 10])
    assert state.table.phase == "bidding" and state.pending() == ["p3"]
    act(state, p3=bid(30))  # alone now: the round closes with nobody to outbid them
    act(state, p1=SaleAction(action="sell"))
    act(state, p3=PayAction(cards="auto"))
    assert state.table.animals["p3"] == {"cow": 1} and total(state.table.money["p2"]) == 10


def test_a_challenge_accepted_hands_over_the_stake_for_the_offer() -> None:
    state = table_state(deck=["goat"], animals={"p1": {"cow": 1}, "p2": {"cow": 1}})
    assert state.pending() == ["p1"]
    act(state, p1=TurnAction(move="challenge", target="p2", species="cow", cards="0 0 10"))
    assert state.table.history[-1]["count"] == 3 and state.pending() == ["p2"]
    act(state, p2=ResponseAction(action="accept"))
    assert state.table.animals["p1"] == {"cow": 2} and state.table.animals["p2"] == {}
    assert total(state.table.money["p2"]) == 100 and len(state.table.money["p2"]) == 10


def test_a_counter_that_wins_takes_the_stake_and_the_offers_are_exchanged() -> None:
    state = table_state(deck=["goat"], animals={"p1": {"cow": 1}, "p2": {"cow": 1}})
    act(state, p1=TurnAction(move="challenge", target="p2", species="cow", cards="0 10"))
    act(state, p2=ResponseAction(action="counter", cards="50"))
    assert state.table.animals["p2"] == {"cow": 2} and state.table.animals["p1"] == {}
    assert total(state.table.money["p1"]) == 90 - 10 + 50 and total(state.table.money["p2"]) == 90 - 50 + 10
    offers = state.table.private["p1"][-1]
    assert (offers["kind"], offers["cards"], offers["their_cards"]) == ("offers", [0, 10], [50])
    assert not any(e["kind"] == "offers" for e in state.table.private["p3"])


def test_a_tie_means_both_offer_again_and_a_second_tie_gives_the_challenger_the_stake_free() -> None:
    state = table_state(deck=["goat"], animals={"p1": {"cow": 1}, "p2": {"cow": 1}})
    act(state, p1=TurnAction(move="challenge", target="p2", species="cow", cards="10"))
    act(state, p2=ResponseAction(action="counter", cards="10"))
    assert state.table.phase == "reoffer" and state.pending() == ["p1", "p2"]
    assert total(state.table.money["p1"]) == total(state.table.money["p2"]) == 90  # cards back
    act(state, p1=OfferAction(cards="0 10"), p2=OfferAction(cards="10 0"))
    assert state.table.animals["p1"] == {"cow": 2} and state.table.animals["p2"] == {}
    assert state.table.money["p1"] == state.table.money["p2"] == [0, 0, 10, 10, 10, 10, 50]
    assert next(e for e in state.table.history if e["kind"] == "trade")["free"] is True


def test_a_tie_then_a_higher_offer_wins() -> None:
    state = table_state(deck=["goat"], animals={"p1": {"cow": 1}, "p2": {"cow": 1}})
    act(state, p1=TurnAction(move="challenge", target="p2", species="cow", cards="10"))
    act(state, p2=ResponseAction(action="counter", cards="10"))
    act(state, p1=OfferAction(cards="10"), p2=OfferAction(cards="50"))
    assert state.table.animals["p2"] == {"cow": 2}


def test_two_for_two_when_both_hold_two() -> None:
    state = table_state(deck=["goat"], animals={"p1": {"cow": 2, "dog": 1}, "p2": {"cow": 2, "dog": 3}})
    open_ = {(t, s): k for t, s, k in state.table.challenges_open("p1")}
    assert open_ == {("p2", "cow"): 2, ("p2", "dog"): 1}
    act(state, p1=TurnAction(move="challenge", target="p2", species="cow", cards="50"))
    act(state, p2=ResponseAction(action="accept"))
    assert state.table.animals["p1"]["cow"] == 4 and "cow" not in state.table.animals["p2"]


def test_a_complete_set_cannot_be_challenged() -> None:
    state = table_state(deck=["goat"], animals={"p1": {"cow": 1}, "p2": {"horse": 4}})
    assert state.table.challenges_open("p1") == []
    problem = state.table.turn_problem("p1", "challenge", "p2", "horse", "10")
    assert problem == "p2's horse are a complete set and cannot be challenged"


def test_once_the_deck_is_empty_only_challenges_remain_and_who_cannot_challenge_is_skipped() -> None:
    animals = {"p1": {"horse": 4}, "p2": {"cow": 2, "dog": 4, "goat": 4}, "p3": {"cow": 2}}
    state = table_state(deck=[], animals=animals)
    # p1 holds only a complete set: skipped; p2 moves.
    assert state.pending() == ["p2"]
    assert (
        state.validate("p2", TurnAction(move="auction")) == "the deck is empty: only trade challenges remain"
    )
    act(state, p2=TurnAction(move="challenge", target="p3", species="cow", cards="50"))
    act(state, p3=ResponseAction(action="accept"))
    # Every species is nobody's... no: only horse, dog, goat, cow are sets; the rest never came.
    assert state.table.phase == "over" and state.table.end_reason == "stuck"


def test_the_game_ends_when_every_species_is_a_complete_set() -> None:
    species = ("rooster", "goose", "cat", "dog", "sheep", "goat", "donkey", "pig", "cow", "horse")
    animals: dict[str, dict[str, int]] = {
        "p1": {s: 4 for s in species[:5]},
        "p2": {s: 4 for s in species[5:9]},
    }
    animals["p2"]["horse"] = 3
    animals["p3"] = {"horse": 1}
    state = table_state(deck=[], animals=animals)
    assert state.pending() == ["p2"]  # p1 holds only complete sets: skipped
    act(state, p2=TurnAction(move="challenge", target="p3", species="horse", cards="50"))
    act(state, p3=ResponseAction(action="accept"))
    assert state.over() and state.table.end_reason == "complete"
    assert state.returns() == {
        "p1": (10 + 40 + 90 + 160 + 250) * 5,
        "p2": (350 + 500 + 650 + 800 + 1000) * 5,
        "p3": 0,
    }


def test_the_turn_cap_ends_a_stalled_game_as_its_own_end_reason() -> None:
    state = table_state(deck=["goat"] * 40, turn_cap=10, bank=[])
    while not state.over():
        if state.table.phase == "turn":
            act(state, **{state.pending()[0]: TurnAction(move="auction")})
        else:
            act(state, **{seat: PASS for seat in state.pending()})
    assert state.table.end_reason == "turn_cap" and state.table.turn == 11
    assert state.result()["p1"].metrics["turn_capped"] is True


def test_sealed_bids_are_hidden_until_the_auction_closes_and_the_highest_wins() -> None:
    state = table_state(deck=["goat", "cow"], auction="sealed", players=4)
    assert state.pending() == ["p2", "p3", "p4"]
    act(state, p2=bid(40), p3=bid(60), p4=bid(60))
    assert state.table.auction is not None and state.table.auction.high_bidder == "p3"  # first clockwise
    assert [e["amount"] for e in state.table.history if e["kind"] == "bid"] == [40, 60, 60]


def test_sequential_bidding_goes_seat_by_seat_and_a_bid_reopens_the_round() -> None:
    state = table_state(deck=["goat", "cow"], auction="sequential", players=4)
    order = []
    for seat, action in (("p2", PASS), ("p3", bid(20)), ("p4", PASS), ("p2", bid(30)), ("p3", PASS)):
        order.append(state.pending())
        act(state, **{seat: action})
    assert order == [["p2"], ["p3"], ["p4"], ["p2"], ["p3"]]
    assert state.pending() == ["p4"]  # p4 passed before p2's bid reopened the round
    act(state, p4=PASS)
    assert state.table.phase == "sale" and state.table.auction is not None
    assert state.table.auction.high_bidder == "p2" and state.table.auction.high_bid == 30


@pytest.mark.parametrize(
    ("text", "cards"), [("10 10 50", [10, 10, 50]), ("[0, 10]", [0, 10]), ("50+10", [10, 50]), ("0", [0])]
)
def test_cards_are_read_from_text(text: str, cards: list[int]) -> None:
    assert parse_cards(text) == cards


@pytest.mark.parametrize("text", ["", "20", "ten", "-10"])
def test_a_text_that_names_no_cards_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_cards(text)


def test_auto_pays_the_smallest_overpay_then_the_fewest_cards() -> None:
    assert smallest_overpay([0, 10, 10, 10, 50, 100], 60) == [10, 50]
    assert smallest_overpay([10, 10, 10, 10, 10, 10, 50], 60) == [10, 50]
    assert smallest_overpay([100, 200], 60) == [100]
    assert smallest_overpay([0, 10], 60) is None


def test_fallbacks_are_legal_in_every_moment() -> None:
    seen: set[str] = set()
    for seed in range(30):
        state = DEFINITION.create(
            seed, {"players": 3 + seed % 3, "auction": ("canonical", "sealed", "sequential")[seed % 3]}
        )
        import random

        rng = random.Random(seed)
        while not state.over():
            actions: dict[str, Any] = {}
            for seat in state.pending():
                fallback = state.fallback(seat)
                assert state.validate(seat, fallback) is None, (state.table.phase, fallback)
                seen.add(state.table.phase)
                actions[seat] = state.sample_action(seat, rng)
            state.apply(actions)
    assert seen >= {"turn", "bidding", "sale", "payment", "response", "reoffer"}
