"""The console human: one form at a time, its board first, leaving is not a crash."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator

import pytest

from arena.contract.player import UserLeft
from arena.engine.runner import decision_request
from games.bargain import BargainState
from games.bargain.rules import BargainAction
from games.lemonade import LemonadeState
from games.lemonade.rules import LemonadeDecision
from players.console_human import ConsoleDesk, ConsoleHuman
from tests.support.gamekit import new_bargain, new_lemonade


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
        # the board, the seat's rules (its first form), then its form
        assert next(e for e in block if e.startswith("== seat")).startswith(f"== seat {seat}: your move")
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


async def test_the_cups_prompt_shows_todays_cash_limit_and_a_rejected_field_keeps_the_others() -> None:
    game = new_lemonade(1)
    request = decision_request(game, "a", 0)
    log: list[str] = []
    lines = ["2", "500", str(await _limit(game)), "", "my reason"]
    reader, writer = scripted(lines, log)
    decision = await ConsoleHuman(reader, writer).decide(request)
    produce_prompt = next(entry for entry in log if entry.strip().startswith("produce"))
    limit = int(produce_prompt.split(" to ")[1].split(")")[0].split(" ")[0])
    # The action model carries the morning's limit (issue 47.1), so the prompt states it as declared.
    assert 0 < limit < 1000, "the real limit, not the cap of 1000"
    assert request.check is not None and isinstance(decision.action, LemonadeDecision)
    assert request.check(decision.action) is None
    assert f"  produce must be at most {limit}, not 500" in log, "checked as soon as it is entered"
    action = decision.action
    assert isinstance(action, LemonadeDecision) and action.price == 2 and action.produce == limit
    assert sum(1 for entry in log if entry.strip().startswith("price")) == 1, "the price is not asked again"
    assert game.validate("a", action.model_copy(update={"produce": limit + 1})) is not None


async def test_a_promotion_the_cash_cannot_cover_is_refused_at_once_and_the_rest_is_kept() -> None:
    game = new_lemonade(1)
    request = decision_request(game, "a", 0)
    log: list[str] = []
    produce = await _limit(game)
    # bundle's fixed cost lowers the limit below what was entered with no promotion
    lines = ["2", str(produce), "bundle", "none", "kept"]
    reader, writer = scripted(lines, log)
    decision = await ConsoleHuman(reader, writer).decide(request)
    action = decision.action
    assert isinstance(action, LemonadeDecision)
    assert (action.price, action.produce, action.promotion, decision.reason) == (2, produce, "none", "kept")
    refusal = log.index(next(entry for entry in log if entry.startswith("  not allowed:")))
    assert log[refusal + 1].strip().startswith("promotion"), "asked again right away, not the whole form"
    assert sum(1 for entry in log if entry.strip().startswith(("price", "produce"))) == 2


async def test_accepting_in_bargain_skips_the_price_and_keeps_the_message() -> None:
    game = new_bargain(1)
    await _offer(game)
    request = decision_request(game, "buyer", 1)
    log: list[str] = []
    reader, writer = scripted(["accept", "deal, thanks", "fair enough"], log)
    decision = await ConsoleHuman(reader, writer).decide(request)
    assert isinstance(decision.action, BargainAction) and decision.action.action == "accept"
    assert decision.action.message == "deal, thanks"  # the rules: either action may carry a message
    asked = [entry.strip().split(" ")[0] for entry in log if entry.startswith("  ") and entry.endswith(": ")]
    assert asked == ["action", "message", "reason"]
    assert "blank keeps" not in log[0], "no field of a bargain move has a default to keep"


async def _limit(game: LemonadeState) -> int:
    """The most cups seat a may make on day 1 with no promotion, from the game's own check."""
    produce = 0
    while game.validate("a", LemonadeDecision(price=2, produce=produce + 1)) is None:
        produce += 1
    return produce


async def _offer(game: BargainState) -> None:
    """The seller opens just below the buyer's value (accepting it gains the buyer 1)."""
    game.apply({"seller": BargainAction(action="offer", price=game.deal.value - 1)})


async def test_accepting_a_losing_price_asks_first_and_no_keeps_the_move_open() -> None:
    game = new_bargain(1)
    game.apply({"seller": BargainAction(action="offer", price=game.deal.value + 7)})
    log: list[str] = []
    reader, writer = scripted(["accept", "", "", "n", "offer", "40", "", ""], log)
    decision = await ConsoleHuman(reader, writer).decide(decision_request(game, "buyer", 1))
    assert f"  accepting {game.deal.value + 7} loses you 7; go ahead? y/N: " in log
    assert isinstance(decision.action, BargainAction)
    assert (decision.action.action, decision.action.price) == ("offer", 40)
    log.clear()
    reader, writer = scripted(["accept", "", "", "y"], log)
    decision = await ConsoleHuman(reader, writer).decide(decision_request(game, "buyer", 1))
    assert isinstance(decision.action, BargainAction) and decision.action.action == "accept"


async def test_accepting_a_winning_price_is_not_questioned() -> None:
    game = new_bargain(1)
    game.apply({"seller": BargainAction(action="offer", price=game.deal.value - 1)})
    log: list[str] = []
    reader, writer = scripted(["accept", "", ""], log)
    decision = await ConsoleHuman(reader, writer).decide(decision_request(game, "buyer", 1))
    assert isinstance(decision.action, BargainAction) and decision.action.action == "accept"
    assert not any("go ahead" in entry for entry in log)


async def test_a_choice_the_rules_refuse_for_an_earlier_answer_goes_back_to_that_answer() -> None:
    """Produce 41, then the bundle's signs leave cash for 37: bundle again goes back to produce.

    It asked the promotion again and again, where only another promotion could help (issue 45).
    """
    log: list[str] = []
    reader, writer = scripted(["2", "41", "bundle", "bundle", "30", "", ""], log)
    decision = await ConsoleHuman(reader, writer).decide(decision_request(new_lemonade(1), "a", 0))
    assert isinstance(decision.action, LemonadeDecision)
    assert (decision.action.produce, decision.action.promotion) == (30, "bundle")
    assert "  back to produce; blank keeps what is in brackets" in log


async def test_the_rules_are_printed_at_the_start_and_on_a_question_mark_and_choices_by_number() -> None:
    game = new_bargain(1)
    request = decision_request(game, "seller", 0)
    log: list[str] = []
    reader, writer = scripted(["?", "1", "40", "", ""], log)
    decision = await ConsoleHuman(reader, writer).decide(request)
    assert isinstance(decision.action, BargainAction)
    assert (decision.action.action, decision.action.price) == ("offer", 40), "1: the first listed choice"
    first_line = request.rules.strip().splitlines()[0]
    assert log.count(f"  {first_line}") == 2, "the rules once at the start, once more on ?"
    assert log.index(f"  {first_line}") < next(i for i, line in enumerate(log) if line.startswith("== seat"))
