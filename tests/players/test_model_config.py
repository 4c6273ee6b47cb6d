"""The models file: loading, validation messages, lookup order and spec resolution."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.plugins.players import SpecError, parse_player_spec
from players.models import (
    EXAMPLE_MODELS_FILE,
    ConfigError,
    ModelPlayer,
    build_model_player,
    load_models_config,
)
from players.models.config import ModelsConfig, ModelSettings, parse_models_config


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "models.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_example_file_is_valid() -> None:
    config = load_models_config(EXAMPLE_MODELS_FILE)
    assert {"gpt-mini", "claude-haiku", "qwen-vllm", "gemma-local"} <= set(config.models)
    assert config.models["gpt-mini-chat"].api == "chat"


def test_load_and_defaults(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
[models.fast]
provider = "openai"
model = "gpt-5-mini"
price_input_per_mtok = 0.25

[models.box]
provider = "openai-compat"
model = "qwen"
base_url = "http://127.0.0.1:8000/v1/"
""",
    )
    config = load_models_config(path)
    fast, box = config.models["fast"], config.models["box"]
    assert fast.key_env == "OPENAI_API_KEY" and fast.turn_timeout == 60.0 and fast.output_tokens == 4096
    assert fast.cost(1_000_000, 0) == pytest.approx(0.25)
    assert box.key_env is None and box.base_url == "http://127.0.0.1:8000/v1"
    assert config.source == path


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            '[models.x]\nprovider = "openai"\nmodel = "m"\ntempreature = 1',
            "models.x.tempreature: not a known setting here (a typo?)",
        ),
        (
            '[models.x]\nprovider = "bard"\nmodel = "m"',
            "models.x.provider: unknown provider 'bard' (installed: openai, anthropic, openai-compat, local)",
        ),
        (
            '[models.x]\nmodel = "m"',
            "models.x.provider: missing (one of openai, anthropic, openai-compat, local)",
        ),
        ('[models.x]\nprovider = "openai-compat"\nmodel = "m"', "models.x: openai-compat needs base_url"),
        ('[models.x]\nprovider = "anthropic"\nmodel = "m"\napi = "chat"', "models.x: 'api' applies to"),
        (
            '[models.x]\nprovider = "openai"\nmodel = "m"\ntimeout = -1',
            "models.x.timeout: Input should be greater",
        ),
        ('[models."a b"]\nprovider = "openai"\nmodel = "m"', "model names may use"),
        ('[model.x]\nprovider = "openai"', "model: unknown top-level key"),
        ("[models.x\n", "invalid TOML"),
    ],
)
def test_errors_are_one_line_with_file_and_key(tmp_path: Path, body: str, expected: str) -> None:
    path = write(tmp_path, body)
    with pytest.raises(ConfigError) as caught:
        load_models_config(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(str(path))
    assert expected in message


def test_lookup_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ARENA_MODELS", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert load_models_config().models == {}  # nothing anywhere: empty config
    user = tmp_path / "xdg" / "arena" / "models.toml"
    user.parent.mkdir(parents=True)
    user.write_text('[models.u]\nprovider = "local"\nmodel = "gemma3-270m"\n')
    assert set(load_models_config().models) == {"u"}
    (tmp_path / "arena-models.toml").write_text('[models.here]\nprovider = "local"\nmodel = "gemma3-270m"\n')
    assert set(load_models_config().models) == {"here"}
    env_file = write(tmp_path, '[models.env]\nprovider = "local"\nmodel = "gemma3-270m"\n')
    monkeypatch.setenv("ARENA_MODELS", str(env_file))
    assert set(load_models_config().models) == {"env"}
    monkeypatch.setenv("ARENA_MODELS", str(tmp_path / "missing.toml"))
    with pytest.raises(ConfigError, match="not found"):
        load_models_config()


def test_build_resolves_named_and_direct_specs() -> None:
    config = parse_models_config(
        {
            "models": {
                "cheap": {"provider": "openai", "model": "gpt-5-nano", "price_input_per_mtok": 0.05},
            }
        }
    )
    named = build_model_player(parse_player_spec("cheap"), seed=1, config=config)
    assert named.spec == "cheap" and named.kind == "model"
    direct = build_model_player(parse_player_spec("openai:gpt-5-nano"), seed=1, config=config)
    assert isinstance(direct, ModelPlayer)
    assert direct.spec == "openai:gpt-5-nano"
    assert direct.settings.price_input_per_mtok == 0.05  # borrowed from the named entry
    compat = build_model_player(parse_player_spec("openai-compat:qwen@http://h:1/v1"), seed=1, config=config)
    assert compat.spec == "openai-compat:qwen@http://h:1/v1"
    local = build_model_player(parse_player_spec("local:gemma3-270m"), seed=1, config=ModelsConfig())
    assert type(local).__name__ == "LocalPlayer"
    anthropic = build_model_player(parse_player_spec("anthropic:claude-x"), seed=1, config=ModelsConfig())
    assert type(anthropic).__name__ == "AnthropicPlayer"


def test_unknown_names_and_non_model_specs_raise_spec_error() -> None:
    with pytest.raises(SpecError, match="unknown model 'nope'"):
        build_model_player(parse_player_spec("nope"), seed=1, config=ModelsConfig())
    with pytest.raises(SpecError):
        build_model_player(parse_player_spec("baseline:weather"), seed=1, config=ModelsConfig())


def test_settings_are_validated_in_code_too() -> None:
    with pytest.raises(ValueError, match="n_ctx"):
        ModelSettings(provider="openai", model="m", n_ctx=2048)


def test_memory_from_the_models_file_or_a_spec_option() -> None:
    config = parse_models_config(
        {
            "models": {
                "cheap": {"provider": "openai", "model": "gpt-5-nano", "price_input_per_mtok": 0.05},
                "keeper": {"provider": "anthropic", "model": "claude-x", "memory": "transcript"},
            }
        }
    )
    keeper = build_model_player(parse_player_spec("keeper"), seed=1, config=config)
    assert isinstance(keeper, ModelPlayer) and keeper.configuration()["memory"] == "transcript"
    direct = build_model_player(
        parse_player_spec("openai:gpt-5-nano?memory=transcript"), seed=1, config=config
    )
    assert isinstance(direct, ModelPlayer)
    assert direct.spec == "openai:gpt-5-nano?memory=transcript"
    assert direct.settings.memory == "transcript" and direct.settings.price_input_per_mtok == 0.05
    spec = "openai-compat:q@http://h:1/v1?memory=transcript&memory_budget_tokens=3000"
    compat = build_model_player(parse_player_spec(spec), seed=1, config=config)
    assert isinstance(compat, ModelPlayer)
    assert compat.settings.base_url == "http://h:1/v1" and compat.settings.memory_budget_tokens == 3000
    gateway = build_model_player(
        parse_player_spec("openai-compat:q@http://h:1/v1?v=2"), seed=1, config=config
    )
    assert isinstance(gateway, ModelPlayer)
    assert gateway.settings.base_url == "http://h:1/v1?v=2" and gateway.settings.memory == "none"
    with pytest.raises(SpecError, match="memory: Input should be 'none' or 'transcript'"):
        build_model_player(parse_player_spec("anthropic:c?memory=all"), seed=1, config=config)
    with pytest.raises(SpecError, match="unknown option 'temp'"):
        build_model_player(parse_player_spec("anthropic:c?temp=1"), seed=1, config=config)
