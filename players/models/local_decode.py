"""One reply from the offline model, evaluating only what the cached prompt prefix does not cover.

Every decision of a game repeats a long stable text (system message, game rules) before
the part that changes. The prompt is split at a *canonical* point that depends only on
the prompt itself: the tokens of the stable text, evaluated from position 0 in fixed
chunks, then the rest from there. Because the split and the chunking never depend on
what ran before, the key/value entries of the prefix are bit-for-bit the same whether
they were just computed or left in the cache by the previous reply (the cache is trimmed
back to the prefix after every reply). So replies do not depend on the order in which
seats are served: same seed, same reply.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .local_native import DecodeCancelled, NativeModel


class ContextOverflow(ValueError):
    """The prompt plus the reply cap would not fit the model's context."""


@dataclass(slots=True)
class LocalReply:
    """Text and token counts of one local generation (``cached_tokens`` were not evaluated).

    ``tokens`` are the generated token ids. ``prompt_seconds`` runs from the start until the
    first token is sampled and ``generation_seconds`` from there to the end, the split
    llama-server's ``timings`` make (so per-token figures compare like with like).
    """

    text: str
    input_tokens: int
    output_tokens: int
    cached_tokens: int = 0
    tokens: list[int] = field(default_factory=list)
    prompt_seconds: float = 0.0
    generation_seconds: float = 0.0


def stable_length(native: NativeModel, messages: list[dict[str, str]], stable_user_text: str) -> int:
    """Characters at the start of the rendered chat that do not change between decisions.

    That is everything before the first user message (system text, template markup)
    plus ``stable_user_text`` when the first user message starts with it.
    """
    marker = "\ue000"
    index = next(i for i, m in enumerate(messages) if m["role"] == "user")
    marked = [*messages[:index], {**messages[index], "content": marker}, *messages[index + 1 :]]
    before = native.render_chat(marked).find(marker)
    if before < 0:
        return 0
    if stable_user_text and messages[index]["content"].startswith(stable_user_text):
        return before + len(stable_user_text)
    return before


def split_tokens(native: NativeModel, text: str, stable_chars: int) -> tuple[list[int], int]:
    """The prompt's tokens and how many of them form its stable prefix.

    The prefix is the tokens the stable text and the whole prompt have in common (a
    token spanning the boundary belongs to the rest); at least one token is left to
    evaluate, since the sampler needs fresh logits.
    """
    tokens = native.tokenize(text)
    if stable_chars <= 0:
        return tokens, 0
    stable = native.tokenize(text[:stable_chars])
    common = 0
    for left, right in zip(stable, tokens, strict=False):
        if left != right:
            break
        common += 1
    return tokens, min(common, len(tokens) - 1)


class PrefixDecoder:
    """Generates replies on one context, keeping the last reply's prompt prefix in the cache.

    Only one prefix is kept: llama.cpp saves a sliding-window model's cache (Gemma 3)
    without the positions that left the window, and a restored copy lays the rest out
    differently, which changes the sums enough to change a sampled reply. A prefix left
    in place and trimmed back is exactly what a fresh evaluation would have produced.
    """

    def __init__(self, native: NativeModel) -> None:
        self.native = native
        self.resident: tuple[int, ...] = ()  # exactly what the KV cache holds between replies

    def forget_all(self) -> None:
        """Drop the cached prefix (the next reply evaluates its whole prompt)."""
        self._forget()

    def _load_prefix(self, prefix: tuple[int, ...], cancelled: Callable[[], bool]) -> int:
        """Put exactly ``prefix`` in the cache; returns how many of its tokens were not evaluated."""
        if prefix == self.resident:
            return len(prefix)
        self._forget()
        self.native.decode(list(prefix), 0, cancelled=cancelled)
        self.resident = prefix
        return 0

    def generate(
        self,
        messages: list[dict[str, str]],
        *,
        stable_user_text: str,
        grammar: str | None,
        max_tokens: int,
        temperature: float,
        seed: int,
        cancelled: Callable[[], bool],
    ) -> LocalReply:
        """One reply; ContextOverflow for a prompt the context cannot hold, TimeoutError if cancelled."""
        native = self.native
        text = native.render_chat(messages)
        tokens, split = split_tokens(native, text, stable_length(native, messages, stable_user_text))
        if len(tokens) + max_tokens > native.n_ctx:
            raise ContextOverflow(
                f"prompt of {len(tokens)} tokens plus {max_tokens} for the reply exceeds "
                f"the context of {native.n_ctx} tokens (raise n_ctx)"
            )
        sampler = native.sampler(grammar, temperature=temperature, seed=seed)
        started = time.perf_counter()  # as llama-server's timings: after the sampler is set up
        output = bytearray()
        generated: list[int] = []
        first = 0.0
        try:
            reused = self._load_prefix(tuple(tokens[:split]), cancelled)
            position = native.decode(tokens[split:], split, cancelled=cancelled)
            while len(generated) < max_tokens:
                if cancelled():
                    raise DecodeCancelled("generation was cancelled")
                token = sampler.sample()
                first = first or time.perf_counter()
                if native.is_end(token):
                    break
                output += native.piece(token)
                generated.append(token)
                if len(generated) < max_tokens:
                    position = native.decode([token], position)  # cancelled() is asked before each token
        except DecodeCancelled:
            self._forget()
            raise TimeoutError("generation was cancelled") from None
        except BaseException:
            self._forget()
            raise
        finally:
            sampler.close()
        ended = time.perf_counter()
        if not native.trim(split):
            self._forget()
        first = first or ended
        reply = LocalReply(output.decode("utf-8", "replace"), len(tokens), len(generated), reused, generated)
        reply.prompt_seconds, reply.generation_seconds = first - started, ended - first
        return reply

    def _forget(self) -> None:
        """After a failure the cache content is unknown: empty it."""
        self.native.clear()
        self.resident = ()
