"""Rock-paper-scissors passes Arena's conformance checker (installed or not)."""

from __future__ import annotations

from rock_paper_scissors import DEFINITION

from arena.testing import check_game


def test_rock_paper_scissors_conforms() -> None:
    check_game(DEFINITION, options={"rounds": 3})
