"""The bargain's world layer: one seeded draw of the seller's cost and the buyer's value.

The draw follows the seed document's order: ``cost = randint(10, 50)``, then
``value = cost + randint(5, 40)``, both from a generator seeded with the episode seed and
owned by the game (never the global ``random``). A zone of possible agreement therefore
always exists and is 5 to 40 wide.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

COST_MIN = 10
COST_MAX = 50
MARGIN_MIN = 5
MARGIN_MAX = 40


@dataclass(frozen=True, slots=True)
class Deal:
    """The two private numbers of one negotiation."""

    cost: int
    value: int

    @property
    def surplus(self) -> int:
        """The available surplus ``value - cost`` (what a deal creates, at any price)."""
        return self.value - self.cost


def draw_deal(seed: int) -> Deal:
    """The seller's cost and the buyer's value for ``seed``."""
    rng = random.Random(seed)
    cost = rng.randint(COST_MIN, COST_MAX)
    value = cost + rng.randint(MARGIN_MIN, MARGIN_MAX)
    return Deal(cost, value)
