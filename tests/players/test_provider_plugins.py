"""Providers as plugins: the four built-ins are found through ``arena.providers``, keep their
defaults, and a stored player's configuration (and so its hash) is what it was before."""

from __future__ import annotations

import tomllib

import pytest
from pydantic import ValidationError

from arena.contract.playerconfig import config_hash
from arena.plugins.players import PlayerSpec, SpecError, parse_player_spec, player_kinds, spec_forms
from players.models import EXAMPLE_MODELS_FILE, ModelSettings, load_models_config
from players.models.config import ModelsConfig, parse_models_config
from players.models.factory import player_for
from players.models.local_runtime import model_sha256
from players.providers import Provider, UnknownProviderError, provider_named, providers

PRICED = """
[models.compat-priced]
provider = "openai-compat"
model = "qwen"
base_url = "http://127.0.0.1:8000/v1"
price_input_per_mtok = 0.5
price_output_per_mtok = 1.5

[models.local-priced]
provider = "local"
model = "gemma3-270m"
price_input_per_mtok = 0.5
n_ctx = 2048

[models.gpt-4o-capped]
provider = "openai"
model = "gpt-4o"
max_output_tokens = 300
price_input_per_mtok = 2.5
"""
RECORDED_TEMPLATES = "21c598c8c6e0"
"""The system and re-ask templates' version when :data:`RECORDED` was recorded."""
RECORDED = {
    "claude-haiku": "16923e6c3f39196aace93918aca5a2f28c4edee7fb0003d3035a3bfdd2d2466a",
    "compat-priced": "80af2596bff2df4373ba4fd0817c33232f6b82748436ca4119516a932b548ecb",
    "gemma-local": "88e31e7ea1dafb59c4455d5703579328eeeb3b6eea2024a63f88f7b52c2a25e9",
    "gpt-4o-capped": "8b4038946ff9117fa04116e38c0324af692d09c64aa48aa206256176f98ff577",
    "gpt-mini": "4f4e275df7e0ecb8ac0db064a86bb7d3607a65002443b5ebd30e6ec622065114",
    "gpt-mini-chat": "b3fc8feeb75db32ad7f5d695367640b4da66ac4674ee73f669e06f9ae3c049e5",
    "gpt-mini-memory": "d7a8f404255b11f0eb2f7382252828628aa82baebdecf226a849d141a504b87f",
    "llama-ollama": "b41bd61d1dc2616c2391cc4395464ffe71ab8928e05be254efef5f3357377e1f",
    "local-priced": "cb2566110c8485b7f8efd784d8d1edb168bb141a668ada6cd4c81301701a0943",
    "qwen-vllm": "d75d813b9d87fd56c22e0aaead0ea21992f246a889bc644040d848fecbc76ad3",
    "openai:gpt-5-mini": "40918ab1b9875a18f61cf5bf683f1e6594d582afa171fafa99a70ba14d45e840",
    "openai:gpt-4.1-mini?memory=transcript": (
        "1aa51205a10a160ccae0404b4395727f02da019cbc297a34b24e76a08bcc8cf3"
    ),
    "anthropic:claude-haiku-4-5": "9c379d3d7b41a5a64a091d0a643600fa2ea4d3364211df46461cbe2b90edca35",
    "openai-compat:qwen2.5@http://127.0.0.1:8000/v1": (
        "35b6dbd702f36d7722c17010c279b782a1236fd7c85d495baa638880740fb269"
    ),
    "local:gemma3-270m": "df87ba9efc38e2b8045bd8633daf51fe041401ecfbb1c37e7feca7b9dd15cc27",
    "local:gemma3-270m?memory=transcript&memory_budget_tokens=5000": (
        "9183382c35981e49486177312c145310055d14ee1fb584cccab06c9eaedd6d28"
    ),
}
"""``config_hash(player.configuration())`` of these specs, recorded before providers became plugins
(commit b01ab32): the shipped example models file plus :data:`PRICED`, and direct specs."""


def example_config() -> ModelsConfig:
    shipped = load_models_config(EXAMPLE_MODELS_FILE)
    extra = parse_models_config(tomllib.loads(PRICED))
    return ModelsConfig(models={**shipped.models, **extra.models}, source=shipped.source)


@pytest.mark.parametrize("spec", sorted(RECORDED))
def test_a_stored_players_configuration_hash_is_unchanged(spec: str) -> None:
    if "local" in spec and model_sha256("gemma3-270m") is None:
        pytest.skip("the offline model's package is not installed (its digest is in the configuration)")
    text, settings = example_config().resolve(parse_player_spec(spec))
    player = player_for(text, settings, seed=7)
    configuration = player.configuration()
    # The re-ask texts were rewritten on purpose (one per failure class, issue 42): the hashes
    # were recorded with the templates of version RECORDED_TEMPLATES; everything else is unchanged.
    assert configuration["system_prompt_version"] != RECORDED_TEMPLATES
    configuration["system_prompt_version"] = RECORDED_TEMPLATES
    assert config_hash(configuration) == RECORDED[spec], configuration


def test_the_four_built_in_providers_are_plugins_and_player_kinds() -> None:
    assert list(providers()) == ["openai", "anthropic", "openai-compat", "local"]
    assert all(isinstance(provider, Provider) for provider in providers().values())
    assert {"openai", "anthropic", "openai-compat", "local"} <= set(player_kinds())
    assert spec_forms() == [
        "baseline:NAME",
        "human",
        "openai:MODEL",
        "anthropic:MODEL",
        "openai-compat:MODEL@BASE_URL",
        "local:NAME",
        "NAME (a model defined in the models file)",
    ]
    assert type(player_kinds()["anthropic"]).__doc__ == "Anthropic's Messages API."


@pytest.mark.parametrize(
    ("provider", "key_env", "output_tokens", "timeout", "cached", "cache_write", "context"),
    [
        ("openai", "OPENAI_API_KEY", 4096, 60.0, 0.1, 1.0, None),
        ("anthropic", "ANTHROPIC_API_KEY", 2048, 60.0, 0.1, 1.25, None),
        ("openai-compat", None, 1024, 60.0, 0.1, 1.0, None),
        ("local", None, 256, 120.0, 0.0, 1.0, 4096),
    ],
)
def test_each_provider_fills_in_its_defaults(
    provider: str,
    key_env: str | None,
    output_tokens: int,
    timeout: float,
    cached: float,
    cache_write: float,
    context: int | None,
) -> None:
    base_url = "http://127.0.0.1:8000/v1" if provider == "openai-compat" else None
    settings = ModelSettings(provider=provider, model="m", base_url=base_url, price_input_per_mtok=10.0)
    assert settings.provider_plugin is provider_named(provider)
    assert (settings.key_env, settings.output_tokens, settings.turn_timeout) == (
        key_env,
        output_tokens,
        timeout,
    )
    assert settings.cached_input_price == pytest.approx(10.0 * cached)
    assert settings.cache_write_price == pytest.approx(10.0 * cache_write)
    assert settings.context_tokens == context
    assert settings.endpoint == base_url  # no built-in provider has a default base URL of its own


def test_only_openai_itself_adds_the_reasoning_allowance() -> None:
    allowance = {
        (provider, model): ModelSettings(
            provider=provider, model=model, base_url="http://127.0.0.1:1/v1"
        ).reasoning_allowance
        for provider in ("openai", "openai-compat")
        for model in ("gpt-5-mini", "gpt-4.1")
    }
    assert allowance == {
        ("openai", "gpt-5-mini"): 4096,
        ("openai", "gpt-4.1"): 0,
        ("openai-compat", "gpt-5-mini"): 0,
        ("openai-compat", "gpt-4.1"): 0,
    }


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"provider": "local", "api": "chat"}, "'api' applies to provider openai only"),
        (
            {"provider": "openai", "anthropic_mode": "tool"},
            "'anthropic_mode' applies to provider anthropic only",
        ),
        ({"provider": "anthropic", "n_threads": 2}, "'n_ctx' and 'n_threads' apply to provider local only"),
        ({"provider": "openai-compat"}, "openai-compat needs base_url, e.g. http://127.0.0.1:8000/v1"),
        (
            {"provider": "bard"},
            "unknown provider 'bard' (installed: openai, anthropic, openai-compat, local)",
        ),
    ],
)
def test_provider_only_settings_and_names_are_checked_against_the_installed_providers(
    settings: dict[str, object], message: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        ModelSettings.model_validate({"model": "m", **settings})
    assert [error["msg"] for error in caught.value.errors()] == [f"Value error, {message}"]


def test_an_unknown_provider_name_is_one_line_listing_the_installed_ones() -> None:
    with pytest.raises(UnknownProviderError) as caught:
        provider_named("bard")
    assert str(caught.value) == "unknown provider 'bard' (installed: openai, anthropic, openai-compat, local)"
    with pytest.raises(SpecError, match=r"^'baseline:x' is not a model spec$"):
        ModelsConfig().resolve(PlayerSpec("baseline", "x"))
