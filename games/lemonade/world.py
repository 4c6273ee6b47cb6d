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
from typing import Any, NamedTuple

WEATHERS = ("sunny", "cloudy", "rainy")
WEATHER_WEIGHTS = (0.4, 0.4, 0.2)
_WEATHER_CUM_WEIGHTS = tuple(itertools.accumulate(WEATHER_WEIGHTS))
WEATHER_FACTOR = {"sunny": 1.3, "cloudy": 1.0, "rainy": 0.5}
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


def generate_world(seed: int, days: int) -> list[WorldDay]:
    """The seeded sequence of ``days`` world days."""
    world_rng = random.Random(seed)
    noise_rng = random.Random(f"lemonade-noise:{seed}")
    world = []
    # Each draw below is exactly the commented random call's, without its layers of argument checks.
    for day in range(1, days + 1):
        weather = _draw_weather(world_rng)
        temperature = 22 + _below(world_rng, 14)  # randint(22, 35)
        traffic = int(world_rng.gauss(100, 20))
        traffic = traffic if traffic > 30 else 30  # max(30, traffic)
        unit_cost = UNIT_COSTS[_below(world_rng, len(UNIT_COSTS))]  # choice(UNIT_COSTS)
        noise = _below(noise_rng, 2 * NOISE_RANGE + 1) - NOISE_RANGE  # randint(-NOISE_RANGE, NOISE_RANGE)
        world.append(WorldDay(day, weather, temperature, traffic, unit_cost, noise))
    return world


def _draw_weather(rng: random.Random) -> str:
    """The draw ``rng.choices(WEATHERS, weights=WEATHER_WEIGHTS)[0]`` makes, without its per-call setup."""
    total = _WEATHER_CUM_WEIGHTS[-1]
    return WEATHERS[bisect.bisect(_WEATHER_CUM_WEIGHTS, rng.random() * total, 0, len(WEATHERS) - 1)]


def _below(rng: random.Random, n: int) -> int:
    """The draw ``rng.randrange(n)`` makes for ``n > 0``: Python's rejection sampling on ``getrandbits``."""
    bits = n.bit_length()
    value = rng.getrandbits(bits)
    while value >= n:
        value = rng.getrandbits(bits)
    return value
