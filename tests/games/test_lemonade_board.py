"""What a person reads of lemonade: demand and lost sales on the board, the demand formula with the rules."""

from __future__ import annotations

from games.lemonade import DEFINITION as LEMONADE
from games.lemonade.rules import LemonadeDecision
from tests.support.gamekit import new_lemonade, prompt_of, render_text, rules_of


def test_the_board_shows_demand_and_the_sales_lost_to_too_few_cups() -> None:
    game = new_lemonade(42, days=3, stands=1)
    game.apply({"a": LemonadeDecision(price=1.0, produce=3, promotion="none")})
    record = game.stands["a"].records[-1]
    assert record["demand"] > 3 and record["sold"] == 3
    shown = render_text(game, "a")
    header = next(line for line in shown.splitlines() if line.split()[:1] == ["day"])
    assert "a demand" in header.split("  "), "a column of the day table"
    assert f"a day 1: sold 3 of 3 made, demand {record['demand']}" in shown
    assert f"{record['demand'] - 3} cups short (lost sales)" in shown


def test_cups_left_over_are_said_to_be_thrown_away() -> None:
    game = new_lemonade(42, days=3, stands=1)
    game.apply({"a": LemonadeDecision(price=6.0, produce=20, promotion="none")})
    record = game.stands["a"].records[-1]
    assert record["sold"] < 20
    assert f"{20 - record['sold']} cups thrown away" in render_text(game, "a")


def test_the_demand_formula_is_told_to_people_not_to_models() -> None:
    game = new_lemonade(42, days=3)
    note = LEMONADE.rules_notes
    assert "traffic x weather factor" in note and "price factor = 1 - (price seen - 3.0) x 0.4" in note
    assert "-5 to +5" in note and "sunny 1.3" in note
    assert "price factor" not in rules_of(game, "a") and "price factor" not in prompt_of(game, "a")
