"""Metric cells and rows as every results table shows them: words for names, rows for a dict."""

from __future__ import annotations

from arena.contract.labels import label
from arena.display.values import format_value, metric_rows


def test_a_name_in_code_reads_as_words() -> None:
    assert label("your_last_offer") == "your last offer"
    assert label("step_3") == "step 3"
    assert label("_Offer.price") == "Offer.price"
    assert label("score") == "score"


def test_a_dict_metric_is_one_row_per_key_with_the_seats_side_by_side() -> None:
    rows = metric_rows("accuracy_by_tier", [{"entry": 0.5, "medium": 1.0}, {"entry": 0.25}])
    assert rows == [
        ("accuracy by tier: entry", ["0.5000", "0.2500"]),
        ("accuracy by tier: medium", ["1.00", "-"]),
    ]
    assert metric_rows("tags", [{}, {}]) == [("tags", ["none", "none"])]
    blank_kept = [("first error: 3", ["1", ""])]
    assert metric_rows("first_error", [{"3": 1}, ""]) == blank_kept, "a blank stays blank"


def test_a_plain_metric_keeps_one_row_and_its_shared_decimals() -> None:
    assert metric_rows("in_zone", [True, False]) == [("in zone", ["yes", "no"])]
    assert metric_rows("gross_margin", [0.375, -0.2215]) == [("gross margin", ["0.3750", "-0.2215"])]


def test_a_dict_or_list_outside_a_table_is_words_not_python() -> None:
    assert format_value({"count_drift": 2, "entry": 0.5}) == "count drift 2, entry 0.5000"
    assert format_value(["a", 1]) == "a, 1"
    assert "{" not in format_value({}) and "[" not in format_value([])
