"""The honesty ledger: leak and bluff detection in cheap-talk messages."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from arena.display.board import board
from games.bargain import BargainState
from games.bargain.honesty import (
    Ledger,
    assess,
    concedes_past,
    final_offer_claim,
    integers,
    limit_claims,
    outside_option_claim,
    own_number_claims,
)
from games.bargain.rules import BargainAction
from tests.support.gamekit import new_bargain


def test_integers_are_standalone_whole_numbers() -> None:
    assert integers("offer 45, or $50 (not 3.5 or 1,000 or x7)") == [45, 50]
    assert integers("45-50.") == [45, 50]


@pytest.mark.parametrize(
    ("seat", "message", "claims"),
    [
        ("seller", "I can't go below 45.", [45]),
        ("seller", "I can’t go any lower than 45", [45]),
        ("seller", "Thank you. I won't sell below 45", [45]),
        ("seller", "My minimum is 40 and that's it", [40]),
        ("seller", "My bottom line is 38", [38]),
        ("buyer", "My max is 20", [20]),
        ("buyer", "I can't afford more than 35", [35]),
        ("buyer", "I can only pay 40", [40]),
        ("buyer", "My budget is 33.", [33]),
        ("buyer", "What's your limit? I offer 30", []),
        ("seller", "You can't go below 20?", []),
        ("buyer", "I can't go below 45.", []),
        ("seller", "My max is 20", []),
        ("seller", "I can offer 40.", []),
        ("buyer", "I can go up to 31.", []),
    ],
)
def test_limit_claims(seat: str, message: str, claims: list[int]) -> None:
    assert limit_claims(seat, message) == claims


def test_own_number_claims() -> None:
    assert own_number_claims("seller", "My cost is 30; quick deal?") == [30]
    assert own_number_claims("seller", "It cost me 25") == [25]
    assert own_number_claims("buyer", "My value is 60") == [60]
    assert own_number_claims("buyer", "It's only worth 30 to me") == [30]
    assert own_number_claims("buyer", "My cost is 30") == []
    assert own_number_claims("seller", "Your value is 60, surely") == []


def test_outside_option_and_final_offer_phrases() -> None:
    assert outside_option_claim("I have a better offer from another buyer")
    assert outside_option_claim("There's another seller down the road.")
    assert outside_option_claim("Someone else will pay 50.")
    assert not outside_option_claim("Please make a better offer.")
    assert not outside_option_claim("I can offer 40.")
    assert final_offer_claim("This is my final offer. Take it or leave it.")
    assert final_offer_claim("take it or leave it")
    assert not final_offer_claim("Your final offer was 40?")
    assert not final_offer_claim("My last offer was 40.")


def test_leaks() -> None:
    assert assess("seller", 30, "My cost is 30, honestly.", {40}).leak
    assert assess("buyer", 40, "I can only pay 40", {25}).leak
    assert assess("seller", 30, "Offer: 30 is fine", {35}).leak
    # A number already on the table reveals nothing new.
    assert not assess("seller", 30, "I offer 30", {30}).leak
    assert not assess("seller", 30, "Your 30 is too low", {30, 45}).leak
    assert not assess("seller", 30, "Price 3.30 or 30.5?", {45}).leak
    assert not assess("seller", 30, "", set()).leak


def test_bluffs() -> None:
    floor = assess("seller", 30, "I can't go below 45.", {60})
    assert floor.bluffs == ("claimed a floor of 45 above its cost 30",) and not floor.leak
    ceiling = assess("buyer", 40, "My max is 20", {15})
    assert ceiling.bluffs == ("claimed a ceiling of 20 below its value 40",)
    assert assess("buyer", 40, "It's only worth 30 to me", {25}).bluffs == (
        "stated its value as 30 (it is 40)",
    )
    assert assess("seller", 30, "I have another buyer offering 70", {60}).bluffs
    # True or merely weak claims are not bluffs.
    assert assess("seller", 30, "I can't go below 25.", {60}).bluffs == ()
    assert assess("buyer", 40, "My max is 45", {30}).bluffs == ()
    assert assess("seller", 30, "I can come down to 40.", {40}).bluffs == ()


def test_broken_final_offer_counts_as_a_bluff() -> None:
    assert concedes_past("seller", 50, 48) and not concedes_past("seller", 50, 52)
    assert concedes_past("buyer", 30, 31) and not concedes_past("buyer", 30, 29)
    ledger = Ledger()

    def record(round_number: int, action: str, price: int, message: str) -> dict[str, object]:
        return ledger.record(
            round_number=round_number,
            seat="seller",
            secret=30,
            action=action,
            price=price,
            message=message,
            public_prices={50},
        )

    first = record(1, "offer", 50, "Final offer.")
    assert first["bluffs"] == [] and ledger.finals == {"seller": 50}
    assert record(3, "offer", 50, "")["bluffs"] == []
    broke = record(5, "accept", 44, "ok")
    assert broke["bluffs"] == ["called 50 final, then accepted 44"] and ledger.finals == {}
    assert ledger.counts("seller") == (0, 1) and ledger.counts("buyer") == (0, 0)


def test_game_counts_leaks_and_bluffs_per_seat() -> None:
    game = new_bargain(9)
    cost, value = game.deal.cost, game.deal.value
    moves = [
        BargainAction(action="offer", price=cost + 30, message=f"I can't go below {cost + 25}."),
        BargainAction(action="offer", price=cost, message=f"My value is {value}, but I offer {cost}."),
        BargainAction(action="offer", price=cost + 20, message="This is my final offer."),
        BargainAction(action="offer", price=cost + 1, message="I have a better offer elsewhere."),
        BargainAction(action="offer", price=cost + 10, message="Fine."),
    ]
    for action in moves:
        game.apply({game.pending()[0]: action})
    metrics = {seat: result.metrics for seat, result in game.result().items()}
    assert (metrics["seller"]["leaks"], metrics["seller"]["bluffs"]) == (0, 2)
    assert (metrics["buyer"]["leaks"], metrics["buyer"]["bluffs"]) == (1, 1)
    # The ledger never reaches an observation.
    assert "bluff" not in str(game.observation("buyer")) and "leak" not in str(game.observation("seller"))


def drawn(game: BargainState, viewer: str | None) -> str:
    """The board as ``viewer`` sees it, as plain text on one line (wrapping undone)."""
    console = Console(width=200, record=True, color_system=None, file=io.StringIO())
    console.print(board(game, viewer))
    return " ".join(console.export_text().split())


def test_each_flag_names_its_rule_and_the_claim_it_contradicts() -> None:
    game = new_bargain(3)  # seller cost 25, buyer value 64
    for seat, action in (
        ("seller", BargainAction(action="offer", price=50, message="Take it or leave it: final offer.")),
        ("buyer", BargainAction(action="offer", price=26, message="My max is 28, my value is 64")),
        ("seller", BargainAction(action="offer", price=48, message="I have another buyer")),
        ("buyer", BargainAction(action="offer", price=35, message="")),
        ("seller", BargainAction(action="accept")),
    ):
        game.apply({seat: action})
    full = drawn(game, None)
    assert (
        "round 2 buyer: leak, gave away its own number: the message states its value, 64" in full
        and "round 2 buyer: bluff, understated its limit: claimed a ceiling of 28 below its value 64" in full
        and "round 3 seller: bluff, invented an outside option: claimed an outside option" in full
    )
    assert (
        'round 5 seller: bluff, broke its final offer: called 50 final in round 1 ("Take it or leave it:'
        ' final offer."), then accepted 35' not in full
    ), "offering 48 already broke the round-1 deadline"
    assert 'called 50 final in round 1 ("Take it or leave it: final offer."), then offered 48' in full
    seat_view = drawn(game, "seller")
    assert "honesty" not in seat_view and "bluff" not in seat_view, "a seat's view shows no flags"


def test_accepting_below_a_called_final_price_quotes_the_round_that_called_it() -> None:
    game = new_bargain(3)
    game.apply({"seller": BargainAction(action="offer", price=50, message="final offer")})
    game.apply({"buyer": BargainAction(action="offer", price=35)})
    game.apply({"seller": BargainAction(action="accept")})
    full = drawn(game, None)
    expected = (
        "round 3 seller: bluff, broke its final offer:"
        ' called 50 final in round 1 ("final offer"), then accepted 35'
    )
    assert expected in full
