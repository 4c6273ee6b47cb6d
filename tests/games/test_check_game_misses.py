"""``check_game`` catches the bugs it used to miss and names each one for what it is.

Each test plants one bug in a real game (bargain, with secrets; the outside example
rock-paper-scissors from ``examples/``, without) and checks the checker's message: a definition
that does not declare ``private_information``, declares secrets with no sentinel planted, or
plants one without declaring it; a game that touches the global ``random``; a game that never
ends; a baseline that crashes for one seat.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar, Self

import pytest

from arena.contract.baseline import baseline_table
from arena.contract.player import DecisionRequest
from arena.testing import GameCheckError, check_game
from games.bargain import BargainDefinition, BargainState

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rock_paper_scissors"


@pytest.fixture(scope="module")
def rps() -> Iterator[ModuleType]:
    """The outside example game's module, imported from its source folder."""
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(EXAMPLE))
        import rock_paper_scissors.game as module

        yield module


class ForgotSentinel(BargainState):
    def with_sentinel(self, seat: str, sentinel: int) -> Self | None:
        return None  # the planted bug: the secrets are never planted, so no leak can be found


class ForgotSentinelBargain(BargainDefinition):
    def state_class(self) -> type[BargainState]:
        return ForgotSentinel


class DeniedBargain(BargainDefinition):
    private_information: ClassVar[bool] = False  # the planted bug: its secrets are planted all the same


def test_a_definition_must_declare_whether_seats_hold_secrets() -> None:
    undeclared = type("UndeclaredBargain", (BargainDefinition,), {"private_information": None})
    with pytest.raises(GameCheckError, match="bargain does not declare private_information"):
        check_game(undeclared(), seeds=(0,))


def test_secrets_declared_with_no_sentinel_planted_fail() -> None:
    with pytest.raises(
        GameCheckError, match=r"declares private_information = True but with_sentinel\(\) planted no sentinel"
    ):
        check_game(ForgotSentinelBargain(), seeds=(0,))


def test_a_sentinel_planted_without_declaring_secrets_fails() -> None:
    with pytest.raises(
        GameCheckError, match=r"declares private_information = False but with_sentinel\(\) planted a secret"
    ):
        check_game(DeniedBargain(), seeds=(0,))


def test_the_example_game_without_secrets_passes(rps: ModuleType) -> None:
    check_game(rps.DEFINITION, seeds=(0,))


def planted(rps: ModuleType, name: str, state: type[Any] | None = None, baselines: Any = None) -> Any:
    """A rock-paper-scissors definition named ``name`` with ``state`` and ``baselines`` swapped in."""
    facts: dict[str, Any] = {"name": name}
    if state is not None:
        facts["state_class"] = lambda self: state
    if baselines is not None:
        facts["baselines"] = property(lambda self: baselines)
    return type(name, (rps.RpsDefinition,), facts)()


def test_a_game_that_seeds_the_global_random_fails_naming_the_likely_cause(rps: ModuleType) -> None:
    class Reseeding(rps.RpsState):  # type: ignore[misc, name-defined]
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            random.seed(self.seed)  # the planted bug: episodes replay, the global generator does not

    with pytest.raises(GameCheckError, match=r"global random state changed .* random\.seed\(\)") as caught:
        check_game(planted(rps, "reseeding", Reseeding), seeds=(0,))
    assert "random.Random(seed)" in str(caught.value)


def test_a_game_that_never_ends_is_told_so(rps: ModuleType) -> None:
    class Endless(rps.RpsState):  # type: ignore[misc, name-defined]
        def pending(self) -> list[str]:
            return ["a", "b"]  # the planted bug: the rounds are never counted

        def apply(self, actions: dict[str, Any]) -> None:
            self.rounds[:] = [{seat: action.throw for seat, action in actions.items()}]

    with pytest.raises(GameCheckError, match=r"the game never ends: still not over\(\) after 100000 steps"):
        check_game(planted(rps, "endless", Endless), seeds=(0,))


def test_a_baseline_that_crashes_for_one_seat_is_told_apart_from_illegal_decisions(rps: ModuleType) -> None:
    class OnlySeatA(rps.Cycler):  # type: ignore[misc, name-defined]
        """Plays seat a; for seat b its first round raises."""

        name = "only-a"

        def act(self, request: DecisionRequest) -> Any:
            if request.step == 0:
                {"a": 0}[request.seat]  # the planted bug: KeyError for seat b
            return super().act(request)

    definition = planted(rps, "seat_shy", baselines=baseline_table(OnlySeatA))
    crashed = "baseline:only-a crashed as seat 'b' at step 1: KeyError: 'b'"
    with pytest.raises(GameCheckError, match=crashed) as caught:
        check_game(definition, seeds=(0,))
    assert "not an illegal decision" in str(caught.value)
