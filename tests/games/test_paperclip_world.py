"""Paperclip operations and the generator: legal by construction, clips conserved, text 1:1."""

from __future__ import annotations

import functools
import random

import pytest

from games.paperclip.generator import DIMENSIONS, TIER_STEPS, TIERS, Puzzle, generate_puzzle, generate_set
from games.paperclip.texts_zh import op_text_zh, parse_text_zh, question_zh
from games.paperclip.world import (
    IllegalOperation,
    Operation,
    apply,
    apply_lenient,
    compare_result,
    op_text,
    parse_text,
    total,
)

SEEDS = 3000


@functools.cache  # made when a test first asks, not while every xdist worker collects the module
def all_puzzles() -> list[tuple[int, Puzzle]]:
    out = []
    for seed in range(SEEDS):
        rng = random.Random(seed)
        tier, dims = TIERS[seed % 3], DIMENSIONS[(seed // 3) % 3]
        out.append((seed, generate_puzzle(rng, 0, tier, dims, seed % 3)))
    return out


def test_thousands_of_seeds_never_produce_an_illegal_operation_and_conserve_clips() -> None:
    operations = 0
    for seed, puzzle in all_puzzles():
        state = puzzle.initial
        assert 2 <= len(state) <= 4
        for box in state.values():
            assert len(box) <= 3 and all(1 <= n <= 10 for n in box.values())
        start = total(state)
        for op, truth in zip(puzzle.operations, puzzle.states, strict=True):
            after = apply(state, op)  # raises IllegalOperation on an illegal op
            assert after == truth, f"seed {seed}: stored truth differs at {op.text}"
            assert total(after) == start, f"seed {seed}: {op.text} changed the number of clips"
            if op.op != "compare":
                assert after != state, f"seed {seed}: {op.text} changed nothing"
            state = after
            operations += 1
    assert operations > SEEDS * 5


def test_tiers_and_dimensions_shape_the_puzzles() -> None:
    for seed, puzzle in all_puzzles():
        p = puzzle
        low, high = TIER_STEPS[p.tier]
        changing = [op for op in p.operations if op.op != "compare"]
        assert low <= len(changing) <= high
        assert p.distractors == seed % 3 == len(p.operations) - len(changing)
        assert p.operations[0].op != "compare"
        if p.dimensions == "counts":
            colours = {c for box in p.initial.values() for c in box}
            assert len(colours) == 1
            assert {op.op for op in changing} <= {"move", "merge"}
            assert all(op.colour is None for op in changing)
        if p.dimensions != "partial":
            assert not any(op.partial for op in changing)
            assert not any(op.op == "split" for op in changing)
    kinds = {
        (op.op, op.colour is not None, op.count is not None) for _, p in all_puzzles() for op in p.operations
    }
    assert (
        ("split", True, True) in kinds and ("paint", True, True) in kinds and ("paint", True, False) in kinds
    )
    assert (
        ("move", False, False) in kinds and ("move", True, True) in kinds and ("merge", False, False) in kinds
    )


def test_paint_never_changes_a_count() -> None:
    paints = 0
    for _, puzzle in all_puzzles():
        state = puzzle.initial
        for op in puzzle.operations:
            after = apply(state, op)
            if op.op == "paint":
                paints += 1
                assert op.box is not None and op.to is not None
                assert {b: total(after, b) for b in after} == {b: total(state, b) for b in state}
                assert after[op.box].get(op.to, 0) > state[op.box].get(op.to, 0)
            state = after
    assert paints > 500


def test_every_operation_text_maps_back_to_its_parameters() -> None:
    by_text: dict[str, Operation] = {}
    for _, puzzle in all_puzzles():
        for op in puzzle.operations:
            assert parse_text(op.text) == op
            assert by_text.setdefault(op.text, op) == op  # one text, one set of parameters
    assert len(set(by_text.values())) == len(by_text) > 500
    with pytest.raises(ValueError):
        parse_text("Throw all clips out of the window.")


def test_chinese_texts_map_back_too_and_read_like_the_seed() -> None:
    by_text: dict[str, Operation] = {}
    for _, puzzle in all_puzzles()[:1000]:
        for op in puzzle.operations:
            assert parse_text_zh(op_text_zh(op)) == op
            assert by_text.setdefault(op_text_zh(op), op) == op
    assert op_text_zh(Operation("move", src="B", dst="C")) == "把B盒中的所有回形针移动到C盒。"
    assert (
        op_text_zh(Operation("paint", box="A", colour="red", to="silver"))
        == "把A盒中的红色回形针全部染成银色。"
    )
    assert question_zh("C", "silver") == "最终C盒里有多少枚回形针？其中银色有几枚？"


def test_the_seeds_operation_texts() -> None:
    assert op_text(Operation("move", src="B", dst="C")) == "Move all clips from box B to box C."
    paint = Operation("paint", box="C", colour="black", count=2, to="silver")
    assert paint.text == "Paint 2 black clips of box C silver."
    assert (
        Operation("move", src="A", dst="C", colour="silver").text
        == "Move all silver clips from box A to box C."
    )
    one = Operation("split", src="A", dst="D", colour="red", count=1)
    assert one.text == "Split 1 red clip off box A into the empty box D."
    assert parse_text(one.text) == one


def test_illegal_operations_are_refused_and_lenient_apply_clamps() -> None:
    state = {"A": {"red": 3}, "B": {}, "C": {"black": 1}}
    with pytest.raises(IllegalOperation):
        apply(state, Operation("move", src="A", dst="B", colour="red", count=4))
    with pytest.raises(IllegalOperation):
        apply(state, Operation("split", src="A", dst="C", colour="red", count=1))
    with pytest.raises(IllegalOperation):
        apply(state, Operation("paint", box="B", colour="red", to="blue"))
    with pytest.raises(IllegalOperation):
        apply(state, Operation("merge", src="B", dst="A"))
    assert apply_lenient(state, Operation("move", src="A", dst="B", colour="red", count=4)) == {
        "A": {},
        "B": {"red": 3},
        "C": {"black": 1},
    }
    assert compare_result(state, Operation("compare", src="A", dst="C")) == "A"


def test_the_same_seed_gives_the_same_puzzles_and_another_seed_others() -> None:
    first = generate_set(5, 9, "mix", "mix", 1)
    assert [p.export() for p in first] == [p.export() for p in generate_set(5, 9, "mix", "mix", 1)]
    assert [p.export() for p in first] != [p.export() for p in generate_set(6, 9, "mix", "mix", 1)]
    assert sorted((p.tier, p.dimensions) for p in first) == sorted((t, d) for t in TIERS for d in DIMENSIONS)
