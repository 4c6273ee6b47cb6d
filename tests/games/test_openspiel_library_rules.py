"""Catalogue games outside the curated set: rules built from what the library states (issue 47.3)."""

from __future__ import annotations

from arena.plugins.games import get_game


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
