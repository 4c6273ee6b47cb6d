"""A person plays Cattle Trade at the console: an auction (bid, win, pay) and a trade challenge.

The real runner, store and :class:`~players.console_human.ConsoleHuman` with two baselines; the
person's lines come from :class:`~tests.support.cattle_person.CattlePerson`, which reads the
seat's observation as the form opens. Once both are done the person leaves (end of input).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from arena.engine.match import MatchConfig, prepare_runner, run_to_end
from arena.engine.runner import EpisodeRunner
from arena.store.database import Store
from games.cattle.cards import show
from players.console_human import ConsoleDesk, ConsoleHuman
from tests.support.cattle_person import NOT_HELD, CattlePerson
from tests.support.episodes import stored_turns

SEATS = {"p1": "human", "p2": "baseline:cautious", "p3": "baseline:random"}


class ConsolePerson:
    """Answers the console's prompts from the person's plan, one form at a time, and keeps every line."""

    def __init__(self) -> None:
        self.plan = CattlePerson()
        self.log: list[str] = []
        self.runner: EpisodeRunner | None = None
        self.entries: dict[str, str] | None = None
        self.answered: set[str] = set()
        self.payments: list[tuple[list[int], int]] = []
        """(hand, price) at each payment form."""

    def write(self, text: str) -> None:
        self.log.append(text)
        if text.startswith("== seat"):
            self.entries = None  # a new form: the plan reads the observation at its first prompt

    def read(self, prompt: str) -> str:
        self.log.append(prompt)
        if "go ahead?" in prompt:
            return "y"
        name = prompt.strip().split(" ")[0]
        if name == "reason":
            return ""
        assert self.runner is not None
        # The runner waits for this answer, so the state holds still while the plan reads it.
        observation = self.runner.game.observation("p1")
        if self.entries is None or name in self.answered:
            if self.entries is None and self.plan.finished(observation):
                raise EOFError  # done: the person leaves
            if self.entries is None and observation.moment.phase == "payment":
                self.payments.append((list(observation.your_money), observation.moment.price or 0))
            self.entries, self.answered = self.plan.entries(observation), set()
        self.answered.add(name)
        return self.entries.get(name, "")


async def test_a_person_at_the_console_wins_an_auction_pays_and_challenges(tmp_path: Path) -> None:
    person = ConsolePerson()
    store = Store(tmp_path / "arena.db")
    desk = ConsoleDesk()
    config = MatchConfig(game="cattle", seats=SEATS, seed=0, options={"players": 3})
    runner = prepare_runner(
        config, store, [], human_factory=lambda seat: ConsoleHuman(person.read, person.write, desk=desk)
    )
    person.runner = runner
    outcome = await run_to_end(runner)
    assert outcome.status == "aborted", "the person left once both were done"
    plan, log = person.plan, "\n".join(person.log)
    assert plan.paid and plan.challenged, plan.done
    # the payment: the field's hint names the person's own cards and the price ...
    hand, price = person.payments[-1]
    assert f"cards (you hold {show(hand)} (= {sum(hand)}); price {price}, or 'auto') [auto]" in log
    # ... a card not held is refused as typed, then the running total and the overpay question
    assert f"you do not hold {NOT_HELD} (you hold {show(hand)})" in log
    paid = next(entry for entry in plan.done if entry.startswith("pay ")).removeprefix("pay ")
    total = sum(int(card) for card in paid.split())
    assert f"= {total}, price {price}, {total - price} over (lost: no change)" in log
    assert f"you pay {total} for a price of {price}: the {total - price} over is lost; go ahead? y/N" in log
    # the challenge: the offer's running total as typed
    challenge = next(entry for entry in plan.done if entry.startswith("challenge "))
    target, species, cards = re.fullmatch(r"challenge (\w+) (\w+) with (\d+)", challenge).groups()  # type: ignore[union-attr]
    assert f"= {cards} in 1 card" in log
    # challenged in turn, the person counters: the hint names the count of the challenger's cards
    assert plan.countered and re.search(r"cards \(you hold [\d ]+ \(= \d+\); p\d laid \d+ cards?\)", log)
    turns = stored_turns(store, outcome.episode_id or 0)
    episode = store.episode(outcome.episode_id or 0)
    store.close()
    assert episode is not None and episode["status"] == "aborted"
    mine = [t for t in turns if t["seat"] == "p1"]
    assert any(t["action"].get("action") == "bid" for t in mine)
    payment = next(t for t in mine if "cards" in t["action"] and set(t["action"]) <= {"cards", "reason"})
    assert payment["action"]["cards"] == paid and payment["action_text"] == f"pay {len(paid.split())} cards"
    index = next(
        i for i, t in enumerate(turns) if t["seat"] == "p1" and t["action"].get("move") == "challenge"
    )
    assert turns[index]["action"] | {"reason": ""} == {
        "move": "challenge",
        "target": target,
        "species": species,
        "cards": cards,
        "reason": "",
    }
    answer: dict[str, Any] = turns[index + 1]
    assert answer["seat"] == target and answer["action"]["action"] in ("accept", "counter"), (
        "the other answers"
    )
    assert "Traceback" not in log
