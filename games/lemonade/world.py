"""The lemonade stand's world layer: weather, temperature, traffic, costs and demand noise.

Every draw comes from generators owned by the world and seeded from the episode seed.
The weather sequence follows the seed document's order of draws (weather, temperature,
traffic, unit cost per day); the demand noise has its own generator so that it is
identical for every stand on the same day.
"""

from __future__ import annotations

import bisect
import itertools
import random
from math import cos, log, sin, sqrt, tau
from typing import Any, NamedTuple

WEATHERS = ("sunny", "cloudy", "rainy")
WEATHER_WEIGHTS = (0.4, 0.4, 0.2)
WEATHER_FACTOR = {"sunny": 1.3, "cloudy": 1.0, "rainy": 0.5}
TEMPERATURES = (22, 35)
"""Lowest and highest temperature, both possible."""
UNIT_COSTS = (1.2, 1.5, 1.8)
NOISE_RANGE = 5


class WorldDay(NamedTuple):
    """One day of the shared world, known to every stand in the morning (noise excepted)."""

    day: int
    weather: str
    temperature: int
    traffic: int
    unit_cost: float
    noise: int

    def public(self) -> dict[str, Any]:
        """The morning forecast a stand sees (everything except the demand noise)."""
        return {
            "day": self.day,
            "weather": self.weather,
            "temperature": self.temperature,
            "traffic": self.traffic,
            "unit_cost": self.unit_cost,
        }


# What the draws in generate_world need, worked out once: choices()' cumulative weights, and
# for each randrange(n) its n and the bits it draws at a time.
_WEATHER_CUM_WEIGHTS = tuple(itertools.accumulate(WEATHER_WEIGHTS))
_WEATHER_TOTAL, _LAST_WEATHER = _WEATHER_CUM_WEIGHTS[-1], len(WEATHERS) - 1
_TEMPERATURE_SPAN = TEMPERATURES[1] - TEMPERATURES[0] + 1
_TEMPERATURE_BITS = _TEMPERATURE_SPAN.bit_length()
_COST_BITS = len(UNIT_COSTS).bit_length()
_NOISE_SPAN = 2 * NOISE_RANGE + 1
_NOISE_BITS = _NOISE_SPAN.bit_length()
_new_tuple = tuple.__new__


def generate_world(seed: int, days: int) -> list[WorldDay]:
    """The seeded sequence of ``days`` world days."""
    world_rng = random.Random(seed)
    noise_rng = random.Random(f"lemonade-noise:{seed}")
    uniform, bits, noise_bits = world_rng.random, world_rng.getrandbits, noise_rng.getrandbits
    spare: float | None = None  # gauss() makes its deviates in pairs and keeps the second for its next call
    world = []
    # Each draw is exactly the commented random call's, written out without its calls and argument
    # checks (a test compares 300 seeds with the random module's calls). randint(a, b) and choice()
    # draw randrange(n), which draws n.bit_length() random bits until they make a number below n.
    for day in range(1, days + 1):
        # choices(WEATHERS, weights=WEATHER_WEIGHTS)[0]
        weather = WEATHERS[bisect.bisect(_WEATHER_CUM_WEIGHTS, uniform() * _WEATHER_TOTAL, 0, _LAST_WEATHER)]
        temperature = bits(_TEMPERATURE_BITS)  # randint(*TEMPERATURES), less the lowest
        while temperature >= _TEMPERATURE_SPAN:
            temperature = bits(_TEMPERATURE_BITS)
        if spare is None:  # gauss(100, 20)
            angle = uniform() * tau
            radius = sqrt(-2.0 * log(1.0 - uniform()))
            deviate, spare = cos(angle) * radius, sin(angle) * radius
        else:
            deviate, spare = spare, None
        traffic = int(100 + deviate * 20)
        cost = bits(_COST_BITS)  # choice(UNIT_COSTS), as an index
        while cost >= len(UNIT_COSTS):
            cost = bits(_COST_BITS)
        noise = noise_bits(_NOISE_BITS)  # randint(-NOISE_RANGE, NOISE_RANGE), plus NOISE_RANGE
        while noise >= _NOISE_SPAN:
            noise = noise_bits(_NOISE_BITS)
        # WorldDay(...) without its Python-level __new__, and traffic at least 30 (max(30, traffic)).
        values = (
            day,
            weather,
            temperature + TEMPERATURES[0],
            traffic if traffic > 30 else 30,
            UNIT_COSTS[cost],
            noise - NOISE_RANGE,
        )
        world.append(_new_tuple(WorldDay, values))
    return world
