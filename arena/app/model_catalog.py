"""What the models file offers the app's seat lists, read once in the background.

Kept apart from the home screen's logic so that the app can hold an empty catalogue
from its first frame without importing the engine; ``players.models`` is imported in a
thread after the screen is up, and if it is missing or incomplete the seat lists simply
offer no models.
"""

from __future__ import annotations

import asyncio
import importlib
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class ModelCatalog:
    """What the models file offers, with the reason each unavailable model cannot play."""

    config: Any = None
    entries: list[Any] = field(default_factory=list)
    error: str | None = None
    loaded: bool = False


async def load_model_catalog() -> ModelCatalog:
    """Import ``players.models`` and ask which models can play; never raises."""
    try:
        module = await asyncio.to_thread(importlib.import_module, "players.models")
        load_config = module.load_models_config
        describe = module.describe_available
    except (ImportError, AttributeError):
        return ModelCatalog(loaded=True)
    try:
        config = await asyncio.to_thread(load_config)
    except Exception as exc:  # a broken models file must not stop the app
        return ModelCatalog(error=f"models file: {exc}", loaded=True)
    try:
        entries = list(await describe(config))
    except Exception as exc:
        return ModelCatalog(
            config=config, error=f"cannot list models: {type(exc).__name__}: {exc}", loaded=True
        )
    return ModelCatalog(config=config, entries=entries, loaded=True)
