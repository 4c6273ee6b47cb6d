"""Synthetic tournament outcomes from known strengths, for the rating tests and the bench."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from arena.tournament.records import EpisodeRecord
from arena.tournament.schedule import schedule


def two_seat(strength: Mapping[str, float], deals: int, seed: int, tie: float = 0.0) -> list[EpisodeRecord]:
    """Every pair on every deal in both seatings; a wins with Elo probability from ``strength``.

    With probability ``tie`` the episode is a draw instead.
    """
    rng = random.Random(seed)
    records: list[EpisodeRecord] = []
    for slot in schedule(["first", "second"], list(strength), deals, seed):
        a, b = slot.lineup
        if rng.random() < tie:
            scores = {"first": 0.5, "second": 0.5}
        else:
            a_wins = rng.random() < 1.0 / (1.0 + 10 ** ((strength[b] - strength[a]) / 400))
            scores = {"first": float(a_wins), "second": float(not a_wins)}
        records.append(EpisodeRecord(slot.slot_key, slot.deal_seed, slot.seating, scores))
    return records


def many_seat(
    strength: Mapping[str, float], seats: Sequence[str], deals: int, seed: int
) -> list[EpisodeRecord]:
    """A k-seat game in a Plackett-Luce world: a seat scores its player's strength plus Gumbel noise."""
    rng = random.Random(seed)
    records: list[EpisodeRecord] = []
    for slot in schedule(seats, list(strength), deals, seed):
        scores = {
            seat: strength[p] * math.log(10) / 400 - math.log(rng.expovariate(1.0))
            for seat, p in slot.seating.items()
        }
        records.append(EpisodeRecord(slot.slot_key, slot.deal_seed, slot.seating, scores))
    return records
