"""Which episodes a tournament plays: (line-up, deal seed, seating) slots with stable keys.

Deal seeds. Deal ``i`` of a tournament with master seed ``s`` uses :func:`deal_seed` ``(s, i)``,
the same rule as ``arena suite``, so a suite and a tournament with one master seed deal alike.

Line-ups. A line-up gives each seat (in the game's seat order) one player. With ``k`` seats
and ``m`` players:

* ``m >= k``: every ``k``-subset of the players (in the order given), each in its ``k``
  cyclic seat rotations. Two seats: every pair in both seatings (the paired design), so
  each player plays each role against each opponent on every deal. One seat: each player
  alone. Three or more: every player sits in every seat equally often
  (``C(m-1, k-1)`` times per deal) and every pair of players meets equally often.
* ``m < k`` (more seats than players): players fill the seats cyclically
  (``p[(j + o) % m]`` for seat ``j``), for every offset ``o`` and every cyclic seat
  rotation, identical line-ups dropped. This is the orbit of one line-up under relabelling
  and rotation, so every player sits in every seat exactly equally often, and appears in
  the line-ups as evenly as ``k / m`` allows.

Every line-up is played on every deal seed, so all players face the same deals. Slots are
ordered deal-major (all line-ups of deal 0, then deal 1, ...), so a tournament stopped
early holds whole deals, which is what the paired bootstrap in :mod:`ratings` resamples.

Keys. :attr:`Slot.slot_key` is ``"<deal index>:<deal seed>/<seat>=<player>/..."`` with seat
and player percent-quoted (``/``, ``=`` and ``%`` never appear raw), so it is unique for a
(deal, seating) and stable across runs and machines: a database can hold it as a unique key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from urllib.parse import quote


def deal_seed(master_seed: int, index: int) -> int:
    """The episode seed of deal ``index`` under ``master_seed`` (31-bit, stable)."""
    digest = hashlib.sha256(f"arena-suite:{master_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def _quoted(text: str) -> str:
    return quote(text, safe=":@.-_~+")


@dataclass(frozen=True)
class Slot:
    """One episode to play: a line-up (player per seat, in seat order) on one deal seed."""

    seats: tuple[str, ...]
    lineup: tuple[str, ...]
    deal_index: int
    deal_seed: int

    @property
    def seating(self) -> dict[str, str]:
        """Seat -> player."""
        return dict(zip(self.seats, self.lineup, strict=True))

    @property
    def slot_key(self) -> str:
        """Unique, stable key of this (deal, seating) within a tournament."""
        seated = "/".join(f"{_quoted(s)}={_quoted(p)}" for s, p in zip(self.seats, self.lineup, strict=True))
        return f"{self.deal_index}:{self.deal_seed}/{seated}"


def lineups(seats: Sequence[str], players: Sequence[str]) -> list[tuple[str, ...]]:
    """The line-ups played on every deal, by the rule in the module docstring."""
    k, m = len(seats), len(players)
    if k == 0:
        raise ValueError("a game needs at least one seat")
    if len(set(seats)) != k:
        raise ValueError(f"seat names repeat: {', '.join(seats)}")
    if m == 0:
        raise ValueError("a tournament needs at least one player")
    if len(set(players)) != m:
        repeated = sorted({p for p in players if players.count(p) > 1})
        raise ValueError(f"players must be distinct; repeated: {', '.join(repeated)}")
    found: list[tuple[str, ...]] = []
    if m >= k:
        for subset in combinations(players, k):
            found.extend(subset[shift:] + subset[:shift] for shift in range(k))
        return found
    seen: set[tuple[str, ...]] = set()
    for offset in range(m):
        base = tuple(players[(j + offset) % m] for j in range(k))
        for shift in range(k):
            lineup = base[shift:] + base[:shift]
            if lineup not in seen:
                seen.add(lineup)
                found.append(lineup)
    return found


def schedule(seats: Sequence[str], players: Sequence[str], deals: int, master_seed: int) -> list[Slot]:
    """Every slot of a tournament: each line-up of :func:`lineups` on each of ``deals`` deal seeds."""
    if deals < 1:
        raise ValueError(f"a tournament needs at least one deal seed, got {deals}")
    seat_names = tuple(seats)
    plan = lineups(seat_names, players)
    return [
        Slot(seat_names, lineup, index, deal_seed(master_seed, index))
        for index in range(deals)
        for lineup in plan
    ]
