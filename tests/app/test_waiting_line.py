"""While a step waits: models show a spinner and their seconds so far, a person is waited for."""

from __future__ import annotations

from arena.app.match_data import MatchData, SeatStats
from arena.contract.records import StepStarted
from tests.support.gamekit import new_bargain


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def step(number: int, seat: str) -> StepStarted:
    """A step-started record for one deciding seat, with what that seat sees."""
    return StepStarted(step=number, seats=(seat,), observations={seat: new_bargain(1).observation(seat)})


def _match_data(kinds: dict[str, str], humans: list[str]) -> tuple[MatchData, Clock]:
    clock = Clock()
    data = MatchData("bargain", list(kinds), {seat: kind for seat, kind in kinds.items()}, human_seats=humans)
    data.clock = clock
    data.status = "running"
    for seat, kind in kinds.items():
        data.stats[seat] = SeatStats(seat, kind, kind)
    return data, clock


def test_a_model_seat_shows_how_long_it_has_been_deciding() -> None:
    data, clock = _match_data({"seller": "model", "buyer": "baseline"}, [])
    data(step(0, "seller"))
    clock.now += 72.3
    line = data.status_line()
    assert "seller deciding" in line and line.endswith(" 72s"), line
    clock.now += 0.1
    assert data.status_line() != line, "the spinner moves on"


def test_a_baseline_is_never_listed_as_deciding_and_a_person_is_waited_for() -> None:
    data, _ = _match_data({"seller": "human", "buyer": "baseline"}, ["seller"])
    data(step(1, "buyer"))
    assert "deciding" not in data.status_line() and "buyer" not in data.status_line()
    data(step(2, "seller"))
    assert "your move (seller)" in data.status_line()
