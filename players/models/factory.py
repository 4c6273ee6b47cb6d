"""Build a model player from a parsed spec and the models file."""

from __future__ import annotations

from arena.contract.player import Player
from arena.plugins.players import PlayerSpec, SpecError

from .base import ModelPlayer
from .config import ModelsConfig, ModelSettings, load_models_config


def build_model_player(spec: PlayerSpec, *, seed: int, config: ModelsConfig | None = None) -> Player:
    """The player for a model spec (``openai:…``, ``anthropic:…``, ``openai-compat:…@…``,
    ``local:…`` or a name from the models file).

    ``config`` defaults to :func:`load_models_config` (the usual lookup order). Raises
    :class:`arena.plugins.players.SpecError` for unknown names and non-model specs. Nothing is
    checked or loaded here: call ``prepare()`` for that.
    """
    if not spec.is_model:
        raise SpecError(f"{spec.text!r} is not a model spec")
    if config is None:
        config = load_models_config()
    text, settings = config.resolve(spec)
    return player_for(text, settings, seed=seed)


def player_for(spec_text: str, settings: ModelSettings, *, seed: int) -> ModelPlayer:
    """The player ``settings``' provider plugin builds (its SDK is imported then)."""
    return settings.provider_plugin.player(spec_text, settings, seed=seed)
