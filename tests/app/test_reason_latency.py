"""A reason shows its latency only where it means something: never for a scripted baseline.

A baseline's time is the machine's load (a busy machine made a 10 ms decision show as
"[0.01s]" in one capture and not the next); a model's or a person's is theirs.
"""

from __future__ import annotations

from arena.app.match_data import ReasonLine
from arena.app.widgets.panels import reason_entry
from arena.contract.usage import NO_USAGE


def shown(timed: bool, latency: float) -> str:
    line = ReasonLine(0, "steady", "price 3", "", NO_USAGE, latency, timed=timed)
    return reason_entry(line).plain


def test_a_baseline_never_shows_its_latency() -> None:
    assert "s]" not in shown(False, 0.5)


def test_a_model_or_person_shows_a_latency_worth_showing() -> None:
    assert shown(True, 0.5).endswith("steady  [0.50s]")
    assert "s]" not in shown(True, 0.001)
