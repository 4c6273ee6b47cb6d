"""What decisions cost: one value type, from a player's report to a tournament's totals.

A player reports a :class:`Usage` per decision; the runner adds a seat's attempts into its
turn's record and its turns into the seat's total (the recorder stores both); the app's
match view and the tournament standings add up the same values. Adding is ``+`` (or
:meth:`Usage.total`), nothing else; a holder of other facts (decisions, fallbacks, episodes)
keeps a ``Usage`` beside them rather than copies of its fields.

A model with no price has spent tokens at an unknown number of dollars: its usage says so
(``unpriced``), and :meth:`Usage.cost_text` never shows such a cost as ``$0``. The stored
columns hold the priced dollars only (0 for an unpriced model), as they always have.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

USAGE_COLUMNS: tuple[str, ...] = (
    "input_tokens",
    "output_tokens",
    "cached_tokens",
    "cache_write_tokens",
    "reasoning_tokens",
    "cost_usd",
)
"""The ``turns`` columns a usage is stored in, in the order of :meth:`Usage.columns`."""


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens and money spent: by one decision, one turn, one seat or one player over a tournament.

    Zero for scripted players and people. ``input_tokens`` counts every input token;
    ``cached_tokens`` of them were read from the provider's prompt cache and
    ``cache_write_tokens`` written to it (each priced at its own rate in ``cost_usd``).
    ``unpriced``: some of these tokens were spent at no known price, so ``cost_usd`` counts
    only the priced ones and the true cost is unknown.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0
    cost_usd: float = 0.0
    unpriced: bool = False

    def __add__(self, other: Usage) -> Usage:
        """Both usages together (unpriced if either is)."""
        # Most additions involve a scripted seat's zero: keep the other value, build nothing.
        if other is NO_USAGE:
            return self
        if self is NO_USAGE:
            return other
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cached_tokens + other.cached_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
            self.reasoning_tokens + other.reasoning_tokens,
            self.cost_usd + other.cost_usd,
            self.unpriced or other.unpriced,
        )

    @classmethod
    def total(cls, usages: Iterable[Usage]) -> Usage:
        """The sum of ``usages``, added in their order (:data:`NO_USAGE` when there are none)."""
        total = NO_USAGE
        for usage in usages:
            total = total + usage
        return total

    @classmethod
    def from_columns(cls, row: Mapping[str, Any], *, unpriced: bool = False) -> Usage:
        """A usage from stored columns named as in :data:`USAGE_COLUMNS` (a missing one is 0)."""
        return cls(
            input_tokens=row.get("input_tokens") or 0,
            output_tokens=row.get("output_tokens") or 0,
            cached_tokens=row.get("cached_tokens") or 0,
            cache_write_tokens=row.get("cache_write_tokens") or 0,
            reasoning_tokens=row.get("reasoning_tokens") or 0,
            cost_usd=row.get("cost_usd") or 0.0,
            unpriced=unpriced,
        )

    def columns(self) -> tuple[int | float, ...]:
        """The stored values, in :data:`USAGE_COLUMNS` order (an unpriced model's dollars are stored as 0)."""
        return (
            self.input_tokens,
            self.output_tokens,
            self.cached_tokens,
            self.cache_write_tokens,
            self.reasoning_tokens,
            self.cost_usd,
        )

    @property
    def total_tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens

    @property
    def spent(self) -> bool:
        """Whether any token or dollar was spent (a scripted player's or a person's usage is not)."""
        return bool(
            self.input_tokens
            or self.output_tokens
            or self.cached_tokens
            or self.cache_write_tokens
            or self.reasoning_tokens
            or self.cost_usd
        )

    def tokens_text(self) -> str:
        """``1200+40 tok (900 cached, 250 written to cache)``; the cache parts only when not zero."""
        text = f"{self.input_tokens}+{self.output_tokens} tok"
        cache = [f"{self.cached_tokens} cached"] if self.cached_tokens else []
        if self.cache_write_tokens:
            cache.append(f"{self.cache_write_tokens} written to cache")
        return f"{text} ({', '.join(cache)})" if cache else text

    def cost_text(self) -> str:
        """``$0.0012``; ``no price`` for an unpriced model (never ``$0``); both parts for a mix."""
        if not self.unpriced:
            return f"${self.cost_usd:.4f}"
        if self.cost_usd:
            return f"${self.cost_usd:.4f} + no price for some"
        return "no price"


NO_USAGE = Usage()
"""Nothing spent: the one shared value of every scripted decision and every person's."""


def has_price(config: Mapping[str, Any]) -> bool:
    """Whether a model's configuration prices its tokens: an input or an output price that is not 0,
    or ``free`` (both prices given as 0 on purpose: a free model, whose $0 is known).

    A model without one spends tokens at an unknown number of dollars (an ``unpriced`` usage),
    not at $0. The price fields default to 0, so a 0 alone cannot say "free": the stored
    configuration carries ``free`` only when the models file gave both prices as 0 (stored
    configurations from before it have no such key and read as they always did).
    The configuration is a models-file entry or a seat's stored configuration.
    """
    return bool(
        config.get("free") or config.get("price_input_per_mtok") or config.get("price_output_per_mtok")
    )


def unpriced_seat(config: Mapping[str, Any] | None) -> bool:
    """Whether a seat's stored configuration is a model's with no price (see :func:`has_price`)."""
    return config is not None and config.get("kind") == "model" and not has_price(config)


def made_no_model_call(spent: Mapping[str, Any], *, model: bool) -> bool:
    """Whether a player is free: no model seat (a baseline, a person) and nothing spent.

    ``spent`` is its cost entry (``input_tokens``, ``cost_usd``). Tables show such a player as
    ``free``, never as $0 (which reads as a price) nor ``unpriced`` (which is a model's). A model
    seat is never free by this rule, even one whose tokens were not reported: its dollars are a
    number (``0.0000`` for a model priced at 0) or ``unpriced``.
    """
    return not model and not spent.get("input_tokens") and not spent.get("cost_usd")
