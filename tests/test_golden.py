"""Same seeds, same results: today's code reproduces the committed golden files exactly."""

from __future__ import annotations

import orjson
import pytest

from arena.registry import game_names, get_game
from arena.testing import GameCheckError, check_playthrough
from tests.golden.golden import (
    CONTRACT_PLAYTHROUGHS,
    PLAYTHROUGHS,
    RESULT_SETS,
    contract_path,
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
        # Byte for byte too (3 and 3.0 compare equal): compact turn rows are proved by a digest.
        assert orjson.dumps(step, option=orjson.OPT_SORT_KEYS) == orjson.dumps(
            expected, option=orjson.OPT_SORT_KEYS
        )
    assert played["final_state"] == golden["final_state"]
    assert played["scores"] == golden["scores"]


def test_every_registered_game_has_a_golden_playthrough() -> None:
    assert set(game_names()) <= set(CONTRACT_PLAYTHROUGHS)
    for game in game_names():
        assert contract_path(game).exists(), (
            f"record tests/golden/games/{game}.json (python -m tests.golden.record)"
        )


@pytest.mark.parametrize("game", sorted(CONTRACT_PLAYTHROUGHS))
def test_sampled_playthrough_replays_exactly(game: str) -> None:
    golden = load(contract_path(game))
    seed, options = CONTRACT_PLAYTHROUGHS[game]
    assert (golden["seed"], golden["options"]) == (seed, options)
    check_playthrough(get_game(game), golden)


def test_a_rule_change_without_a_version_bump_fails() -> None:
    golden = load(contract_path("bargain"))
    tampered = {**golden, "steps": [dict(step) for step in golden["steps"]]}
    first = tampered["steps"][0]
    seat = next(iter(first["states"]))
    first["states"] = {**first["states"], seat: {**first["states"][seat], "round": 99}}
    with pytest.raises(GameCheckError, match="state differs"):
        check_playthrough(get_game("bargain"), tampered)
    with pytest.raises(GameCheckError, match="record it again"):
        check_playthrough(get_game("bargain"), {**golden, "version": "0.0"})
