"""Random Cattle Trade games: money and animals conserved at every step, every game ends, and
the same seed gives the same game. (``bench/cattle_random.py`` plays 10,000 the same way.)"""

from __future__ import annotations

import random

import pytest

from games.cattle import DEFINITION
from games.cattle.sweep import MODES, sweep


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("auction", MODES)
def test_random_games_conserve_money_and_animals_and_end(players: int, auction: str) -> None:
    result = sweep(players, auction, range(40))
    assert result.problems == []
    assert result.games == 40 and sum(result.end_reasons.values()) == 40
    assert "unfinished" not in result.end_reasons


def test_a_broken_rule_is_caught_by_the_sweep_check() -> None:
    state = DEFINITION.create(3, {})
    assert state.table.invariant_problem() is None
    state.table.money["p1"].append(10)
    assert state.table.invariant_problem() == "money in play is 4710, not 4700"


def test_the_same_seed_and_moves_give_the_same_game() -> None:
    def game(seed: int) -> dict[str, object]:
        state = DEFINITION.create(seed, {"players": 5, "auction": "sequential"})
        rng = random.Random(seed)
        while not state.over():
            state.apply({seat: state.sample_action(seat, rng) for seat in state.pending()})
        return state.to_json()

    assert game(21) == game(21)
    assert game(21) != game(22)
    first = DEFINITION.create(21, {}).table.deck
    assert first == DEFINITION.create(21, {}).table.deck != DEFINITION.create(22, {}).table.deck
