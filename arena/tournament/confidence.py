"""How sure is the order? For each neighbouring pair: P(order right), and the seeds and dollars to settle it.

For each pair (higher, lower) of neighbours in :class:`ratings.Ratings` (best first):

* ``p_order_right``: the share of bootstrap resamples in which ``higher`` rates above
  ``lower`` (an exact tie counts half). The resamples draw whole deal seeds, so this is
  how often the order survives a different draw of deals of the same size.
* ``diff`` is the point rating difference and ``se`` the standard deviation of the
  difference over the resamples. The standard error of a mean over seeds shrinks as
  ``1 / sqrt(n)``, so with ``n`` seeds it would be ``se * sqrt(n_now / n)``; the pair is
  separated at 95% once ``diff >= 1.96 * se(n)``, i.e. at
  ``n = n_now * (1.96 * se / diff) ** 2`` seeds. ``more_seeds`` is that minus ``n_now``,
  rounded up. ``status`` is ``"separated"`` when ``diff >= 1.96 * se`` already (0 more),
  ``"not_separable"`` when ``diff`` is about 0 against its noise (more than
  ``max_factor`` times the seeds played would be needed; ``more_seeds`` is then ``None``),
  else ``"more_seeds"``. This assumes the gap stays what it is now; a gap measured small
  and noisy may well shrink, so read it as an order of magnitude. At that many seeds the
  expected gap sits right on the 95% line, so even with the true gap a fresh run would
  separate the pair only about half the time; ``power=0.8`` asks for the seeds that would
  separate it 4 times in 5, ``n_now * ((1.96 + 0.84) * se / diff) ** 2``, about twice as
  many. In practice the noisy ``diff`` is the larger error (an overestimated gap promises
  too few seeds), which is one more reason to read ``more_seeds`` as a rough size.
* ``"not_comparable"``: no chain of games links the two (a partial tournament), so their
  order means nothing yet: ``p_order_right`` is 0.5 and ``more_seeds`` ``None``.
* ``more_usd``: ``more_seeds`` times the cost of one more deal seed of the whole schedule,
  which is every player's appearances per seed times its observed cost per episode
  (``None`` when a player's cost is unknown). The whole schedule is counted because the
  tournament grows by whole deals, each played by every line-up.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from arena.tournament.ratings import Ratings
from arena.tournament.records import EpisodeRecord

Z95 = 1.959963984540054
MAX_FACTOR = 100.0
SEPARATED = "separated"
MORE_SEEDS = "more_seeds"
NOT_SEPARABLE = "not_separable"
NOT_COMPARABLE = "not_comparable"


@dataclass(frozen=True)
class OrderConfidence:
    """How sure the order of one neighbouring pair is, and what would settle it."""

    higher: str
    lower: str
    diff: float
    se: float
    p_order_right: float
    status: str
    more_seeds: int | None
    more_usd: float | None

    def to_dict(self) -> dict[str, object]:
        """JSON-able form (the report's ``order_confidence`` rows)."""
        return {
            "higher": self.higher,
            "lower": self.lower,
            "diff": self.diff,
            "se": self.se,
            "p_order_right": self.p_order_right,
            "status": self.status,
            "more_seeds": self.more_seeds,
            "more_usd": self.more_usd,
        }


def seeds_needed(
    diff: float, se: float, seeds_now: int, max_factor: float = MAX_FACTOR, power: float = 0.5
) -> tuple[str, int | None]:
    """``(status, more_seeds)`` for a gap ``diff`` with bootstrap error ``se`` over ``seeds_now`` seeds."""
    gap = abs(diff)
    if gap >= Z95 * se and gap > 0:
        return SEPARATED, 0
    z = Z95 + NormalDist().inv_cdf(power)
    if gap == 0 or (z * se / gap) ** 2 > max_factor:
        return NOT_SEPARABLE, None
    needed = seeds_now * (z * se / gap) ** 2
    return MORE_SEEDS, max(1, math.ceil(needed - seeds_now - 1e-9))


def cost_per_seed(records: Sequence[EpisodeRecord], cost_per_episode: Mapping[str, float]) -> float | None:
    """Dollars one more deal seed of the schedule costs: appearances per seed times cost per episode."""
    seeds = len({record.deal_seed for record in records})
    if not seeds:
        return None
    appearances = Counter(player for record in records for player in record.seating.values())
    if any(player not in cost_per_episode for player in appearances):
        return None
    return sum(count * cost_per_episode[player] for player, count in appearances.items()) / seeds


def order_confidence(
    ratings: Ratings,
    *,
    seed_cost_usd: float | None = None,
    max_factor: float = MAX_FACTOR,
    power: float = 0.5,
) -> list[OrderConfidence]:
    """One :class:`OrderConfidence` per neighbouring pair of ``ratings`` (best first).

    ``seed_cost_usd`` is the cost of one more deal seed (see :func:`cost_per_seed`).
    """
    rows: list[OrderConfidence] = []
    for i in range(len(ratings.players) - 1):
        diff = ratings.rating[i] - ratings.rating[i + 1]
        gaps = ratings.samples[:, i] - ratings.samples[:, i + 1]
        se = float(np.std(gaps, ddof=1)) if len(gaps) > 1 else 0.0
        p_right = float(((gaps > 0).sum() + 0.5 * (gaps == 0).sum()) / len(gaps)) if len(gaps) else 0.5
        if ratings.components[i] != ratings.components[i + 1]:
            status, more, p_right = NOT_COMPARABLE, None, 0.5
        else:
            status, more = seeds_needed(diff, se, ratings.deals, max_factor, power)
        usd = more * seed_cost_usd if more is not None and seed_cost_usd is not None else None
        rows.append(
            OrderConfidence(
                higher=ratings.players[i],
                lower=ratings.players[i + 1],
                diff=diff,
                se=se,
                p_order_right=p_right,
                status=status,
                more_seeds=more,
                more_usd=usd,
            )
        )
    return rows
