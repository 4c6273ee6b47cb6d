"""Model players: OpenAI, Anthropic, OpenAI-compatible servers and offline local models.

Public API::

    build_model_player(spec, *, seed, config=None) -> Player
    load_models_config(path=None) -> ModelsConfig        # raises ConfigError
    await describe_available(config) -> list[ModelAvailability]
"""

from __future__ import annotations

from .availability import ModelAvailability, describe_available
from .base import ModelPlayer
from .config import (
    EXAMPLE_MODELS_FILE,
    ConfigError,
    ModelsConfig,
    ModelSettings,
    default_models_path,
    example_models_toml,
    load_models_config,
)
from .factory import build_model_player

__all__ = [
    "EXAMPLE_MODELS_FILE",
    "ConfigError",
    "ModelAvailability",
    "ModelPlayer",
    "ModelSettings",
    "ModelsConfig",
    "build_model_player",
    "default_models_path",
    "describe_available",
    "example_models_toml",
    "load_models_config",
]
