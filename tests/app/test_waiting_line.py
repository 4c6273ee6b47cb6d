"""While a step waits: models show a spinner and their seconds so far, a person is waited for."""

from __future__ import annotations

from arena.app.match_model import MatchModel, SeatStats
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


def _model(kinds: dict[str, str], humans: list[str]) -> tuple[MatchModel, Clock]:
    clock = Clock()
    model = MatchModel(
        "bargain", list(kinds), {seat: kind for seat, kind in kinds.items()}, human_seats=humans
    )
    model.clock = clock
    model.status = "running"
    for seat, kind in kinds.items():
        model.stats[seat] = SeatStats(seat, kind, kind)
    return model, clock


def test_a_model_seat_shows_how_long_it_has_been_deciding() -> None:
    model, clock = _model({"seller": "model", "buyer": "baseline"}, [])
    model(step(0, "seller"))
    clock.now += 72.3
    line = model.status_line()
    assert "seller deciding" in line and line.endswith(" 72s"), line
    clock.now += 0.1
    assert model.status_line() != line, "the spinner moves on"


def test_a_baseline_is_never_listed_as_deciding_and_a_person_is_waited_for() -> None:
    model, _ = _model({"seller": "human", "buyer": "baseline"}, ["seller"])
    model(step(1, "buyer"))
    assert "deciding" not in model.status_line() and "buyer" not in model.status_line()
    model(step(2, "seller"))
    assert "waiting for you (seller)" in model.status_line()
