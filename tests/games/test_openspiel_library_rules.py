"""Catalogue games outside the curated set: rules built from what the library states (issue 47.3)."""

from __future__ import annotations

import random

from arena.engine.runner import decision_request
from arena.plugins.games import get_game
from games.openspiel_catalogue.prompt import HISTORY_CHAR_BUDGET, fitted_history


def rules(game: str, seat: str) -> str:
    definition = get_game(game)
    return definition.rules(definition.create(0, {}).options, seat)


def test_a_matrix_games_payoffs_are_in_each_players_rules_from_its_side() -> None:
    row, column = rules("openspiel:matrix_pd", "p0"), rules("openspiel:matrix_pd", "p1")
    assert "- you Defect, they Cooperate: 10, 0" in row and "- you Cooperate, they Defect: 0, 10" in row
    assert "- you Defect, they Cooperate: 10, 0" in column and "- you Defect, they Defect: 1, 1" in column
    assert "general-sum" in row and "players move at the same time" in row


def test_parameters_and_the_game_type_are_stated() -> None:
    text = rules("openspiel:blotto", "p0")
    assert "Parameters: coins=10, fields=3, players=2." in text
    assert "zero-sum" in text and "returns range from -1 to 1" in text


def test_a_long_history_is_cut_from_the_oldest_move_and_the_prompt_says_so() -> None:
    moves = [f"move{i}" for i in range(3000)]
    title, text = fitted_history("Moves so far", moves, budget=100)
    assert len(text) <= 100 and text.endswith("move2999") and "move0," not in text
    kept = text.count(",") + 1
    assert title == f"Moves so far (the oldest {3000 - kept} of 3000 not shown, to fit the prompt)"
    assert fitted_history("Moves so far", [], budget=100) == ("Moves so far", "none yet")


def test_laser_tags_prompt_stays_within_the_history_budget_after_many_moves() -> None:
    definition = get_game("openspiel:laser_tag")
    game = definition.create(0, {})
    rng = random.Random(0)
    for _ in range(400):
        seats = game.pending()
        if not seats:
            break
        game.apply({seat: game.sample_action(seat, rng) for seat in seats})
    seats = game.pending() or game.seats
    prompt = decision_request(game, seats[0], 400).prompt
    assert "not shown, to fit the prompt" in prompt
    assert len(prompt) < HISTORY_CHAR_BUDGET + 2000  # was 25,979 characters
