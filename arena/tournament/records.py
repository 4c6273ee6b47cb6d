"""What the rating code reads per finished episode, and the games it breaks episodes into.

A *game* here is one ranked set of (player, standing) entries. For games with two or more
seats it is one episode. For one-seat games (benchmarks each player plays alone) it is every
player's result on one deal seed, so players are compared on the same deal: a player with
several episodes on one seed enters with its mean. Higher standing is better: the score, or
minus the rank when a ranking is given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

MetricValue = float | int | bool | str | None


@dataclass(frozen=True)
class EpisodeRecord:
    """One finished episode: its slot, deal seed, who sat where and how each seat did.

    Give ``scores`` (higher is better) or ``ranks`` (1 is best, equal ranks tie); when both
    are given the ranks decide the order and the scores stay a metric. ``metrics`` maps a
    seat to the game's own metrics (``None``, meaning not applicable, and text are skipped).
    """

    slot_key: str
    deal_seed: int
    seating: Mapping[str, str]
    scores: Mapping[str, float] = field(default_factory=dict)
    ranks: Mapping[str, float] | None = None
    metrics: Mapping[str, Mapping[str, MetricValue]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        seats = set(self.seating)
        if not seats:
            raise ValueError(f"episode {self.slot_key}: no seats")
        ordering = self.ranks if self.ranks is not None else self.scores
        if set(ordering) != seats:
            kind = "ranks" if self.ranks is not None else "scores"
            raise ValueError(
                f"episode {self.slot_key}: {kind} name seats {sorted(ordering)}, not {sorted(seats)}"
            )

    def standing(self, seat: str) -> float:
        """How well ``seat`` did: higher is better."""
        if self.ranks is not None:
            return -float(self.ranks[seat])
        return float(self.scores[seat])


@dataclass(frozen=True)
class Game:
    """One ranked comparison: the deal seed it was played on and each entry's standing."""

    deal_seed: int
    entries: tuple[tuple[str, float], ...]


def player_order(records: Iterable[EpisodeRecord], players: Sequence[str] | None = None) -> list[str]:
    """``players`` checked against the records, or the players in order of first appearance."""
    seen: dict[str, None] = {}
    for record in records:
        seen.update(dict.fromkeys(record.seating.values()))
    if players is None:
        return list(seen)
    unknown = sorted(set(seen) - set(players))
    if unknown:
        raise ValueError(f"episodes name players not in the list: {', '.join(unknown)}")
    return list(players)


def games(records: Iterable[EpisodeRecord]) -> list[Game]:
    """The ranked comparisons in ``records`` (episodes; one-seat episodes pooled by deal seed)."""
    found: list[Game] = []
    pooled: dict[int, dict[str, list[float]]] = {}
    for record in records:
        if len(record.seating) == 1:
            ((seat, player),) = record.seating.items()
            pooled.setdefault(record.deal_seed, {}).setdefault(player, []).append(record.standing(seat))
            continue
        entries = tuple((player, record.standing(seat)) for seat, player in record.seating.items())
        found.append(Game(record.deal_seed, entries))
    for seed, by_player in pooled.items():
        if len(by_player) > 1:
            entries = tuple((player, sum(values) / len(values)) for player, values in by_player.items())
            found.append(Game(seed, entries))
    return found


def outcome_counts(
    records: Sequence[EpisodeRecord], players: Sequence[str] | None = None
) -> dict[str, dict[str, int]]:
    """Per player ``episodes``, ``wins``, ``draws`` and ``losses``.

    In each game (see the module docstring) the entry with the strictly highest standing
    wins and the rest lose; a shared top standing is a draw for those sharing it. A player
    holding several seats of one game (more seats than players) counts once per seat.
    """
    order = player_order(records, players)
    counts = {p: {"episodes": 0, "wins": 0, "draws": 0, "losses": 0} for p in order}
    for record in records:
        for player in record.seating.values():
            counts[player]["episodes"] += 1
    for game in games(records):
        top = max(standing for _, standing in game.entries)
        leaders = sum(1 for _, standing in game.entries if standing == top)
        for player, standing in game.entries:
            if standing < top:
                counts[player]["losses"] += 1
            else:
                counts[player]["wins" if leaders == 1 else "draws"] += 1
    return counts
