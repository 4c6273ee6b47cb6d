"""The JSON Patch a step's change is shown and exported as: it turns the old value into the new one."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena.engine import json_patch


def random_json(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.35:
        return rng.choice([0, 1, 2.5, True, False, None, "x", "a/b", "t~1", ""])
    if roll < 0.65:
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {
        rng.choice(["a", "b", "c/d", "~e", ""]): random_json(rng, depth + 1) for _ in range(rng.randrange(4))
    }


@pytest.mark.parametrize("seed", range(300))
def test_applying_the_diff_gives_the_new_value_and_leaves_the_old(seed: int) -> None:
    rng = random.Random(seed)
    old, new = random_json(rng), random_json(rng)
    kept = repr(old)
    assert json_patch.apply(old, json_patch.diff(old, new)) == new
    assert repr(old) == kept
    assert json_patch.diff(new, new) == []


def test_a_growing_history_is_one_add_per_new_item() -> None:
    old = {"cash": 10, "history": [{"day": 1}, {"day": 2}]}
    new = {"cash": 12, "history": [{"day": 1}, {"day": 2}, {"day": 3}]}
    assert json_patch.diff(old, new) == [
        {"op": "replace", "path": "/cash", "value": 12},
        {"op": "add", "path": "/history/2", "value": {"day": 3}},
    ]


def test_keys_with_slashes_and_tildes_are_escaped_and_types_count() -> None:
    patch = json_patch.diff({"a/b": 1, "c~": True, "gone": 0}, {"a/b": 1.0, "c~": 1})
    assert patch == [
        {"op": "remove", "path": "/gone"},
        {"op": "replace", "path": "/a~1b", "value": 1.0},
        {"op": "replace", "path": "/c~0", "value": 1},
    ]
    assert json_patch.describe(patch) == ["- /gone", "~ /a~1b: 1.0", "~ /c~0: 1"]


def test_lists_that_shrink_remove_from_the_end() -> None:
    patch = json_patch.diff([1, 2, 3, 4], [1, 5])
    assert patch == [
        {"op": "replace", "path": "/1", "value": 5},
        {"op": "remove", "path": "/3"},
        {"op": "remove", "path": "/2"},
    ]
    assert json_patch.apply([1, 2, 3, 4], patch) == [1, 5]


def test_long_values_are_cut_in_words() -> None:
    (line,) = json_patch.describe([{"op": "add", "path": "/note", "value": "x" * 500}], limit=20)
    assert line == '+ /note: "' + "x" * 18 + "…"
