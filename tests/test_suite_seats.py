"""Seats follow the options everywhere: a suite of three lemonade stands runs (it used to fail
with "lemonade seats are a, b")."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.registry import get_game
from arena.specs import SpecError
from arena.store import Store
from arena.suite import run_suite


async def test_a_suite_of_three_stands_runs(tmp_path: Path) -> None:
    store = Store(tmp_path / "arena.db")
    try:
        players = {"a": "baseline:weather", "b": "baseline:cost-plus", "c": "baseline:random"}
        options = {"stands": 3, "days": 3}
        report = await run_suite(store, "lemonade", players, n=2, seed=1, options=options)
    finally:
        store.close()
    assert report.status == "finished" and len(report.episodes) == 6
    assert all(set(episode.scores) == {"a", "b", "c"} for episode in report.episodes)


async def test_a_suite_names_the_seats_the_options_give() -> None:
    with pytest.raises(SpecError, match="lemonade seats are a, b, c"):
        await run_suite(None, "lemonade", {"a": "baseline:weather"}, n=1, seed=1, options={"stands": 3})


def test_seats_are_a_function_of_the_options() -> None:
    lemonade = get_game("lemonade")
    assert lemonade.seats_for({"stands": 1}) == ("a",)
    assert lemonade.seats_for({"stands": 5}) == ("a", "b", "c", "d", "e")
    assert lemonade.default_seats == ("a", "b")
    assert get_game("paperclip").seats_for({"seats": 4}) == ("a", "b", "c", "d")
