"""A person's Cattle Trade form offers only the moment's legal choices, in the app and at the console.

The action model declares five seats and ten species for every turn; in a three-player game at a
turn where a challenge is open, the form offers only the seats and species that can be
challenged (never the seat itself or seats that do not exist), and "challenge" only when one is
open. Played for real: baselines' moves from a seeded game until such a turn comes.
"""

from __future__ import annotations

import random

from arena.engine.action_form import ActionForm
from arena.engine.runner import decision_request
from arena.plugins.games import installed_game
from games.cattle.game import CattleState


def a_turn_with_a_challenge_open(players: int = 3) -> tuple[CattleState, str]:
    """A seeded three-player game played by random legal moves until some seat's turn can challenge."""
    definition = installed_game("cattle")
    assert definition is not None
    state = definition.create(3, {"players": players})
    assert isinstance(state, CattleState)
    rng = random.Random(7)
    for _ in range(5000):
        pending = state.pending()
        if not pending:
            break
        seat = pending[0]
        if state.table.phase == "turn" and state.table.challenges_open(seat):
            return state, seat
        state.apply({s: state.sample_action(s, rng) for s in pending})
    raise AssertionError("no turn with a challenge open")


def test_the_turn_form_offers_only_the_seats_and_species_that_can_be_challenged() -> None:
    state, seat = a_turn_with_a_challenge_open()
    form = ActionForm(decision_request(state, seat, step=0))
    choices = {spec.name: spec.choices for spec in form.fields}
    open_now = state.table.challenges_open(seat)
    assert set(choices["target"]) == {target for target, _, _ in open_now}
    assert seat not in choices["target"] and not {"p4", "p5"} & set(choices["target"])
    assert set(choices["species"]) == {species for _, species, _ in open_now}
    assert len(choices["species"]) < 10
    assert "challenge" in choices["move"]
    # the console's hint lists the same (one engine behind both front ends)
    target = form.field("target")
    assert target is not None and form.hint(target).startswith(" / ".join(choices["target"]))
