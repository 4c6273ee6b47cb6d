"""``local:NAME``: an offline model running in this process through llama.cpp.

Decoding is constrained by a grammar built from the action schema (llama.cpp's
JSON-schema converter, fed :func:`players.models.schema.grammar_schema`), so the reply
is always a JSON object of the right shape; ranges and rules are still checked by the
runner. Each decision's sampling seed is derived from the episode seed, seat, step and
attempt (:func:`players.models.prompting.decision_seed`), so a seeded match replays identically.
The game's rules at the start of the prompt are the stable prefix whose evaluation is
cached across decisions and seats.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from pydantic import BaseModel

from arena.contract.player import ClusterWork, DecisionRequest, ErrorClass, FatalPlayerError, PlayerSetupError
from arena.contract.usage import Usage

from . import local_runtime
from .base import ChatMessage, Completion, ModelPlayer
from .config import ModelSettings
from .local_decode import ContextOverflow
from .retry import ProviderFailure
from .schema import SchemaError, grammar_schema

DEFAULT_TEMPERATURE = 0.7


def memory_note(settings: ModelSettings) -> str:
    """``; transcript memory: N tokens`` and why, when memory is on (else empty)."""
    if settings.memory != "transcript":
        return ""
    budget = settings.memory_budget
    if budget == settings.memory_budget_tokens:
        return f"; transcript memory: {budget} tokens"
    return (
        f"; transcript memory: {budget} tokens (not {settings.memory_budget_tokens}: the context"
        f" of {settings.context_tokens} less the {settings.output_tokens}-token reply cap)"
    )


class LocalPlayer(ModelPlayer):
    """A seat played by an in-process GGUF model (default ``local:gemma3-270m``)."""

    provider = "local"
    estimates_output_cap = False  # grammar decoding: the reply is as long as the schema needs

    def reply_model(self, action_model: type[BaseModel]) -> type[BaseModel]:
        """The moment's own model: the grammar built from it makes its bounds binding."""
        return action_model

    string_cap = None

    def __init__(self, spec: str, settings: ModelSettings, *, seed: int) -> None:
        super().__init__(spec, settings, seed=seed)
        self.model: local_runtime.SharedModel | None = None
        self._served: dict[str, Any] | None = None

    @property
    def gate_key(self) -> tuple[str, str, str]:
        """All seats on one local model share one gate (inference is serialised anyway)."""
        return ("local", self.settings.model, "")

    @property
    def takes_seed(self) -> bool:
        """llama.cpp samples with the seed it is given."""
        return True

    @property
    def temperature(self) -> float:
        """The configured temperature, else :data:`DEFAULT_TEMPERATURE` (always sent)."""
        return DEFAULT_TEMPERATURE if self.settings.temperature is None else self.settings.temperature

    def configuration(self) -> dict[str, Any]:
        """The base configuration plus context size, threads and the model file's SHA-256."""
        return {
            **super().configuration(),
            "n_ctx": self.settings.context_tokens,
            # None: every core. The count can change the replies (it changes the order of the
            # kernels' sums: 2 and 1 threads gave "produce": 0 and 60000 for one prompt), so it is
            # part of the configuration; with None the same name may reply otherwise on another machine.
            "n_threads": self.settings.n_threads,
            "model_sha256": local_runtime.model_sha256(self.settings.model),
        }

    def cluster_work(self) -> ClusterWork:
        """On a cluster: ``replicas`` workers (at most ``max_concurrency``), each with ``n_threads`` CPUs.

        Its decisions are CPU-bound, so they are what a cluster spreads; one decision at a
        time per worker keeps ``max_concurrency`` across the whole cluster.
        """
        settings = self.settings
        replicas = min(settings.replicas or 1, settings.max_concurrency)
        return ClusterWork(replicas=replicas, cpus=float(settings.n_threads or 1))

    async def prepare(self) -> None:
        """Assemble (once) and load (once per process) the model; PlayerSetupError if impossible.

        Transcript memory then counts in the model's own tokens.
        """
        try:
            self.model = await asyncio.to_thread(
                local_runtime.shared_model,
                self.settings.model,
                n_ctx=self.settings.n_ctx,
                n_threads=self.settings.n_threads,
            )
        except local_runtime.LocalRuntimeError as exc:
            raise PlayerSetupError(f"{self.spec}: {exc}") from None
        self._served = local_runtime.served_facts(self.model, self.settings.model)
        if self.memory is not None:
            self.memory.count_with(local_runtime.token_counter(self.model))

    async def check(self) -> tuple[bool, str]:
        """Installed and (for a path) present; does not load the model. Says how memory fits."""
        problem = local_runtime.missing_requirement(self.settings.model)
        if problem:
            return False, problem
        return True, f"installed{memory_note(self.settings)}"

    def chat(
        self, system: str, messages: list[ChatMessage], request: DecisionRequest
    ) -> tuple[list[dict[str, str]], str]:
        """The chat the model is given, and its stable start (the rules, if the prompt opens with them)."""
        chat = [{"role": "system", "content": system}]
        chat += [{"role": m.role, "content": m.content} for m in messages]
        stable = request.rules if messages and messages[0].content.startswith(request.rules) else ""
        return chat, stable

    async def _complete(
        self, system: str, messages: list[ChatMessage], request: DecisionRequest, schema: dict[str, object]
    ) -> Completion:
        if self.model is None:
            await self.prepare()
        model = self.model
        assert model is not None
        try:
            grammar = grammar_schema(dict(schema))
        except SchemaError as exc:
            raise ProviderFailure(ErrorClass.PLAYER_CRASH, f"cannot build a grammar: {exc}") from None
        chat, stable = self.chat(system, messages, request)
        sampling = self.sampling(request)
        cancel = threading.Event()
        try:
            reply = await asyncio.to_thread(
                local_runtime.generate,
                model,
                chat,
                stable_user_text=stable,
                schema=grammar,
                max_tokens=sampling["max_tokens"],
                temperature=sampling["temperature"],
                seed=sampling["seed"],
                cancelled=cancel.is_set,
            )
        except ContextOverflow as exc:
            if len(messages) == 1:  # nothing remembered and no re-ask: the game's prompt alone is too long
                raise FatalPlayerError(f"{self.spec}: context too small for this game: {exc}") from None
            detail = f"local model rejected the request: {exc}"
            raise ProviderFailure(ErrorClass.PROVIDER_ERROR, detail) from None
        except ValueError as exc:
            detail = f"local model rejected the request: {exc}"
            raise ProviderFailure(ErrorClass.PROVIDER_ERROR, detail) from None
        finally:
            cancel.set()
        usage = Usage(
            input_tokens=reply.input_tokens,
            output_tokens=reply.output_tokens,
            cached_tokens=reply.cached_tokens,
        )
        completion = Completion(reply.text, usage, served=self._served)
        if reply.output_tokens >= self.settings.output_tokens and not reply.text.rstrip().endswith("}"):
            completion.finish = "truncated"
        return completion
