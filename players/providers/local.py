"""``local:NAME``: an offline model running in this process through llama.cpp.

``NAME`` is ``gemma3-270m`` (the packaged model) or a path to a ``.gguf`` file. No key, a
256-token reply cap (decoding is constrained by the schema's grammar, so nothing is
estimated), 120 s per decision, a 4096-token context unless ``n_ctx`` says otherwise. Its
failures are raised as such by the player, so there is no SDK error to classify.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from players.providers import BUILTIN_PRICE_SOURCE, Provider

if TYPE_CHECKING:
    from players.models.base import ModelPlayer
    from players.models.config import ModelSettings

DEFAULT_N_CTX = 4096
"""Context size of an offline model when the models file sets no ``n_ctx``."""
DEFAULT_LOCAL_MODEL = "gemma3-270m"


class LocalProvider(Provider):
    """An offline model running in-process."""

    name: ClassVar[str] = "local"
    spec_form: ClassVar[str] = "local:NAME"
    listing_order: ClassVar[int] = 13
    max_output_tokens: ClassVar[int] = 256
    timeout: ClassVar[float] = 120.0
    cached_input_ratio: ClassVar[float] = 0.0
    price_source: ClassVar[dict[str, str] | None] = BUILTIN_PRICE_SOURCE
    settings_keys: ClassVar[frozenset[str]] = frozenset({"n_ctx", "n_threads", "replicas"})
    default_models: ClassVar[tuple[str, ...]] = (DEFAULT_LOCAL_MODEL,)
    takes_base_url: ClassVar[bool] = False

    def context_tokens(self, settings: ModelSettings) -> int | None:
        """``n_ctx``, else :data:`DEFAULT_N_CTX`."""
        return settings.n_ctx or DEFAULT_N_CTX

    def player(self, spec: str, settings: ModelSettings, *, seed: int) -> ModelPlayer:
        """A :class:`~players.models.local_player.LocalPlayer` (llama.cpp loads in ``prepare``)."""
        from players.models.local_player import LocalPlayer

        return LocalPlayer(spec, settings, seed=seed)


LOCAL = LocalProvider()
