"""Paperclip grading: the seed's worked example, one hand-made mistake per tag, normalisation."""

from __future__ import annotations

import pytest

from games.paperclip.answers import batch_model, coerce_report, parse_report_text, reports_of
from games.paperclip.generator import Puzzle
from games.paperclip.grading import Grade, grade_puzzle, seat_metrics
from games.paperclip.world import Operation, State, apply


def make_puzzle(initial: State, ops: list[Operation], box: str, colour: str, tier: str = "entry") -> Puzzle:
    states, state = [], initial
    for op in ops:
        state = apply(state, op)
        states.append(state)
    return Puzzle(0, tier, "partial", 0, initial, tuple(ops), tuple(states), box, colour)


# Seed section 4.1: A 3 red + 2 silver, B 4 black, C empty; four steps; C's total and silver.
SEED = make_puzzle(
    {"A": {"red": 3, "silver": 2}, "B": {"black": 4}, "C": {}},
    [
        Operation("move", src="B", dst="C"),
        Operation("paint", box="A", colour="red", to="silver"),
        Operation("move", src="C", dst="A", colour="black"),
        Operation("move", src="A", dst="C", colour="silver"),
    ],
    "C",
    "silver",
)
SEED_RIGHT = [
    "A: red 3, silver 2; B: 0; C: black 4",
    "A: silver 5; B: 0; C: black 4",
    "A: silver 5, black 4; B: 0; C: 0",
    "A: black 4; B: 0; C: silver 5",
]
SEED_WRONG = [*SEED_RIGHT[:3], "A: black 4; B: 0; C: silver 3"]


def grade_texts(puzzle: Puzzle, texts: list[str], finals: tuple[int, int], reporting: str = "full") -> Grade:
    return grade_puzzle(puzzle, [parse_report_text(t) for t in texts], finals, reporting)


def test_the_seeds_correct_answer_is_full() -> None:
    assert SEED.question == "How many clips are in box C at the end, and how many of them are silver?"
    assert SEED.answer == (5, 5)
    grade = grade_texts(SEED, SEED_RIGHT, (5, 5))
    assert grade.grade == "full" and grade.score == 1.0
    assert grade.first_error is None and grade.tags == []


def test_the_seeds_wrong_answer_is_wrong_at_step_4_with_count_drift() -> None:
    grade = grade_texts(SEED, SEED_WRONG, (3, 3))
    assert grade.grade == "wrong" and grade.score == 0.0
    assert grade.first_error == 4
    assert grade.steps[3].tags == ("count_drift",)  # two silver clips vanished
    assert [c.correct for c in grade.steps] == [True, True, True, False]


def test_right_final_answer_with_a_wrong_step_is_core() -> None:
    grade = grade_texts(SEED, [SEED_RIGHT[0], "A: silver 5; B: 0; C: black 3", *SEED_RIGHT[2:]], (5, 5))
    assert grade.grade == "core" and grade.score == 0.5 and grade.first_error == 2


def test_missing_answers_are_invalid_and_counted_apart() -> None:
    assert grade_puzzle(SEED, [None] * 4, (None, None)).grade == "invalid"
    reports = [parse_report_text(t) for t in SEED_RIGHT]
    assert grade_puzzle(SEED, reports, (5, None)).grade == "invalid"
    assert grade_puzzle(SEED, reports[:3], (5, 5)).grade == "invalid"
    metrics = seat_metrics(
        [SEED, SEED], [grade_puzzle(SEED, [None] * 4, (None, None)), grade_texts(SEED, SEED_RIGHT, (5, 5))]
    )
    assert metrics["invalid"] == 1 and metrics["full"] == 1 and metrics["unparsable_rate"] == 0.5


def test_harmless_variation_is_normalised() -> None:
    variants = [
        {"a": {"Red": 3, "silver": "2", "gold": 0}, "box B": {}, "C": {"black": 4}},
        {"A": "red 3, 2 silver", "B": "empty", "C": {"black": 4}},
        {"A": {"red": 3, "silver": 2}, "C": "black=4"},  # an empty box left out
    ]
    for variant in variants:
        reports = [coerce_report(variant), *(parse_report_text(t) for t in SEED_RIGHT[1:])]
        assert grade_puzzle(SEED, reports, (5, 5)).grade == "full", variant
    assert parse_report_text('{"A": {"red": 3}, "B": {}}') == {"A": {"red": 3}, "B": {}}
    for bad in ("A red 3", "E: red 3", "A: red three", "A: red 3; A: red 2", ""):
        with pytest.raises(ValueError):
            parse_report_text(bad)


def test_the_answer_model_reads_compact_text_and_json_alike() -> None:
    model = batch_model(4)
    from_text = model.model_validate({**{f"step_{k + 1}": t for k, t in enumerate(SEED_RIGHT)}, "total": 5})
    as_json = {f"step_{k + 1}": parse_report_text(t) for k, t in enumerate(SEED_RIGHT)}
    assert reports_of(from_text) == list(as_json.values())
    with pytest.raises(ValueError, match="count"):
        model.model_validate({"step_1": {"A": {"red": -1}}})


# One state, one operation, and an answer with exactly one kind of mistake.
START = {"A": {"red": 5, "black": 1}, "B": {"blue": 1}, "C": {"black": 4}}


def tags_for(op: Operation, answer: str, start: State = START) -> tuple[str, ...]:
    puzzle = make_puzzle(start, [op], "A", "red")
    grade = grade_puzzle(puzzle, [parse_report_text(answer)], (0, 0))
    assert grade.first_error == 1
    return grade.steps[0].tags


MOVE_TWO_RED = Operation("move", src="A", dst="B", colour="red", count=2)  # A red 3 black 1, B blue 1 red 2


@pytest.mark.parametrize(
    ("op", "answer", "tags"),
    [
        (MOVE_TWO_RED, "A: red 3, black 1; B: blue 1, red 3; C: black 4", {"count_drift"}),
        (MOVE_TWO_RED, "A: red 2, black 1; B: blue 1, red 3; C: black 4", {"miscount"}),
        (MOVE_TWO_RED, "A: red 3, black 1; B: blue 1; C: black 4, red 2", {"wrong_box"}),
        (MOVE_TWO_RED, "A: red 5, black 1; B: blue 1; C: black 4", {"stale_state"}),
        (MOVE_TWO_RED, "A: red 3, black 1; B: blue 1, red 3; C: black 3", {"focus_loss"}),
        (
            MOVE_TWO_RED,
            "A: red 3; B: blue 1, red 2; C: black 4",
            {"colour_lost", "focus_loss", "count_drift"},
        ),
        (Operation("merge", src="A", dst="B"), "A: -; B: red 6, blue 1; C: black 4", {"colour_lost"}),
        (
            Operation("merge", src="A", dst="B"),
            "A: -; B: red 4, black 1, blue 1, green 1; C: black 4",
            {"phantom_colour"},
        ),
        (
            Operation("paint", box="A", colour="red", to="black"),
            "A: black 5; B: blue 1; C: black 4",  # forgot the black clip already there
            {"paint_changed_count", "count_drift"},
        ),
        (
            Operation("compare", src="A", dst="C"),
            "A: red 5, black 1; B: blue 2; C: black 4",
            {"focus_loss", "count_drift"},
        ),
    ],
)
def test_each_tag_comes_from_an_answer_with_exactly_that_mistake(
    op: Operation, answer: str, tags: set[str]
) -> None:
    assert set(tags_for(op, answer)) == tags


def test_an_early_slip_is_tagged_once_and_later_steps_carry_it() -> None:
    steps = [
        "A: red 3, silver 2; B: 0; C: black 3",
        "A: silver 5; B: 0; C: black 3",
        "A: silver 5, black 3; B: 0; C: 0",
        "A: black 3; B: 0; C: silver 5",
    ]
    grade = grade_texts(SEED, steps, (5, 5))
    assert grade.grade == "core" and grade.first_error == 1
    assert [c.tags for c in grade.steps] == [("count_drift",), ("carried",), ("carried",), ("carried",)]


def test_touched_reporting_grades_only_the_boxes_a_step_involves() -> None:
    touched = ["B: 0; C: black 4", "A: silver 5", "A: silver 5, black 4; C: 0", "A: black 4; C: silver 5"]
    assert grade_texts(SEED, touched, (5, 5), "touched").grade == "full"
    wrong = [*touched[:3], "A: black 4; C: silver 3"]
    grade = grade_texts(SEED, wrong, (5, 5), "touched")
    assert grade.grade == "core" and grade.first_error == 4 and grade.steps[3].tags == ("count_drift",)


def test_metrics_report_tiers_first_errors_tags_and_the_breaking_point() -> None:
    easy = make_puzzle(SEED.initial, list(SEED.operations), "C", "silver", tier="entry")
    hard = make_puzzle(SEED.initial, list(SEED.operations), "C", "silver", tier="hard")
    right, wrong = grade_texts(SEED, SEED_RIGHT, (5, 5)), grade_texts(SEED, SEED_WRONG, (3, 3))
    metrics = seat_metrics([easy, easy, hard, hard], [right, right, right, wrong])
    assert metrics["accuracy_by_tier"] == {"entry": 1.0, "hard": 0.5}
    assert metrics["breaking_point"] is None
    metrics = seat_metrics([easy, hard, hard], [right, wrong, wrong])
    assert metrics["breaking_point"] == "hard" and metrics["acc_hard"] == 0.0
    assert metrics["first_error"] == {"4": 2} and metrics["tags"] == {"count_drift": 2}
    assert (metrics["full"], metrics["core"], metrics["wrong"], metrics["invalid"]) == (1, 0, 2, 0)
