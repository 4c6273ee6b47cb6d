"""Lemonade's own ``clone`` (no JSON round trip) copies exactly what the round trip did."""

from __future__ import annotations

import json
import random

from games.lemonade.rules import LemonadeDecision
from tests.support.gamekit import new_lemonade


def as_text(data: object) -> str:
    return json.dumps(data, sort_keys=True)


def test_a_clone_equals_the_round_trip_at_every_day_and_plays_on_alone() -> None:
    game = new_lemonade(5, days=12)
    rng = random.Random(5)
    day = 0
    while not game.over():
        day += 1
        copy = game.clone()
        twin = game.definition.state_from_json(json.loads(as_text(game.to_json())))
        assert as_text(copy.to_json()) == as_text(twin.to_json())
        for seat in game.seats:
            assert copy.observation(seat).model_dump_json() == twin.observation(seat).model_dump_json()
        assert copy.pending() == twin.pending() == game.pending()
        # Day 3's reason makes a false claim, so the audit has something to copy from then on.
        reason = "Yesterday I sold 999 cups!" if day == 3 else "steady"
        actions = {
            seat: LemonadeDecision(price=3.0, produce=rng.randint(0, 40), reason=reason)
            for seat in game.pending()
        }
        before = as_text(game.to_json())
        copy.apply(actions)
        assert as_text(game.to_json()) == before, "playing the copy changed the original"
        game.apply(actions)
        twin.apply(actions)
        assert as_text(copy.to_json()) == as_text(game.to_json()) == as_text(twin.to_json())
    assert game.audit.any_claims(), "the false claim was audited, so the audit's copy was tested"
