"""Which model specs can play right now (for ``arena models`` and the seat picker)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from arena.contract.playerconfig import mask_urls
from players.providers import providers

from .config import ModelsConfig, ModelSettings
from .factory import player_for

CHECK_DEADLINE = 5.0


@dataclass(frozen=True, slots=True)
class ModelAvailability:
    """One model spec and whether it can play now; ``reason`` explains either way."""

    spec: str
    available: bool
    reason: str


async def describe_available(config: ModelsConfig) -> list[ModelAvailability]:
    """Every named model of ``config`` plus each provider's default models (``local:gemma3-270m``),
    checked concurrently.

    OpenAI and Anthropic entries are checked for their key only (no network call);
    OpenAI-compatible servers get a short ``GET /models`` probe; local models are
    checked for their packages or file without loading anything.
    """
    entries: list[tuple[str, ModelSettings]] = list(config.models.items())
    for name, plugin in providers().items():
        entries += [
            (f"{name}:{model}", ModelSettings(provider=name, model=model)) for model in plugin.default_models
        ]
    return list(await asyncio.gather(*(_check(spec, settings) for spec, settings in entries)))


async def _check(spec: str, settings: ModelSettings) -> ModelAvailability:
    player = player_for(spec, settings, seed=0)
    try:
        async with asyncio.timeout(CHECK_DEADLINE):
            available, reason = await player.check()
    except TimeoutError:
        available, reason = False, f"no answer within {CHECK_DEADLINE:g}s"
    except Exception as exc:  # a check must never take the listing down
        available, reason = False, f"check failed: {type(exc).__name__}: {exc}"
    finally:
        await player.close()
    if settings.reasoning_label:  # two players of one model differ by these: the listing says how
        reason = f"{reason}; {settings.reasoning_label}"
    # A base URL's password or token (in a server's message too) is never shown.
    return ModelAvailability(spec, available, mask_urls(reason))
