"""One llama.cpp model and context, driven through the C API (``llama.h``) for ``local:`` players.

The functions come from the cffi module of ``llama-cpp-py-sync`` (the pinned binding
already loads and, on old glibc, patches the native library). Its ``Llama`` class is
not used: fast repeated decisions need control it does not give - tokens evaluated from
a chosen position, the KV cache trimmed back to a prompt prefix, and a grammar checked
after sampling instead of before.

Every method must be called by one thread at a time (the caller holds a lock).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

N_BATCH = 512
SAMPLER: dict[str, float] = {"top_k": 40, "top_p": 0.95, "min_p": 0.05}
"""The sampler chain's fixed stages before the temperature (llama.cpp server defaults)."""
DECODE_ABORTED = 2  # llama_decode's return code when the abort callback said stop


class NativeError(RuntimeError):
    """llama.cpp refused: the model does not load, a grammar does not parse, decoding failed."""


class DecodeCancelled(RuntimeError):
    """The cancel check asked llama.cpp to stop mid-evaluation."""


class NativeModel:
    """A loaded GGUF model with one single-sequence context of ``n_ctx`` tokens."""

    def __init__(self, lib: Any, ffi: Any, path: Path, *, n_ctx: int, n_threads: int) -> None:
        self.lib = lib
        self.ffi = ffi
        lib.llama_backend_init()
        model_params = lib.llama_model_default_params()
        model_params.n_gpu_layers = 0
        self.model = lib.llama_model_load_from_file(str(path).encode(), model_params)
        if self.model == ffi.NULL:
            raise NativeError(f"llama.cpp could not load {path}")
        params = lib.llama_context_default_params()
        params.n_ctx = n_ctx
        params.n_batch = params.n_ubatch = N_BATCH
        params.n_seq_max = 1
        params.n_threads = params.n_threads_batch = n_threads
        params.embeddings = False
        params.no_perf = True
        # Keep every position in the sliding-window layers too, so the cache can be
        # trimmed back to a prompt prefix and reused.
        params.swa_full = True
        self.ctx = lib.llama_init_from_model(self.model, params)
        if self.ctx == ffi.NULL:
            lib.llama_model_free(self.model)
            raise NativeError(f"llama.cpp could not create a context of {n_ctx} tokens")
        self.vocab = lib.llama_model_get_vocab(self.model)
        self.memory = lib.llama_get_memory(self.ctx)
        self.n_ctx = int(lib.llama_n_ctx(self.ctx))
        self._batch = lib.llama_batch_init(N_BATCH, 0, 1)
        self._cancelled: Callable[[], bool] = _never
        self._abort = ffi.callback("ggml_abort_callback", self._should_abort)
        self._pieces: dict[int, bytes] = {}

    def _should_abort(self, _data: Any) -> bool:
        try:
            return bool(self._cancelled())
        except BaseException:  # an exception must not cross into C; stopping is the safe answer
            return True

    def close(self) -> None:
        """Free the context and the model (idempotent)."""
        if self.ctx is None:
            return
        self.lib.llama_batch_free(self._batch)
        self.lib.llama_free(self.ctx)
        self.lib.llama_model_free(self.model)
        self.ctx = self.model = None

    # -- text --------------------------------------------------------------------------

    def render_chat(self, messages: list[dict[str, str]]) -> str:
        """The model's own chat template applied to ``messages``, ready for the reply."""
        ffi, lib = self.ffi, self.lib
        keep = [
            (ffi.new("char[]", m["role"].encode()), ffi.new("char[]", m["content"].encode()))
            for m in messages
        ]
        chat = ffi.new("llama_chat_message[]", len(keep))
        for index, (role, content) in enumerate(keep):
            chat[index].role = role
            chat[index].content = content
        template = lib.llama_model_chat_template(self.model, ffi.NULL)
        if template == ffi.NULL:
            return "".join(f"{m['role']}: {m['content']}\n" for m in messages) + "assistant:"
        size = 2 * sum(len(m["content"].encode()) for m in messages) + 1024
        for _ in range(2):
            buf = ffi.new("char[]", size)
            written = lib.llama_chat_apply_template(template, chat, len(keep), True, buf, size)
            if written < 0:
                raise NativeError("the model's chat template could not be applied")
            if written <= size:
                return bytes(ffi.buffer(buf, written)).decode("utf-8", "replace")
            size = written
        raise NativeError("the model's chat template output kept growing")

    def tokenize(self, text: str) -> list[int]:
        """Tokens of ``text`` with the BOS token, control tokens such as ``<start_of_turn>`` parsed."""
        data = text.encode()
        capacity = len(data) + 16
        tokens = self.ffi.new("llama_token[]", capacity)
        count = self.lib.llama_tokenize(self.vocab, data, len(data), tokens, capacity, True, True)
        if count < 0:
            raise NativeError(f"cannot tokenize a text of {len(data)} bytes")
        return list(tokens[0:count])

    def piece(self, token: int) -> bytes:
        """The bytes a generated token stands for."""
        cached = self._pieces.get(token)
        if cached is None:
            buf = self.ffi.new("char[]", 64)
            count = self.lib.llama_token_to_piece(self.vocab, token, buf, 64, 0, False)
            if count < 0:
                buf = self.ffi.new("char[]", -count)
                count = self.lib.llama_token_to_piece(self.vocab, token, buf, -count, 0, False)
            cached = self._pieces[token] = bytes(self.ffi.buffer(buf, count))
        return cached

    def is_end(self, token: int) -> bool:
        """Whether ``token`` ends the reply (end of turn / end of text)."""
        return bool(self.lib.llama_vocab_is_eog(self.vocab, token))

    # -- evaluation and the KV cache ---------------------------------------------------

    def decode(self, tokens: list[int], start: int, *, cancelled: Callable[[], bool] | None = None) -> int:
        """Evaluate ``tokens`` at positions ``start...`` in fixed chunks; returns the next position.

        Logits are kept for the last token only (what the sampler reads next). With
        ``cancelled``, llama.cpp asks it after every operation of the graph (~400 per
        token for Gemma 3 270M) and stops when it says so: worth it for a prompt's
        seconds-long chunks, not for one generated token (a Python call from C each
        time costs ~2 ms per token), whose caller checks between tokens instead.
        """
        batch = self._batch
        if cancelled is not None:
            self._cancelled = cancelled
            self.lib.llama_set_abort_callback(self.ctx, self._abort, self.ffi.NULL)
        try:
            for offset in range(0, len(tokens), N_BATCH):
                chunk = tokens[offset : offset + N_BATCH]
                batch.n_tokens = len(chunk)
                for index, token in enumerate(chunk):
                    batch.token[index] = token
                    batch.pos[index] = start + offset + index
                    batch.n_seq_id[index] = 1
                    batch.seq_id[index][0] = 0
                    batch.logits[index] = 0
                if offset + len(chunk) == len(tokens):
                    batch.logits[len(chunk) - 1] = 1
                code = self.lib.llama_decode(self.ctx, batch)
                if code == DECODE_ABORTED:
                    raise DecodeCancelled("generation was cancelled")
                if code != 0:
                    raise NativeError(f"llama_decode failed (code {code})")
        finally:
            if cancelled is not None:
                self.lib.llama_set_abort_callback(self.ctx, self.ffi.NULL, self.ffi.NULL)
                self._cancelled = _never
        return start + len(tokens)

    def clear(self) -> None:
        """Empty the KV cache."""
        self.lib.llama_memory_clear(self.memory, True)

    def trim(self, keep: int) -> bool:
        """Drop every cached position from ``keep`` on; False if llama.cpp cannot."""
        return bool(self.lib.llama_memory_seq_rm(self.memory, 0, keep, -1))

    # -- sampling ----------------------------------------------------------------------

    def sampler(self, grammar: str | None, *, temperature: float, seed: int) -> GrammarSampler:
        """A sampler for one reply (free it with :meth:`GrammarSampler.close`)."""
        return GrammarSampler(self, grammar, temperature=temperature, seed=seed)


def _never() -> bool:
    return False


class GrammarSampler:
    """Samples the next token the way llama.cpp's server does when a grammar is set.

    The unconstrained chain (top-k 40, top-p 0.95, min-p 0.05, temperature, seeded draw)
    picks a token and the grammar only checks that one token; only when the grammar
    rejects it is the grammar applied to the whole vocabulary and the token redrawn.
    Checking one token instead of filtering all 262k of Gemma's is most of the speed.
    """

    def __init__(self, native: NativeModel, grammar: str | None, *, temperature: float, seed: int) -> None:
        self.native = native
        lib, ffi = native.lib, native.ffi
        self.free = self._chain(None, temperature, seed)
        self.constrained = None
        self.grammar = None
        if grammar is not None:
            rule = lib.llama_sampler_init_grammar(native.vocab, grammar.encode(), b"root")
            if rule == ffi.NULL:
                lib.llama_sampler_free(self.free)
                raise ValueError("llama.cpp could not parse the grammar")
            self.constrained = self._chain(rule, temperature, seed)
            self.grammar = lib.llama_sampler_chain_get(self.constrained, 0)
        self._one = ffi.new("llama_token_data[1]")
        self._check = ffi.new("llama_token_data_array *")
        self._check.data = self._one

    def _chain(self, first: Any, temperature: float, seed: int) -> Any:
        lib = self.native.lib
        chain = lib.llama_sampler_chain_init(lib.llama_sampler_chain_default_params())
        stages = [
            lib.llama_sampler_init_top_k(int(SAMPLER["top_k"])),
            lib.llama_sampler_init_top_p(SAMPLER["top_p"], 1),
            lib.llama_sampler_init_min_p(SAMPLER["min_p"], 1),
            lib.llama_sampler_init_temp(temperature),
            lib.llama_sampler_init_dist(seed & 0xFFFFFFFF),
        ]
        for stage in [first, *stages] if first is not None else stages:
            lib.llama_sampler_chain_add(chain, stage)
        return chain

    def sample(self) -> int:
        """The next token (accepted by the grammar, which advances)."""
        lib, ctx = self.native.lib, self.native.ctx
        token = int(lib.llama_sampler_sample(self.free, ctx, -1))
        if self.constrained is None:
            return token
        self._one[0].id = token
        self._one[0].logit = 1.0
        self._one[0].p = 0.0
        self._check.size = 1
        self._check.selected = -1
        self._check.sorted = False
        lib.llama_sampler_apply(self.grammar, self._check)
        if self._one[0].logit != -math.inf:
            lib.llama_sampler_accept(self.constrained, token)
            return token
        return int(lib.llama_sampler_sample(self.constrained, ctx, -1))

    def close(self) -> None:
        """Free the native samplers."""
        lib = self.native.lib
        lib.llama_sampler_free(self.free)
        if self.constrained is not None:
            lib.llama_sampler_free(self.constrained)
            self.constrained = None
