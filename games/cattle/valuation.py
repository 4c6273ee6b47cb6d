"""What one more animal is worth to a player: its marginal effect on the multiplied score.

The score multiplies (sum of complete sets' values) by (number of complete sets), so a card's
worth depends on what else the player holds. Each species held ``k`` times is counted as
completing with the chance ``COMPLETION[k]`` (a set is finished by auctions and trades; more
cards held means fewer to win), and the expected score is read as (expected set value) x
(expected number of sets). The tracker baseline bids from this value and the overbid metric
compares prices with it.
"""

from __future__ import annotations

from games.cattle.cards import SET_SIZE, SET_VALUE

COMPLETION: tuple[float, ...] = (0.0, 0.2, 0.4, 0.7, 1.0)
"""Chance that a species held 0, 1, 2, 3 or 4 times ends as the player's complete set."""


def expected_score(animals: dict[str, int]) -> float:
    """The expected final score of a player holding ``animals``."""
    chances = {species: COMPLETION[min(count, SET_SIZE)] for species, count in animals.items()}
    value = sum(SET_VALUE[species] * chance for species, chance in chances.items())
    return value * sum(chances.values())


def marginal_value(animals: dict[str, int], species: str, count: int = 1) -> float:
    """How much ``count`` more ``species`` raise the expected score of a player holding ``animals``."""
    after = dict(animals)
    after[species] = min(SET_SIZE, after.get(species, 0) + count)
    return expected_score(after) - expected_score(animals)
