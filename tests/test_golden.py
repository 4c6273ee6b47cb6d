"""Same seeds, same results: today's code reproduces the committed golden files exactly."""

from __future__ import annotations

import pytest

from tests.golden.golden import (
    PLAYTHROUGHS,
    RESULT_SETS,
    load,
    normal,
    play_results,
    play_through,
    playthrough_path,
    results_path,
)


@pytest.mark.parametrize("name", sorted(RESULT_SETS))
def test_baseline_results_match_the_golden_file(name: str) -> None:
    golden = load(results_path(name))
    game, options = RESULT_SETS[name]
    assert (golden["game"], golden["options"]) == (game, options)
    rows = normal(play_results(game, options))
    assert len(rows) == len(golden["rows"]) >= 20
    for row, expected in zip(rows, golden["rows"], strict=True):
        assert row == expected, f"seed {expected['seed']} with {expected['seats']} differs"


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_playthrough_matches_the_golden_file(name: str) -> None:
    golden = load(playthrough_path(name))
    played = normal(play_through(name))
    assert played["players"] == golden["players"]
    assert len(played["steps"]) == len(golden["steps"])
    for index, (step, expected) in enumerate(zip(played["steps"], golden["steps"], strict=True)):
        assert step == expected, f"step {index} differs"
    assert played["final_state"] == golden["final_state"]
    assert played["scores"] == golden["scores"]
