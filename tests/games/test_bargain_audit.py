"""Auditor: a seat never gets to see the other side's number.

A plain "the number does not appear" check is not meaningful here: the other side's
secret can coincide with an offer price, a round count or a number in a message, and a
seat may legitimately leak its own number in a message (the pushover does). So the audit
is a non-interference test. For every turn of many episodes, played by random legal
actions and by every pairing of the baselines, a *twin* game replays the same actions
with the other side's number replaced by a sentinel (987654) that no price, round or
message can contain (prices stop at 200). The seat's observation, prompt, rules and
rendered view must be identical in the real game and the twin, and must not contain the
sentinel anywhere; the twin's full view and turn state must contain it (so the probe
can see a leak when there is one). Observations are also checked structurally: exactly
the expected keys, with the own number only under ``your_cost`` / ``your_value``.

The same sentinel audits the front ends, played end to end with a person at one seat:
the console (``tests/cli/test_cli_privacy.py``) and the app's screen
(``tests/app/test_app_bargain.py``) never show the sentinel or the other side's reasons
before the episode ends.
"""

from __future__ import annotations

import io
import itertools
import json
import random
from collections.abc import Callable

import pytest
from rich.console import Console

from games.bargain import BargainState
from games.bargain.baselines import BASELINES
from games.bargain.observation import BargainObservation
from games.bargain.rules import BargainAction
from games.bargain.world import Deal
from tests.support.gamekit import new_bargain, observed, prompt_of, rules_of

SENTINEL = 987_654
OBSERVATION_KEYS = {
    "seller": {"role", "your_cost", "round", "rounds", "rounds_left", "offers", "standing_offer",
               "your_last_offer", "status", "price"},
    "buyer": {"role", "your_value", "round", "rounds", "rounds_left", "offers", "standing_offer",
              "your_last_offer", "status", "price"},
}  # fmt: skip
MOVE_KEYS = {"round", "seat", "action", "price", "message"}

Policy = Callable[[BargainState, str], BargainAction]


def rendered(game: BargainState, viewer: str | None) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=160, color_system=None)
    console.print(game.definition.view.render(game, viewer))
    return buffer.getvalue()


def twin_without(game: BargainState, hidden: str, actions: list[tuple[str, BargainAction]]) -> BargainState:
    """A replay of ``actions`` in which ``hidden``'s number is the sentinel."""
    twin = new_bargain(game.seed, rounds=game.rounds)
    deal = twin.deal
    twin.deal = Deal(SENTINEL, deal.value) if hidden == "seller" else Deal(deal.cost, SENTINEL)
    for seat, action in actions:
        twin.apply({seat: action})
    return twin


def audit_turn(game: BargainState, actions: list[tuple[str, BargainAction]]) -> None:
    for seat, opponent in (("seller", "buyer"), ("buyer", "seller")):
        observation = observed(game, seat)
        assert set(observation) == OBSERVATION_KEYS[seat]
        assert all(set(move) == MOVE_KEYS for move in observation["offers"])
        twin = twin_without(game, opponent, actions)
        twin_observation = observed(twin, seat)
        assert twin_observation == observation, "the observation depends on the other side's number"
        assert prompt_of(twin, seat) == prompt_of(game, seat)
        assert rules_of(twin, seat) == rules_of(game, seat)
        view = rendered(twin, seat)
        assert view == rendered(game, seat)
        for text in (json.dumps(twin_observation), prompt_of(twin, seat), view):
            assert str(SENTINEL) not in text
        # The probe works: the full state does carry the hidden number.
        assert str(SENTINEL) in json.dumps(twin.turn_state(seat))
        if game.over():
            assert str(SENTINEL) in rendered(twin, None)


def run_audited(seed: int, policies: dict[str, Policy]) -> BargainState:
    game = new_bargain(seed)
    actions: list[tuple[str, BargainAction]] = []
    audit_turn(game, actions)
    while not game.over():
        seat = game.pending()[0]
        action = policies[seat](game, seat)
        assert game.validate(seat, action) is None
        game.apply({seat: action})
        actions.append((seat, action))
        audit_turn(game, actions)
    return game


def stored_observation(game: BargainState, seat: str) -> BargainObservation:
    """``seat``'s observation as it reads back from the store."""
    return BargainObservation.model_validate(observed(game, seat))


def sampler(rng: random.Random) -> Policy:
    return lambda game, seat: game.sample_action(seat, rng)


def baseline(name: str, seed: int) -> Policy:
    player = BASELINES[name](random.Random(seed))
    return lambda game, seat: player.choose(stored_observation(game, seat))


@pytest.mark.parametrize("seed", range(40))
def test_random_play_never_shows_the_other_number(seed: int) -> None:
    rng = random.Random(seed)
    run_audited(seed, {"seller": sampler(rng), "buyer": sampler(rng)})


@pytest.mark.parametrize(("seller", "buyer"), list(itertools.product(BASELINES, BASELINES)))
def test_baseline_play_never_shows_the_other_number(seller: str, buyer: str) -> None:
    for seed in range(5):
        run_audited(seed, {"seller": baseline(seller, seed), "buyer": baseline(buyer, seed + 1)})


@pytest.mark.parametrize("name", list(BASELINES))
def test_baseline_decisions_do_not_depend_on_the_other_number(name: str) -> None:
    # The decision is a function of the observation only: same moves on the real game and twin.
    rng = random.Random(3)
    for seed in range(30):
        game = new_bargain(seed)
        actions: list[tuple[str, BargainAction]] = []
        while not game.over():
            seat = game.pending()[0]
            opponent = "buyer" if seat == "seller" else "seller"
            twin = twin_without(game, opponent, actions)
            real = BASELINES[name](random.Random(seed)).choose(stored_observation(game, seat))
            mirrored = BASELINES[name](random.Random(seed)).choose(stored_observation(twin, seat))
            assert real == mirrored
            action = real if rng.random() < 0.5 else game.sample_action(seat, rng)
            game.apply({seat: action})
            actions.append((seat, action))
