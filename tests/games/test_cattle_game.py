"""Cattle Trade as seats see it: observations, prompts, the board, notes, metrics, baselines."""

from __future__ import annotations

import io
import random
import re
from collections import Counter

import pytest
from rich.console import Console

from arena.contract.templates import template_texts
from arena.plugins.games import get_game
from arena.testing import check_secrets
from games.cattle import DEFINITION, CattleState
from games.cattle.actions import NotesAction, PayAction, ResponseAction, SaleAction, TurnAction
from games.cattle.cards import SPECIES
from games.cattle.metrics import ranks
from games.cattle.prompt import FIELDS, event_text
from tests.games.test_cattle_rules import PASS, act, bid, table_state


def random_game(seed: int, options: dict[str, object], steps: int | None = None) -> CattleState:
    state = DEFINITION.create(seed, options)
    rng = random.Random(seed)
    done = 0
    while not state.over() and (steps is None or done < steps):
        state.apply({seat: state.sample_action(seat, rng) for seat in state.pending()})
        done += 1
    return state


def board(state: CattleState, viewer: str | None) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=140, color_system=None).print(state.definition.view.render(state, viewer))
    return buffer.getvalue()


def test_registered_with_3_to_5_seats_and_four_baselines() -> None:
    definition = get_game("cattle")
    assert definition is DEFINITION
    assert definition.default_seats == ("p1", "p2", "p3", "p4")
    assert definition.seats_for({"players": 5}) == ("p1", "p2", "p3", "p4", "p5")
    assert set(definition.baselines) == {"random", "set-racer", "tracker", "cautious"}


def test_no_seat_sees_another_seats_money_late_in_the_game() -> None:
    """The conformance check plays 10 turns; this one probes a whole game every 20 steps."""
    for seed, options in ((4, {"players": 4}), (5, {"players": 5, "auction": "sealed"})):
        state = DEFINITION.create(seed, options)
        rng = random.Random(seed)
        step = 0
        probed = 0
        while not state.over():
            if step % 20 == 0:
                check_secrets(state)
                probed += 1
            state.apply({seat: state.sample_action(seat, rng) for seat in state.pending()})
            step += 1
        check_secrets(state)
        assert probed >= 5 and state.table.end_reason == "complete"


def test_the_observation_holds_own_money_and_only_counts_of_others() -> None:
    state = random_game(2, {}, steps=60)
    seat = "p2"
    observation = state.observation(seat)
    assert observation.your_money == state.table.money[seat]
    assert observation.your_money_total == sum(state.table.money[seat])
    for player in observation.players:
        assert player.money_cards == len(state.table.money[player.seat])
        assert player.animals == state.table.animals[player.seat]
    assert "money" not in {field for p in observation.players for field in p.model_dump()}


def test_the_prompt_states_the_rules_the_moment_and_the_legal_moves() -> None:
    state = table_state(deck=["goat"], animals={"p1": {"cow": 1}, "p2": {"cow": 1}})
    prompt = DEFINITION.prompt_for(state, "p1")
    for text in (
        "(650 + 160 + 10) x 3 = 2,460",
        "0 0 10 10 10 10 50 (= 90)",
        "Your turn: auction the top card of the deck, or challenge a player to a trade.",
        "- challenge p2 for 1 cow (you hold 1, they hold 1)",
        '"move": "auction" or "challenge"',
        "canonical mode",
    ):
        assert text in prompt, text
    assert "Notes." not in prompt
    sealed = DEFINITION.rules(DEFINITION.Options(auction="sealed"), "p1")
    assert "one sealed bid" in sealed and "call rounds" not in sealed


def late_decision(seed: int, phase: str, turn: int) -> CattleState:
    """A random 4-player game at its first ``phase`` decision from ``turn`` on."""
    state = DEFINITION.create(seed, {"players": 4})
    rng = random.Random(seed)
    while not (state.table.phase == phase and state.table.turn >= turn):
        state.apply({seat: state.sample_action(seat, rng) for seat in state.pending()})
    return state


def test_a_late_prompt_shows_whole_turns_of_history_and_the_animals_nobody_owns() -> None:
    state = late_decision(3, "bidding", 30)
    seat = state.pending()[0]
    prompt = DEFINITION.prompt_for(state, seat)
    history = state.observation(seat).history
    hidden = int(re.search(r"History \(oldest first; (\d+) earlier events not shown\)", prompt).group(1))  # type: ignore[union-attr]
    shown = prompt.split("earlier events not shown):\n", 1)[1].split("\nWhat you learned", 1)[0].splitlines()
    assert len(shown) == len(history) - hidden <= 80
    # The cut falls between turns: the first turn shown starts with its auction or challenge.
    assert history[hidden - 1].turn < history[hidden].turn
    assert history[hidden].kind in ("auction", "challenge", "donkey") and shown[0] == event_text(
        history[hidden]
    )
    unowned = Counter(state.table.deck)
    assert state.table.auction is not None
    unowned[state.table.auction.species] += 1
    listed = ", ".join(f"{species} {unowned[species]}" for species in SPECIES if unowned[species])
    assert f"\nAnimals nobody owns yet (in the deck, or on auction now): {listed}.\n" in prompt


def test_the_buy_right_is_offered_only_to_an_auctioneer_with_the_money() -> None:
    # seed 3, turn 30: p2 holds 10 against a 220 bid; seed 2, turn 2: enough to buy.
    short, rich = late_decision(3, "sale", 30), late_decision(2, "sale", 2)
    for state, can in ((short, False), (rich, True)):
        (seat,) = state.pending()
        move = state.observation(seat).your_move or ""
        assert move.startswith(f"Bidding on your {state.table.auction.species} closed")  # type: ignore[union-attr]
        assert ("or buy it yourself" in move) is can and ("too little to buy" in move) is not can
        assert (state.table.sale_problem("buy") is None) is can


def test_the_prompt_version_covers_the_reply_fields() -> None:
    texts = template_texts(DEFINITION.prompt_version)
    assert texts is not None and FIELDS["notes"] in texts[1] and FIELDS["turn"] in texts[1]


def test_the_board_shows_own_money_to_its_seat_and_every_hand_to_the_full_view() -> None:
    state = table_state(
        deck=["goat"], animals={"p1": {"cow": 1}, "p2": {"cow": 3}}, money={"p2": [0, 100, 200]}
    )
    seat_view = board(state, "p1")
    assert "0 0 10 10 10 10 50 = 90" in seat_view and "3 cards" in seat_view and "300" not in seat_view
    assert "cow ●●●○" in seat_view
    full = board(state, None)
    assert "0 100 200 = 300" in full
    act(state, p1=TurnAction(move="challenge", target="p2", species="cow", cards="0 50"))
    assert "face down: p1 0 50" in board(state, None)
    assert "face down" not in board(state, "p3") and "0 50" not in board(state, "p2")


def test_actions_are_described_without_hidden_card_values() -> None:
    state = table_state(deck=["goat"], animals={"p1": {"cow": 1}, "p2": {"cow": 1}})
    turn = TurnAction(move="challenge", target="p2", species="cow", cards="0 0 50")
    assert DEFINITION.view.describe_action(state, "p1", turn) == "challenge p2 for cow with 3 cards"
    counter = ResponseAction(action="counter", cards="10")
    assert DEFINITION.view.describe_action(state, "p2", counter) == "counter with 1 card"


def test_notes_are_asked_after_each_own_turn_and_shown_on_later_turns() -> None:
    state = DEFINITION.create(3, {"players": 3, "notes": True})
    rng = random.Random(3)
    while state.table.phase != "notes":
        state.apply({seat: state.sample_action(seat, rng) for seat in state.pending()})
    (writer,) = state.pending()
    assert writer == state.table.active_seat
    act(state, **{writer: NotesAction(notes="p2 bids high on cows")})
    assert state.observation(writer).notes == "p2 bids high on cows"
    assert "Your notes: p2 bids high on cows" in DEFINITION.prompt_for(state, writer)
    other = next(seat for seat in state.seats if seat != writer)
    assert "p2 bids high on cows" not in DEFINITION.prompt_for(state, other)
    assert "Notes. After each of your turns" in DEFINITION.rules(state.options, writer)


def test_ranks_share_equal_scores() -> None:
    assert ranks({"p1": 100, "p2": 100, "p3": 40}) == {"p1": 1, "p2": 1, "p3": 3}


def test_metrics_of_a_played_auction_and_trade() -> None:
    state = table_state(deck=["goat", "goat", "cow"], animals={"p2": {"dog": 1}, "p3": {"dog": 1}})
    # p1 auctions the cow; p2 wins it at 80.
    act(state, p2=bid(80), p3=PASS)
    act(state, p3=PASS)
    act(state, p1=SaleAction(action="sell"))
    act(state, p2=PayAction(cards="50 10 10 10"))
    # p2's turn: a 0-card bluff against p3's dog, which p3 accepts.
    act(state, p2=TurnAction(move="challenge", target="p3", species="dog", cards="0"))
    act(state, p3=ResponseAction(action="accept"))
    metrics = state.result()["p2"].metrics
    assert metrics["auctions_won"] == 1
    assert metrics["bid_aggressiveness_early"] == round(80 / (800 / 4), 4)
    assert metrics["bid_aggressiveness_late"] is None
    assert metrics["money_paid"] == 80 + 0
    assert metrics["bluff_rate"] == 1.0 and metrics["bluff_success"] == 1.0
    assert metrics["capital_efficiency"] == 0.0  # no complete set yet
    assert state.result()["p1"].metrics["buy_right_rate"] == 0.0
    assert (
        state.result()["p3"].metrics["offers_made"] == 0
        and state.result()["p3"].metrics["bluff_rate"] is None
    )


@pytest.mark.parametrize("width", [76, 96, 156])
def test_the_board_fits_its_width_with_five_players_and_long_hands(width: int) -> None:
    state = random_game(1, {"players": 5}, steps=150)
    for viewer in (None, "p1"):
        buffer = io.StringIO()
        Console(file=buffer, width=width, color_system=None).print(DEFINITION.view.render(state, viewer))
        lines = buffer.getvalue().splitlines()
        assert max(map(len, lines)) <= width
        for seat in state.seats:
            for species, count in state.table.animals[seat].items():
                piece = f"{species} " + "●" * count + "○" * (4 - count)
                assert any(piece in line for line in lines), (width, seat, piece)  # never split
        rows = [line for line in lines if re.match(r"(▶ )?p\d", line)]
        assert len(rows) == 5, "one line per player for its name, money and score"


def test_the_tracker_beats_set_racer_and_random_by_a_clear_margin() -> None:
    """Over the golden result set (80 four-seat games, each baseline in every seat; the golden test
    proves today's play gives exactly these rows): wins and mean scores."""
    from collections import Counter

    from tests.golden.golden import load, results_path

    rows = load(results_path("cattle_4"))["rows"]
    wins: Counter[str] = Counter()
    scores: dict[str, list[float]] = {}
    for row in rows:
        for seat, spec in row["seats"].items():
            wins[spec.removeprefix("baseline:")] += row["metrics"][seat]["win"]
            scores.setdefault(spec.removeprefix("baseline:"), []).append(row["scores"][seat])
    assert len(rows) == 80
    assert wins["tracker"] >= 2 * wins["set-racer"] and wins["tracker"] >= 3 * wins["random"]
    mean = {name: sum(values) / len(values) for name, values in scores.items()}
    assert mean["tracker"] > 1.5 * mean["set-racer"] > 1.5 * mean["random"]
