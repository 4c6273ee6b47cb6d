"""The schedule: every line-up, deal and seating exactly once, balanced seats, stable keys."""

from __future__ import annotations

import hashlib
from collections import Counter
from itertools import permutations

import pytest

from arena.tournament.schedule import Slot, deal_seed, lineups, schedule

PLAYERS = ["baseline:honest", "baseline:bluff", "openai:gpt-x", "openai-compat:m@http://h:1/v1/a=b"]


def suite_deal_seed(seed: int, index: int) -> int:
    """The rule ``arena suite`` dealt by before it became a tournament (stored suites used it)."""
    digest = hashlib.sha256(f"arena-suite:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def seat_counts(slots: list[Slot]) -> Counter[tuple[str, str]]:
    return Counter((seat, player) for slot in slots for seat, player in slot.seating.items())


def test_two_seats_every_pair_both_seatings_every_seed_exactly_once() -> None:
    slots = schedule(["a", "b"], PLAYERS, deals=5, master_seed=7)
    played = Counter((slot.deal_index, slot.lineup) for slot in slots)
    expected = {(i, pair) for i in range(5) for pair in permutations(PLAYERS, 2)}
    assert set(played) == expected
    assert all(count == 1 for count in played.values())
    assert len({slot.slot_key for slot in slots}) == len(slots) == 5 * 4 * 3


def test_paired_design_each_pair_meets_on_the_same_seeds_in_both_roles() -> None:
    slots = schedule(["seller", "buyer"], PLAYERS[:3], deals=4, master_seed=1)
    seeds_by_pair: dict[tuple[str, ...], set[int]] = {}
    for slot in slots:
        seeds_by_pair.setdefault(slot.lineup, set()).add(slot.deal_seed)
    all_seeds = {deal_seed(1, i) for i in range(4)}
    assert len(seeds_by_pair) == 6
    assert all(seeds == all_seeds for seeds in seeds_by_pair.values())


def test_deal_seeds_match_the_suite_and_depend_on_the_master_seed() -> None:
    assert [deal_seed(3, i) for i in range(10)] == [suite_deal_seed(3, i) for i in range(10)]
    assert deal_seed(3, 0) != deal_seed(4, 0)
    slots = schedule(["a", "b"], PLAYERS[:2], deals=3, master_seed=3)
    assert [slot.deal_seed for slot in slots] == [deal_seed(3, i) for i in (0, 0, 1, 1, 2, 2)]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_three_seats_balance(players: int) -> None:
    names = [f"p{i}" for i in range(players)]
    slots = schedule(["x", "y", "z"], names, deals=2, master_seed=0)
    counts = seat_counts(slots)
    # every player in every seat, equally often
    assert set(counts) == {(seat, p) for seat in "xyz" for p in names}
    assert len(set(counts.values())) == 1
    # every pair of players meets equally often, each line-up is distinct players
    pairs = Counter(frozenset(pair) for slot in slots for pair in permutations(slot.lineup, 2))
    assert len(pairs) == players * (players - 1) // 2 and len(set(pairs.values())) == 1
    assert all(len(set(slot.lineup)) == 3 for slot in slots)
    # each (line-up, deal) exactly once
    assert len({(s.deal_index, s.lineup) for s in slots}) == len(slots)
    assert len({s.slot_key for s in slots}) == len(slots)


@pytest.mark.parametrize(("seats", "players"), [(3, 2), (4, 2), (5, 3), (3, 1), (5, 2)])
def test_more_seats_than_players_balanced(seats: int, players: int) -> None:
    seat_names = [f"s{i}" for i in range(seats)]
    names = [f"p{i}" for i in range(players)]
    plan = lineups(seat_names, names)
    assert len(set(plan)) == len(plan)
    counts = Counter((seat, p) for lineup in plan for seat, p in zip(seat_names, lineup, strict=True))
    assert set(counts) == {(seat, p) for seat in seat_names for p in names}
    assert len(set(counts.values())) == 1
    totals = Counter(p for lineup in plan for p in lineup)
    assert len(set(totals.values())) == 1


def test_one_seat_every_player_plays_every_seed_alone() -> None:
    slots = schedule(["solo"], PLAYERS, deals=3, master_seed=9)
    assert len(slots) == 12
    assert {(s.deal_index, s.lineup) for s in slots} == {(i, (p,)) for i in range(3) for p in PLAYERS}


def test_slots_are_deterministic_and_deal_major() -> None:
    first = schedule(["a", "b", "c"], PLAYERS, deals=3, master_seed=5)
    again = schedule(["a", "b", "c"], PLAYERS, deals=3, master_seed=5)
    assert first == again
    assert [s.deal_index for s in first] == sorted(s.deal_index for s in first)


def test_slot_key_is_readable_and_escapes_separators() -> None:
    slot = schedule(["a", "b"], PLAYERS, deals=1, master_seed=0)[-1]
    assert slot.slot_key.startswith(f"0:{deal_seed(0, 0)}/a=")
    assert slot.slot_key.count("/") == 2 and slot.slot_key.count("=") == 2
    tricky = Slot(("a/b", "c"), ("x=y", "z"), 0, 1)
    plain = Slot(("a", "b/c"), ("x", "y=z"), 0, 1)
    assert tricky.slot_key != plain.slot_key


@pytest.mark.parametrize(
    ("seats", "players", "deals", "message"),
    [
        (["a", "b"], ["p", "p"], 1, "repeated: p"),
        (["a", "a"], ["p", "q"], 1, "seat names repeat"),
        (["a"], [], 1, "at least one player"),
        (["a"], ["p"], 0, "at least one deal"),
    ],
)
def test_bad_input_is_a_clear_error(seats: list[str], players: list[str], deals: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        schedule(seats, players, deals, 0)
