"""Transcript memory of an offline model fits its context: capped budget, own tokens, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.contract.player import FatalPlayerError
from arena.engine.match import MatchConfig, play_match
from arena.engine.runner import decision_request
from arena.plugins.games import get_game
from arena.plugins.players import parse_player_spec
from arena.store.database import Store
from players.models import ModelPlayer, ModelsConfig, ModelSettings, build_model_player, describe_available
from players.models.config import ConfigError, load_models_config
from players.models.local_player import LocalPlayer, memory_note
from players.models.local_runtime import missing_requirement
from players.models.memory import TranscriptMemory
from players.models.schema import action_schema, capped_schema
from tests.support.episodes import stored_turns
from tests.support.modelkit import make_request

GEMMA_MISSING = missing_requirement("gemma3-270m")
needs_gemma = pytest.mark.skipif(
    GEMMA_MISSING is not None, reason=f"offline model unavailable: {GEMMA_MISSING}"
)


def local(**settings: object) -> ModelSettings:
    """Settings of the built-in offline model with transcript memory."""
    return ModelSettings.model_validate(
        {"provider": "local", "model": "gemma3-270m", "memory": "transcript", **settings}
    )


def test_a_local_budget_is_capped_to_the_context_less_the_reply_cap() -> None:
    assert local().memory_budget == 4096 - 256  # the default 8000 would overflow the default context
    assert local(n_ctx=8192, max_output_tokens=512).memory_budget == 7680
    assert local(n_ctx=8192, memory_budget_tokens=3000).memory_budget == 3000  # a budget that fits stays
    hosted = ModelSettings(provider="openai", model="gpt-5-mini", memory="transcript")
    assert hosted.context_tokens is None and hosted.memory_budget == 8000  # context unknown: as configured


def test_the_cap_is_in_the_seat_configuration_and_the_models_line() -> None:
    player = build_model_player(
        parse_player_spec("local:gemma3-270m?memory=transcript"), seed=1, config=ModelsConfig()
    )
    assert isinstance(player, LocalPlayer) and player.memory is not None
    assert player.memory.budget_tokens == 3840
    described = player.configuration()
    assert described["memory_budget_tokens"] == 3840 and described["memory_budget_configured"] == 8000
    assert described["n_ctx"] == 4096
    note = memory_note(player.settings)
    assert note == (
        "; transcript memory: 3840 tokens (not 8000: the context of 4096 less the 256-token reply cap)"
    )
    assert memory_note(local(n_ctx=8192, memory_budget_tokens=3000)) == "; transcript memory: 3000 tokens"
    assert memory_note(ModelSettings(provider="local", model="gemma3-270m")) == ""
    hosted = build_model_player(parse_player_spec("openai:gpt-5-mini?memory=transcript"), seed=1)
    assert isinstance(hosted, ModelPlayer) and "memory_budget_configured" not in hosted.configuration()


async def test_arena_models_shows_the_capped_budget() -> None:
    config = ModelsConfig(models={"keeper": local()})
    listed = {item.spec: item for item in await describe_available(config)}
    if GEMMA_MISSING is None:
        assert listed["keeper"].available
        assert listed["keeper"].reason == f"installed{memory_note(local())}"
        assert listed["local:gemma3-270m"].reason == "installed"
    else:
        assert not listed["keeper"].available


def test_a_context_with_no_room_for_a_prompt_is_a_one_line_config_error(tmp_path: Path) -> None:
    path = tmp_path / "models.toml"
    path.write_text(
        '[models.tiny]\nprovider = "local"\nmodel = "gemma3-270m"\nn_ctx = 512\nmax_output_tokens = 300\n'
    )
    with pytest.raises(ConfigError) as caught:
        load_models_config(path)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"{path}:models.tiny: ")
    assert "a context of 512 tokens less the 300-token reply cap leaves 212 for the prompt" in message
    assert "raise n_ctx or lower max_output_tokens" in message


def test_the_budget_counts_what_a_re_ask_adds() -> None:
    memory = TranscriptMemory(500, count=len)  # one "token" per character
    for step in range(3):
        memory.record("e", "a", step, f"rules\n\nday {step} " + "x" * 90, "y" * 50)
    request = make_request(step=3, prompt="rules\n\nday 3", rules="rules", episode="e")
    assert len(memory.messages(request, "s" * 20)) == 7  # 20 + 12 + 3 x (96 + 50) = 470: all three fit
    assert len(memory.messages(request, "s" * 20, reserve=100)) == 1  # 570: a block of turns dropped


def test_a_new_counter_counts_the_remembered_turns_again() -> None:
    memory = TranscriptMemory(1000)
    memory.record("e", "a", 0, "p" * 400, "r" * 400)
    request = make_request(step=1, prompt="now", rules="", episode="e")
    assert len(memory.messages(request, "")) == 3
    memory.count_with(lambda text: 3 * len(text))
    assert len(memory.messages(request, "")) == 1


@needs_gemma
async def test_gemma_remembers_only_what_its_context_holds() -> None:
    settings = local()
    player = build_model_player(parse_player_spec("g"), seed=1, config=ModelsConfig(models={"g": settings}))
    assert isinstance(player, LocalPlayer)
    await player.prepare()
    assert player.model is not None and player.memory is not None
    game = get_game("lemonade").create(1, {"days": 30})
    reply = '{"price": 2.5, "produce": 40, "promotion": "none", "reason": "' + "steady demand. " * 40 + '"}'
    for step in range(20):
        request = decision_request(game, "a", step, "e1")
        player.memory.record("e1", "a", step, request.prompt, reply)
    request = decision_request(game, "a", 20, "e1")
    system = player.system_message(capped_schema(action_schema(request.action_model)))
    messages = player.conversation(request, system)
    assert len(messages) > 1, "some turns are remembered"
    native = player.model.native
    chat = [{"role": "system", "content": system}] + [
        {"role": m.role, "content": m.content} for m in messages
    ]
    assert len(native.tokenize(native.render_chat(chat))) + 256 <= 4096


@needs_gemma
async def test_gemma_with_memory_plays_past_where_its_context_overflowed(tmp_path: Path) -> None:
    # A lemonade prompt is ~740 tokens and the transcript keeps whole prompts, so two of them do
    # not fit in 1024: before the cap (a budget of 8000) every day from the second on overflowed,
    # a provider error (and a fallback) every day. (A 1536 context overflowed from day 4 on: the
    # same check at twice the model time.)
    config = ModelsConfig(models={"g": local(n_ctx=1024, max_output_tokens=64)})
    store = Store(tmp_path / "arena.db")
    try:
        match = MatchConfig("lemonade", {"a": "g", "b": "baseline:weather"}, seed=5, options={"days": 3})
        outcome = await play_match(match, store, models_config=config)
        assert outcome.status == "finished", outcome.message
        turns = [t for t in stored_turns(store, outcome.episode_id or 0) if t["seat"] == "a"]
        assert len(turns) == 3
        errors = [a.get("error") for t in turns for a in t["attempts"]]
        assert "provider_error" not in errors, errors
        seat = next(s for s in store.seats(outcome.episode_id or 0) if s["seat"] == "a")
        assert seat["config"]["memory_budget_tokens"] == 1024 - 64
        assert seat["config"]["memory_budget_configured"] == 8000
    finally:
        store.close()


@needs_gemma
async def test_a_game_prompt_too_long_for_the_context_is_one_fatal_line() -> None:
    player = build_model_player(
        parse_player_spec("g"),
        seed=1,
        config=ModelsConfig(models={"g": local(n_ctx=512, max_output_tokens=64)}),
    )
    await player.prepare()
    request = decision_request(get_game("lemonade").create(1, {}), "a", 0, "e1")
    with pytest.raises(FatalPlayerError, match=r"^g: context too small for this game: prompt of \d+ tokens"):
        await player.decide(request)
