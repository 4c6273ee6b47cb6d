"""Transcript memory: a seat's earlier turns of the episode, sent back as conversation.

With ``memory = "transcript"`` (models file) a model player keeps, per ``(episode,
seat)``, the prompt and its own raw reply of every earlier step, and sends them before
the current prompt instead of one stateless prompt per decision.

Layout, chosen so the stable prefix leads and stays byte-identical between turns
(provider prompt caches match on prefixes):

* the system message (schema), then the first user message, which starts with the
  game's rules when the prompt starts with them (``head``: the rules and the blank
  line after them);
* each earlier turn as ``user`` (its prompt without that rules head) and ``assistant``
  (the model's own reply), oldest first;
* the current prompt (without the rules head when there is history).

Trimming rule (``memory_budget_tokens``, default 8000): tokens are estimated as
``ceil(chars / 4)`` over the system message and every message. An offline model counts
instead with its own tokenizer, each piece plus the chat template's markup of one
message, and its budget is capped to what its context leaves after the reply cap
(:attr:`~players.models.config.ModelSettings.memory_budget`); a re-ask's extra messages
count towards that budget too. The system message, the rules head and the current
prompt are always kept. When the estimate is over the budget,
the oldest earlier turns (prompt and reply) are dropped: the fewest that bring it under
the budget, rounded up to a multiple of ``TRIM_BLOCK`` (8) turns. Dropping in blocks
keeps the first remembered turn, and so the cached prefix, the same for several turns
in a row instead of changing on every turn once the budget is reached.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from arena.contract.player import DecisionRequest


@dataclass(slots=True)
class ChatMessage:
    """One turn of the conversation sent to a provider."""

    role: Literal["user", "assistant"]
    content: str
    head: int = 0
    """Length of the stable leading part of ``content`` (the game's rules): a cache breakpoint."""
    cache_mark: bool = False
    """True on the last message of the remembered turns: the cached prefix may end here."""


TRIM_BLOCK = 8
"""Earlier turns are dropped in blocks of this many (see the trimming rule above)."""
MAX_TRANSCRIPTS = 256
"""Transcripts kept per player (least recently used dropped first)."""


@dataclass(slots=True)
class Turn:
    """One earlier decision of a seat: the prompt it got and the reply it gave."""

    prompt: str
    reply: str
    size: int = -1
    """Tokens of the turn as sent (prompt without the rules head, and reply); -1: not counted yet."""


@dataclass(slots=True)
class Remembered:
    """What memory adds to a decision: the rules head and the earlier turns kept."""

    head: str
    turns: list[tuple[str, str]]
    dropped: int


def estimate_tokens(text: str) -> int:
    """The token estimate of the trimming rule: ``ceil(chars / 4)``."""
    return math.ceil(len(text) / 4)


def split_head(prompt: str, rules: str) -> tuple[str, str]:
    """``(head, body)`` of a prompt: the head is the rules and the blank line after them.

    A prompt that does not start with the rules has an empty head.
    """
    if not rules or not prompt.startswith(rules):
        return "", prompt
    body = prompt[len(rules) :].lstrip("\n")
    return prompt[: len(prompt) - len(body)], body


class TranscriptMemory:
    """Earlier turns per ``(episode, seat)``, each kept by step (a re-ask replaces its step)."""

    def __init__(self, budget_tokens: int, count: Callable[[str], int] = estimate_tokens) -> None:
        self.budget_tokens = budget_tokens
        self.count = count
        """How the tokens of one piece of text are counted (see :meth:`count_with`)."""
        self._transcripts: OrderedDict[tuple[str, str], dict[int, Turn]] = OrderedDict()

    def count_with(self, count: Callable[[str], int]) -> None:
        """Count tokens with ``count`` from now on (an offline model's own tokenizer)."""
        self.count = count
        for turns in self._transcripts.values():
            for turn in turns.values():
                turn.size = -1

    def record(self, episode: str, seat: str, step: int, prompt: str, reply: str) -> None:
        """Remember the reply given at ``step`` (empty replies are not remembered)."""
        if not reply.strip():
            return
        key = (episode, seat)
        turns = self._transcripts.setdefault(key, {})
        self._transcripts.move_to_end(key)
        turns[step] = Turn(prompt, reply)
        while len(self._transcripts) > MAX_TRANSCRIPTS:
            self._transcripts.popitem(last=False)

    def messages(self, request: DecisionRequest, system: str, reserve: int = 0) -> list[ChatMessage]:
        """The remembered turns that fit the budget, then the current prompt.

        The rules head leads the first message and is removed from the current prompt
        when turns precede it. Just the prompt when nothing is remembered. ``reserve``
        tokens of the budget are kept for messages the caller adds after these.
        """
        prompt = request.prompt
        fixed = self.count(system) + self.count(prompt) + reserve
        kept = self.recall(
            request.episode, request.seat, request.step, rules=request.rules, prompt=prompt, fixed=fixed
        )
        head = kept.head
        messages: list[ChatMessage] = []
        for index, (user, reply) in enumerate(kept.turns):
            first = index == 0
            messages.append(ChatMessage("user", head + user if first else user, len(head) if first else 0))
            messages.append(ChatMessage("assistant", reply))
        if not messages:
            return [ChatMessage("user", prompt, len(head))]
        messages[-1].cache_mark = True
        messages.append(ChatMessage("user", prompt[len(head) :]))
        return messages

    def recall(
        self, episode: str, seat: str, step: int, *, rules: str, prompt: str, fixed: int
    ) -> Remembered:
        """The rules head and the earlier turns (before ``step``) that fit the budget.

        ``fixed`` is the estimated tokens of what is always sent besides the history (the
        system message and the current prompt).
        """
        head, _ = split_head(prompt, rules)
        earlier = sorted((s, t) for s, t in self._transcripts.get((episode, seat), {}).items() if s < step)
        turns = [(split_head(t.prompt, rules)[1], t.reply) for _, t in earlier]
        for (_, turn), (body, reply) in zip(earlier, turns, strict=True):
            if turn.size < 0:  # the rules, and so the body, are the same for every turn of a seat
                turn.size = self.count(body) + self.count(reply)
        sizes = [turn.size for _, turn in earlier]
        total = fixed + sum(sizes)
        needed = 0
        while needed < len(turns) and total > self.budget_tokens:
            total -= sizes[needed]
            needed += 1
        dropped = min(len(turns), -(-needed // TRIM_BLOCK) * TRIM_BLOCK)
        return Remembered(head, turns[dropped:], dropped)
