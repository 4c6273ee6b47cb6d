"""Who can be rated against whom: connected groups, and tiers inside a group that swept the tiers below.

Two facts about the comparison graph decide what a ratings table may say:

* **Groups.** Ratings compare players joined by games, directly or through others. Each
  connected part of the who-met-whom graph is a *group* with a table of its own; players
  in different groups were never compared, and a player with no finished game is in none.
* **Tiers.** Inside a group, a Bradley-Terry or Plackett-Luce fit has a finite maximum only
  when every player has beaten (or drawn) someone it can be reached from: the "beat" graph
  must be strongly connected (Zermelo; Hunter 2004). Its strongly connected parts are the
  *tiers*. Between two tiers every game went one way: the upper tier won all of them, so
  the data say only "at least so much better". Tiers are listed best first (a topological
  order of the beat graph, ties broken by ``order_key``).

The *reference* tier of a group carries the numbers (rated, centred on 1000); the others
are stated as one-sided bounds against it (see :mod:`arena.tournament.ratings`). It is the
largest tier, or among equals the one nearest the middle of the order, so a clean sweep of
three players is read as "best >= middle + x, worst <= middle - y".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Group:
    """One connected group: its tiers best first (player indices, each tier in index order)."""

    tiers: tuple[tuple[int, ...], ...]
    reference: int
    above: BoolArray
    """``above[t, u]``: every game between tier ``t`` and tier ``u`` was won by ``t`` (a direct link)."""

    @property
    def players(self) -> tuple[int, ...]:
        """The group's players, tier by tier."""
        return tuple(i for tier in self.tiers for i in tier)


def closure(edges: BoolArray) -> BoolArray:
    """``reach[i, j]``: a path of ``edges`` leads from i to j (every node reaches itself)."""
    reach = edges | np.eye(len(edges), dtype=bool)
    while True:
        step = reach | ((reach.astype(np.int64) @ reach.astype(np.int64)) > 0)
        if np.array_equal(step, reach):
            return reach
        reach = step


def _parts(edges: BoolArray, members: list[int]) -> list[list[int]]:
    """Strongly connected parts of ``edges`` restricted to ``members`` (each in index order)."""
    sub = edges[np.ix_(members, members)]
    reach = closure(sub)
    mutual = reach & reach.T
    seen: set[int] = set()
    parts: list[list[int]] = []
    for i in range(len(members)):
        if i in seen:
            continue
        part = [j for j in range(len(members)) if mutual[i, j]]
        seen.update(part)
        parts.append([members[j] for j in part])
    return parts


def groups(wins: npt.NDArray[np.float64], order_key: npt.NDArray[np.float64]) -> list[Group]:
    """The groups of the pairwise totals ``wins[a, b]`` (a's wins over b, ties half), largest first.

    Players with no games at all are in no group.
    """
    played = (wins + wins.T) > 0
    np.fill_diagonal(played, False)
    beat = (wins > 0) & played
    found: list[Group] = []
    for members in _parts(played, [i for i in range(len(wins)) if played[i].any()]):
        tiers = _ordered_tiers(_parts(beat, members), beat, order_key)
        above = np.array([[bool(beat[np.ix_(t, u)].any()) and t != u for u in tiers] for t in tiers])
        found.append(Group(tuple(tuple(t) for t in tiers), _reference(tiers), above.reshape(len(tiers), -1)))
    return sorted(found, key=lambda g: (-len(g.players), min(g.players)))


def _ordered_tiers(
    tiers: list[list[int]], beat: BoolArray, order_key: npt.NDArray[np.float64]
) -> list[list[int]]:
    """Kahn's topological sort of the tiers by the beat graph; among ready tiers the highest ``order_key``."""
    waiting = {
        i: {j for j, other in enumerate(tiers) if j != i and beat[np.ix_(other, tier)].any()}
        for i, tier in enumerate(tiers)
    }
    ordered: list[list[int]] = []
    while waiting:
        ready = [i for i, above in waiting.items() if not above]
        best = max(ready, key=lambda i: (max(order_key[j] for j in tiers[i]), -min(tiers[i])))
        ordered.append(tiers[best])
        del waiting[best]
        for above in waiting.values():
            above.discard(best)
    return ordered


def _reference(tiers: list[list[int]]) -> int:
    middle = (len(tiers) - 1) / 2
    return min(range(len(tiers)), key=lambda i: (-len(tiers[i]), abs(i - middle), i))
