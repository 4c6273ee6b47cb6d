"""The example game passes Arena's conformance checker."""

from __future__ import annotations

from sealed_bid import DEFINITION

from arena.testing import check_game


def test_sealed_bid_conforms() -> None:
    check_game(DEFINITION, options={"items": 4})
