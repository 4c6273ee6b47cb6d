"""A Cattle Trade model seat for the wire server: answers each prompt from its legal-move summary.

:class:`CattleResponder` reads what the game sent (the seat, its money, the legal moves) and
replies with a plain legal move, as a model that read the prompt would: auction while the
deck lasts, bid the floor while it is cheap, sell, pay ``auto``, counter with its biggest
card, write notes. It sees only the prompt text, so a game playing to its end through it also
shows the summary is enough to move legally. ``bad`` queues unusable replies for a seat's
first prompts of a kind (unreadable JSON, an illegal bid, cards it does not hold).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tests.support.wire_server import Behaviour, prompt_of, reply

FEEDBACK_MARK = "Your previous "
"""How every re-ask note starts (it then names the failure: players.models.prompting)."""
NOTES_INPUT_TOKENS, NOTES_OUTPUT_TOKENS = 700, 90
"""Usage the responder reports for a notes call (other calls: the wire server's 120 + 30)."""
BID_CAP = 60
"""The responder bids the floor only while it is at most this much."""


@dataclass
class Prompt:
    """The parts of one Cattle Trade prompt the responder reads."""

    seat: str
    kind: str
    """turn, bidding, sale, payment, response, reoffer or notes (from the legal moves)."""
    hand: list[int]
    legal: list[str]
    turn: int
    reask: bool

    @property
    def floor(self) -> int:
        """The lowest legal bid (bidding only)."""
        match = re.search(r"at least (\d+)", self.legal[0])
        assert match, self.legal
        return int(match.group(1))


def read_prompt(text: str) -> Prompt:
    """Read the latest prompt in a request's user text (a re-ask repeats the prompt first)."""
    seat = re.search(r"^You are (p\d),", text, re.MULTILINE)
    money = re.findall(r"^Your money cards: ([\d ]*?) ?\(total", text, re.MULTILINE)
    turn = re.findall(r"^Current state \(turn (\d+) ", text, re.MULTILINE)
    legal_block = text.rsplit("Legal moves:\n", 1)[-1].split("\n\n", 1)[0]
    legal = [line[2:] for line in legal_block.splitlines() if line.startswith("- ")]
    assert seat and money and turn and legal, text[-2000:]
    first = legal[0]
    kind = next(
        name
        for prefix, name in (
            ("auction", "turn"),
            ("challenge", "turn"),
            ("bid ", "bidding"),
            ("sell", "sale"),
            ("pay cards", "payment"),
            ("accept", "response"),
            ("offer cards", "reoffer"),
            ("notes", "notes"),
        )
        if first.startswith(prefix)
    )
    hand = [int(card) for card in money[-1].split()]
    return Prompt(seat.group(1), kind, hand, legal, int(turn[-1]), FEEDBACK_MARK in text)


@dataclass
class CattleResponder:
    """The wire server's ``responder`` for Cattle Trade seats (all model seats of one game)."""

    bad: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    """(seat, kind) -> raw replies sent, in order, before any good one for that kind."""
    low_bids: dict[str, int] = field(default_factory=dict)
    """seat -> how many bids below the floor to send (once a standing bid exists; a re-ask too)."""
    seen: list[Prompt] = field(default_factory=list)
    sent: list[tuple[Prompt, str]] = field(default_factory=list)
    notes_written: dict[str, list[str]] = field(default_factory=dict)
    kinds: Counter[str] = field(default_factory=Counter)

    def __call__(self, body: Any) -> Behaviour:
        prompt = read_prompt(prompt_of(body))
        self.seen.append(prompt)
        self.kinds[prompt.kind] += 1
        queued = self.bad.get((prompt.seat, prompt.kind))
        last = next((text for asked, text in reversed(self.sent) if asked.seat == prompt.seat), "")
        if queued:
            text = queued.pop(0)
        elif self._bids_low(prompt, last):
            self.low_bids[prompt.seat] -= 1
            text = json.dumps({"action": "bid", "amount": prompt.floor - 10, "reason": "cheap"})
        else:
            text = json.dumps(self.move(prompt))
        self.sent.append((prompt, text))
        if prompt.kind == "notes":
            return reply(text, input_tokens=NOTES_INPUT_TOKENS, output_tokens=NOTES_OUTPUT_TOKENS)
        return reply(text)

    def _bids_low(self, prompt: Prompt, last: str) -> bool:
        """Whether to answer with a bid that does not beat the standing one (illegal in canonical mode).

        Only on a fresh prompt with a standing bid, or on the re-ask after such a bid.
        """
        if prompt.kind != "bidding" or not self.low_bids.get(prompt.seat) or prompt.floor <= 10:
            return False
        return not prompt.reask or '"cheap"' in last

    def move(self, prompt: Prompt) -> dict[str, Any]:
        """A legal move read from the prompt alone."""
        hand, legal = prompt.hand, prompt.legal
        biggest = str(max(hand)) if hand else ""
        if prompt.kind == "turn":
            if legal[0].startswith("auction"):
                return {"move": "auction", "reason": "draw"}
            match = re.match(r"challenge (p\d) for \d+ (\w+) ", legal[0])
            assert match, legal
            target, species = match.groups()
            return {"move": "challenge", "target": target, "species": species, "cards": biggest}
        if prompt.kind == "bidding":
            if prompt.floor <= min(BID_CAP, sum(hand)):
                return {"action": "bid", "amount": prompt.floor, "reason": "cheap enough"}
            return {"action": "pass", "reason": "too dear"}
        if prompt.kind == "sale":
            return {"action": "sell", "reason": "take the money"}
        if prompt.kind == "payment":
            return {"cards": "auto", "reason": "smallest overpay"}
        if prompt.kind == "response":
            if len(legal) > 1:
                return {"action": "counter", "cards": biggest, "reason": "defend"}
            return {"action": "accept", "reason": "no cards"}
        if prompt.kind == "reoffer":
            return {"cards": biggest, "reason": "again"}
        notes = f"{prompt.seat} after turn {prompt.turn}: holding {sum(hand)}"
        self.notes_written.setdefault(prompt.seat, []).append(notes)
        return {"notes": notes, "reason": "remember"}
