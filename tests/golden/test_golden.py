"""Same seeds, same results: today's code reproduces the committed golden files exactly."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import orjson
import pytest

from arena.contract.catalogue import PREFIX_SEPARATOR
from arena.plugins.games import game_names, get_game
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


REASON_AUDIT_KEYS = ("claims", "false_claims")
ROWS_BEFORE_THE_REASON_AUDIT = {
    "lemonade_identical_2": "4e581568d9ce4d2e9a02eabb28c4fef2e2f47a79997ad9136d6a77734af8826b",
    "lemonade_identical_3": "caccf00681fbc4e57ef0dbc989363cf0da6a42cac2aa84ae3ef0a4421d431446",
    "lemonade_shared_2": "048f5744bece13686e5c18babc751b12399f10143a90fbfa1a65394eb0b65c9e",
    "lemonade_shared_3": "a5417df16d1e8e3234415cd02ce0228d9bb74c67d1cdfb16cec2d848dd2e7ba1",
}
"""SHA-256 of each lemonade result set's rows as recorded before the reason audit (lemonade 1.0)."""


def rows_digest(rows: list[dict[str, Any]]) -> str:
    """SHA-256 of result rows as canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(rows, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("name", sorted(ROWS_BEFORE_THE_REASON_AUDIT))
def test_the_reason_audit_only_added_its_two_keys_to_the_lemonade_results(name: str) -> None:
    """The lemonade result sets were recorded again when the reason audit added ``claims`` and
    ``false_claims`` to every seat's metrics, with no version bump. Without those two keys the
    rows are byte for byte the rows recorded before, so no score or older metric changed; the
    scripted stands state no figure about their past, so both counts are 0 everywhere.
    Drop this test when lemonade's version is bumped and its goldens are recorded afresh."""
    rows = load(results_path(name))["rows"]
    for row in rows:
        for metrics in row["metrics"].values():
            assert {key: metrics[key] for key in REASON_AUDIT_KEYS} == {"claims": 0, "false_claims": 0}
    older = [
        {
            **row,
            "metrics": {
                seat: {key: value for key, value in metrics.items() if key not in REASON_AUDIT_KEYS}
                for seat, metrics in row["metrics"].items()
            },
        }
        for row in rows
    ]
    assert rows_digest(older) == ROWS_BEFORE_THE_REASON_AUDIT[name]


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
    built_in = [name for name in game_names() if PREFIX_SEPARATOR not in name]  # catalogues: own tests
    assert set(built_in) <= set(CONTRACT_PLAYTHROUGHS)
    for game in built_in:
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
