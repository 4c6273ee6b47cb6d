"""Model providers as plugins: each one a :class:`Provider` registered in ``arena.providers``.

A provider holds its defaults (key variable, base URL, output cap, timeout, prices), what
its specs look like, how its SDK's errors are classified, and a factory for its player.
OpenAI, Anthropic, OpenAI-compatible servers and the offline local model are four such
plugins; a third party adds one with one module and one entry point line::

    [project.entry-points."arena.providers"]
    acme = "acme_provider:ACME"

Each installed provider is also a player kind (``acme:MODEL``, see :mod:`players.kinds`).
A provider module is imported when specs are first parsed or a models file is read, so it
must stay light: its SDK is imported only inside :meth:`Provider.player` and
:meth:`Provider.classify`, that is once a player is built or a call has failed.
"""

from __future__ import annotations

import os
import re
from abc import ABC, abstractmethod
from functools import cache
from typing import TYPE_CHECKING, ClassVar

from arena.plugins import entry_points as plugins
from arena.plugins.players import PlayerSpec, SpecError

if TYPE_CHECKING:
    from players.models.base import ModelPlayer
    from players.models.config import ModelSettings
    from players.models.retry import ProviderFailure

PROVIDERS_GROUP = "arena.providers"
BUILTIN_PRICE_SOURCE: dict[str, str] = {
    "source": "https://openai.com/api/pricing/ (cached input 0.1x for gpt-4.1 and gpt-5);"
    " https://www.anthropic.com/pricing (cache reads 0.1x, 5-minute cache writes 1.25x input)",
    "date": "2026-11-30",
}
"""Where the built-in providers' price ratios come from, and the date they were set in Arena:
they price cached and cache-write tokens whose price the models file leaves unset."""


class UnknownProviderError(LookupError):
    """A provider name no installed plugin registers."""


class Provider(ABC):
    """One model provider. Subclass, set the class variables and implement :meth:`player`."""

    name: ClassVar[str]
    """The provider's name: ``provider = NAME`` in the models file, ``NAME:MODEL`` as a spec."""
    spec_form: ClassVar[str]
    """How its specs are written, for help texts (``openai:MODEL``)."""
    listing_order: ClassVar[int] = 50
    key_env: ClassVar[str | None] = None
    """Environment variable holding the API key (``None``: no key needed)."""
    base_url: ClassVar[str | None] = None
    """Where calls go when the models file sets no ``base_url`` (``None``: the SDK's default)."""
    max_output_tokens: ClassVar[int] = 1024
    """Reply cap when the models file sets none (the schema estimate stays below it)."""
    timeout: ClassVar[float] = 60.0
    """Seconds per decision, retries included, when the models file sets no ``timeout``."""
    cached_input_ratio: ClassVar[float] = 0.1
    """Price of a cached input token as a share of the input price."""
    cache_write_ratio: ClassVar[float] = 1.0
    """Price of an input token written to the cache as a share of the input price."""
    prices: ClassVar[dict[str, tuple[float, float]]] = {}
    """Dollars per million input and output tokens by model id, for models the file does not price."""
    price_source: ClassVar[dict[str, str] | None] = None
    """Where :attr:`prices` and the ratios come from (``source``, ``date``), for reports."""
    settings_keys: ClassVar[frozenset[str]] = frozenset()
    """Provider-only settings of the models file it accepts (``api``, ``n_ctx``...)."""
    default_models: ClassVar[tuple[str, ...]] = ()
    """Models ``arena models`` lists even when no models file names them."""
    takes_base_url: ClassVar[bool] = True
    """Calls go over HTTP to an address a spec may give (``NAME:MODEL@BASE_URL``); ``False``:
    the model runs in-process and ``@http://...`` is refused."""

    def parse_spec(self, rest: str, text: str) -> PlayerSpec:
        """The spec for ``NAME:rest`` (``text`` is the whole spec, for messages): see :func:`split_spec`."""
        return split_spec(self, rest, text)

    def status_lines(self) -> list[str]:
        """Lines ``arena models`` prints for this provider: whether its key is set."""
        if self.key_env is None:
            return []
        if os.environ.get(self.key_env):
            return [f"{self.spec_form}\tavailable: {self.key_env} is set"]
        return [f"{self.spec_form}\tunavailable: {self.key_env} is not set"]

    def settings_problem(self, settings: ModelSettings) -> str | None:
        """What is wrong with ``settings`` for this provider (a missing base URL...), if anything."""
        return None

    def context_tokens(self, settings: ModelSettings) -> int | None:
        """The model's context size when it is known here (offline models), else ``None``."""
        return None

    def reasoning_allowance(self, settings: ModelSettings) -> int:
        """Output tokens added to the schema estimate for models whose hidden reasoning is output."""
        return 0

    def classify(self, exc: Exception) -> ProviderFailure | None:
        """The failure an SDK exception stands for (retryable, rate limit, fatal...); ``None``: unknown.

        Use :func:`players.models.retry.failure_from_status` for HTTP statuses.
        """
        return None

    @abstractmethod
    def player(self, spec: str, settings: ModelSettings, *, seed: int) -> ModelPlayer:
        """The player for ``settings``: import the SDK here, not at module level."""


URL_AFTER_AT = re.compile(r"@(?=https?://)")
"""Where ``MODEL@BASE_URL`` splits: the first ``@`` a URL scheme follows (a URL's own ``user@host``
comes after it; a model id or a path may hold an ``@`` of its own)."""


def split_spec(provider: Provider, rest: str, text: str) -> PlayerSpec:
    """``MODEL`` or ``MODEL@BASE_URL`` (each maybe ending ``?key=value...``) for ``provider``: the one
    reading of a provider spec's tail, so ``@URL`` is honoured or refused alike for every provider.

    A base URL is honoured by a provider that calls over HTTP (it replaces the default address)
    and refused by one that runs in-process; an ``@`` followed by something that is not a URL
    is refused where a base URL is taken, since it would otherwise end up in the model id.
    The ``?`` options are read when the spec is resolved against the models file.
    """
    if not rest:
        raise SpecError(f"{provider.name} spec needs a name, e.g. {provider.spec_form}")
    found = URL_AFTER_AT.search(rest)
    if found is None:
        if provider.takes_base_url and "@" in rest.partition("?")[0]:
            raise SpecError(
                f"{text!r}: after '@' comes a base URL starting http:// or https://,"
                f" e.g. {provider.name}:MODEL@http://127.0.0.1:8000/v1"
            )
        return PlayerSpec(provider.name, rest)
    model, base_url = rest[: found.start()], rest[found.end() :]
    if not provider.takes_base_url:
        raise SpecError(f"{text!r}: {provider.name} models run in this process and take no @BASE_URL")
    if not model:
        raise SpecError(f"{text!r}: the model's name comes before '@', e.g. {provider.name}:MODEL@{base_url}")
    return PlayerSpec(provider.name, model, base_url)


@cache
def providers() -> dict[str, Provider]:
    """Every installed provider by name, in listing order (a broken plugin is left out)."""
    found: list[Provider] = plugins.installed(PROVIDERS_GROUP, Provider)
    return {p.name: p for p in sorted(found, key=lambda p: (p.listing_order, p.name))}


def provider_named(name: str) -> Provider:
    """The installed provider ``name``; :class:`UnknownProviderError` (one line) if there is none."""
    found = providers().get(name)
    if found is None:
        known = ", ".join(providers()) or "none"
        raise UnknownProviderError(f"unknown provider {name!r} (installed: {known})")
    return found
