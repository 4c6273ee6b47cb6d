"""The console human: one form at a time, its board first, leaving is not a crash."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator

import pytest

from arena.player import UserLeft
from arena.runner import decision_request
from games.bargain.rules import BargainAction
from players.console_human import ConsoleDesk, ConsoleHuman
from tests.gamekit import new_bargain, new_lemonade


def scripted(lines: list[str], log: list[str]) -> tuple[Callable[[str], str], Callable[[str], None]]:
    """A reader answering ``lines`` in order and a writer, both logging to ``log``."""
    answers: Iterator[str] = iter(lines)

    def reader(prompt: str) -> str:
        log.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    return reader, log.append


async def test_the_form_is_read_on_a_thread_that_never_keeps_the_process_alive() -> None:
    # After ^C the process must not wait for a line nobody will type.
    daemon: list[bool] = []

    def reader(prompt: str) -> str:
        daemon.append(threading.current_thread().daemon)
        return {"action": "offer", "price": "40"}.get(prompt.strip().split(" ")[0], "")

    game = new_bargain(1)
    decision = await ConsoleHuman(reader, lambda text: None).decide(decision_request(game, "seller", 0))
    assert isinstance(decision.action, BargainAction) and decision.action.price == 40
    assert daemon and all(daemon)


async def test_end_of_input_is_the_person_leaving(capsys: pytest.CaptureFixture[str]) -> None:
    log: list[str] = []
    reader, writer = scripted(["3"], log)
    desk = ConsoleDesk()
    human = ConsoleHuman(reader, writer, desk=desk)
    with pytest.raises(UserLeft, match="the input ended at seat a's move"):
        await human.decide(decision_request(new_lemonade(1), "a", 0))
    assert not desk.at_prompt and capsys.readouterr().out == "\n", "what follows starts on a new line"


async def test_two_seats_deciding_at_once_take_turns_each_after_its_own_board() -> None:
    log: list[str] = []
    lines = ["2", "10", "", "a thinks", "3", "12", "", "b thinks"]
    reader, writer = scripted(lines, log)
    desk = ConsoleDesk(show_board=lambda seat: log.append(f"BOARD {seat}"))
    game = new_lemonade(1)
    humans = [ConsoleHuman(reader, writer, desk=desk) for _ in game.seats]
    decisions = await asyncio.gather(
        *(
            human.decide(decision_request(game, seat, 0))
            for human, seat in zip(humans, game.seats, strict=True)
        )
    )
    reasons = sorted(d.reason for d in decisions)
    assert reasons == ["a thinks", "b thinks"]
    boards = [i for i, entry in enumerate(log) if entry.startswith("BOARD")]
    assert len(boards) == 2
    first, second = log[boards[0] : boards[1]], log[boards[1] :]
    for block in (first, second):
        seat = block[0].removeprefix("BOARD ")
        assert block[1].startswith(f"== seat {seat}: your move")
        assert sum(1 for entry in block if entry.startswith("== seat")) == 1, "forms never interleave"


async def test_once_the_input_ends_no_other_seat_opens_a_form(capsys: pytest.CaptureFixture[str]) -> None:
    log: list[str] = []
    reader, writer = scripted([], log)
    desk = ConsoleDesk(show_board=lambda seat: log.append(f"BOARD {seat}"))
    game = new_lemonade(1)
    humans = {seat: ConsoleHuman(reader, writer, desk=desk) for seat in game.seats}
    outcomes = await asyncio.gather(
        *(human.decide(decision_request(game, seat, 0)) for seat, human in humans.items()),
        return_exceptions=True,
    )
    assert all(isinstance(outcome, UserLeft) for outcome in outcomes)
    assert sum(1 for entry in log if entry.startswith("== seat")) == 1, "nothing is asked after leaving"
    assert sum(1 for entry in log if entry.startswith("BOARD")) == 1
    assert capsys.readouterr().out == "\n"
