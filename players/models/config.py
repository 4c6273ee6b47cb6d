"""The models file: named model definitions, their settings and where the file lives.

A models file is TOML with one ``[models.NAME]`` table per model::

    [models.fast]
    provider = "openai"
    model = "gpt-5-mini"
    price_input_per_mtok = 0.25
    price_output_per_mtok = 2.0

Lookup order: an explicit path, else ``$ARENA_MODELS``, else ``./arena-models.toml``,
else ``~/.config/arena/models.toml``. A missing default file means an empty config;
a missing explicit file is an error. Errors are one line: ``file:key: problem``.

``provider`` names an installed provider plugin (:mod:`players.providers`); what a setting
left unset means (key variable, reply cap, timeout, prices) is that provider's default.
"""

from __future__ import annotations

import datetime
import os
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qsl, urlencode

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from arena.contract.usage import Usage, has_price
from arena.contract.validation_errors import first_problem, one_line
from arena.plugins.players import PlayerSpec, SpecError
from players.providers import Provider, UnknownProviderError, provider_named, providers

DEFAULT_MEMORY_BUDGET_TOKENS = 8000
MIN_PROMPT_TOKENS = 256
"""The least room an offline model's context must leave for the prompt after the reply cap."""
SPEC_OPTIONS = ("memory", "memory_budget_tokens", "effort", "thinking")
"""Settings a direct spec may carry after ``?``, e.g. ``openai:gpt-4.1-mini?memory=transcript``
or ``openai:gpt-5-mini?effort=high`` (``effort``: ``reasoning_effort``; ``thinking``: a budget in
tokens or ``adaptive``)."""
SPEC_OPTION_SETTINGS = {"effort": "reasoning_effort"}
"""A spec option's setting where its name differs (``thinking`` is read by :func:`_option_settings`)."""
PROVIDER_ONLY_SETTINGS: tuple[tuple[str, ...], ...] = (
    ("api",),
    ("anthropic_mode",),
    ("n_ctx", "n_threads"),
    ("replicas",),
    ("reasoning_effort",),
    ("thinking_budget_tokens",),
    ("thinking",),
    ("extra_body",),
)
"""Settings that apply to the providers whose ``settings_keys`` hold them, by group."""
EXAMPLE_MODELS_FILE = Path(__file__).with_name("example-models.toml")


class ConfigError(ValueError):
    """The models file cannot be read or is invalid (a one-line message)."""


class PriceSource(BaseModel):
    """Where a model's prices come from and the date they were read there (``price_source``).

    In the models file: ``price_source = { source = "https://openai.com/api/pricing/", date = 2026-11-30 }``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: str = Field(min_length=1)
    """The pricing page's URL, or another identifier of where the prices were read."""
    date: datetime.date
    """The day the prices were read there."""

    def as_dict(self) -> dict[str, str]:
        """``{"source": ..., "date": "YYYY-MM-DD"}``: how configurations and reports hold it."""
        return {"source": self.source, "date": self.date.isoformat()}


VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")
KEY_PREFIXES = (
    "sk-",
    "sk_",
    "pk-",
    "rk-",
    "xai-",
    "gsk_",
    "hf_",
    "ghp_",
    "github_pat_",
    "AIza",
    "AKIA",
    "ASIA",
)


def looks_like_variable_name(value: str) -> bool:
    """Whether ``value`` may be an environment variable's name rather than a secret: letters,
    digits and ``_`` (not first a digit), no known key prefix, and not a long run of letters and
    digits without a ``_`` (``OPENAI_API_KEY`` passes; ``sk-...``, ``AKIAIOSFODNN7EXAMPLE`` do not)."""
    if not VARIABLE_NAME.fullmatch(value) or value.startswith(KEY_PREFIXES):
        return False
    return "_" in value or len(value) < 20 or not any(char.isdigit() for char in value)


ReasoningEffort = Literal["none", "minimal", "low", "medium", "high", "xhigh"]
EFFORT_ALLOWANCE: dict[str, int] = {
    "none": 0,
    "minimal": 1024,
    "low": 2048,
    "medium": 4096,
    "high": 16384,
    "xhigh": 32768,
}
"""Output tokens a reply cap left to the schema estimate adds for the thinking each effort asks for."""
ADAPTIVE_THINKING_ALLOWANCE = 16384
"""Output tokens added for Anthropic's adaptive thinking (the model sets its own length)."""


class ModelSettings(BaseModel):
    """Settings of one model, from a ``[models.NAME]`` table or built-in defaults."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    provider: str
    """An installed provider's name (:func:`players.providers.providers`)."""
    model: str = Field(min_length=1)
    base_url: str | None = None
    api_key_env: str | None = None
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    max_output_tokens: int | None = Field(default=None, gt=0)
    timeout: float | None = Field(default=None, gt=0.0)
    max_concurrency: int = Field(default=4, ge=1)
    max_retries: int = Field(default=4, ge=0)
    price_input_per_mtok: float = Field(default=0.0, ge=0.0)
    price_output_per_mtok: float = Field(default=0.0, ge=0.0)
    price_cached_input_per_mtok: float | None = Field(default=None, ge=0.0)
    price_cache_write_per_mtok: float | None = Field(default=None, ge=0.0)
    price_source: PriceSource | None = None
    memory: Literal["none", "transcript"] = "none"
    memory_budget_tokens: int = Field(default=DEFAULT_MEMORY_BUDGET_TOKENS, ge=256)
    api: Literal["responses", "chat"] | None = None
    anthropic_mode: Literal["tool", "output_config"] | None = None
    n_ctx: int | None = Field(default=None, ge=256)
    n_threads: int | None = Field(default=None, ge=1)
    replicas: int | None = Field(default=None, ge=1)
    """On a cluster (``--cluster ray``): workers that each load this offline model (default 1)."""
    check_model_listed: bool = True
    max_consecutive_errors: int | None = Field(default=None, ge=1)
    reasoning_effort: ReasoningEffort | None = None
    """OpenAI and compatible servers: how hard a reasoning model thinks (Responses ``reasoning.effort``,
    Chat Completions ``reasoning_effort``)."""
    thinking_budget_tokens: int | None = Field(default=None, ge=1024)
    """Anthropic: extended thinking with this many tokens to think in (at least 1024, as the API asks)."""
    thinking: Literal["adaptive"] | None = None
    """Anthropic: ``adaptive`` thinking (the model decides how long it thinks)."""
    extra_body: dict[str, Any] | None = None
    """Compatible servers only: fields added to every request's body as they are
    (``{ chat_template_kwargs = { enable_thinking = false } }``)."""

    @model_validator(mode="before")
    @classmethod
    def _provider_prices(cls, data: Any) -> Any:
        """A model its provider prices and the file does not: the provider's prices and their source."""
        if not isinstance(data, dict) or {"price_input_per_mtok", "price_output_per_mtok"} & set(data):
            return data
        name = data.get("provider")
        plugin = providers().get(name) if isinstance(name, str) else None  # unknown: the field says so
        prices = plugin.prices.get(str(data.get("model"))) if plugin is not None else None
        if plugin is None or prices is None:
            return data
        filled = {**data, "price_input_per_mtok": prices[0], "price_output_per_mtok": prices[1]}
        if plugin.price_source is not None and "price_source" not in data:
            filled["price_source"] = plugin.price_source
        return filled

    @field_validator("provider")
    @classmethod
    def _check_provider(cls, value: str) -> str:
        try:
            provider_named(value)
        except UnknownProviderError as exc:
            raise ValueError(str(exc)) from None
        return value

    @field_validator("api_key_env")
    @classmethod
    def _check_key_env(cls, value: str | None) -> str | None:
        # The value is never repeated: a key pasted here would be printed by the error itself.
        if value is not None and not looks_like_variable_name(value):
            raise ValueError(
                "must name the environment variable that holds the key (e.g. OPENAI_API_KEY), not the"
                " key itself; the value given looks like a key, so it is not shown: put the key in a"
                ' variable (export MY_KEY=...) and write api_key_env = "MY_KEY"'
            )
        return value

    @field_validator("base_url")
    @classmethod
    def _check_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value.rstrip("/") if value else value

    @model_validator(mode="after")
    def _check_provider_options(self) -> ModelSettings:
        plugin = self.provider_plugin
        problem = plugin.settings_problem(self)
        if problem:
            raise ValueError(problem)
        for keys in PROVIDER_ONLY_SETTINGS:
            given = {key for key in keys if getattr(self, key) is not None}
            if given and not given <= plugin.settings_keys:
                raise ValueError(_provider_only(keys))
        problem = self._thinking_problem()
        if problem:
            raise ValueError(problem)
        context = self.context_tokens
        if context is not None and context - self.output_tokens < MIN_PROMPT_TOKENS:
            raise ValueError(
                f"a context of {context} tokens less the {self.output_tokens}-token reply cap leaves"
                f" {context - self.output_tokens} for the prompt (at least {MIN_PROMPT_TOKENS}):"
                " raise n_ctx or lower max_output_tokens"
            )
        return self

    def _thinking_problem(self) -> str | None:
        """Thinking settings that cannot be sent together (each is checked against its provider above)."""
        if self.thinking_budget_tokens is not None and self.thinking is not None:
            return "set thinking_budget_tokens or thinking = 'adaptive', not both"
        if self.thinks and self.anthropic_mode == "tool":
            # Anthropic answers a forced tool_choice with thinking on with HTTP 400.
            return (
                "thinking cannot go with anthropic_mode = 'tool' (a forced tool call with thinking is"
                " refused, HTTP 400): leave anthropic_mode unset or set it to 'output_config'"
            )
        if self.thinks and self.temperature is not None:
            return "temperature cannot be set with thinking (Anthropic refuses it): leave temperature unset"
        budget, cap = self.thinking_budget_tokens, self.max_output_tokens
        if budget is not None and cap is not None and budget >= cap:
            return (
                f"thinking_budget_tokens ({budget}) must be below max_output_tokens ({cap}),"
                " which counts the thinking too: raise max_output_tokens or leave it unset"
            )
        return None

    @property
    def thinks(self) -> bool:
        """Anthropic extended thinking is asked for (a budget or adaptive)."""
        return self.thinking_budget_tokens is not None or self.thinking is not None

    @property
    def thinking_allowance(self) -> int:
        """Output tokens the requested thinking needs on top of the answer (0: none requested)."""
        if self.thinking_budget_tokens is not None:
            return self.thinking_budget_tokens
        if self.thinking == "adaptive":
            return ADAPTIVE_THINKING_ALLOWANCE
        if self.reasoning_effort is not None:
            return EFFORT_ALLOWANCE[self.reasoning_effort]
        return 0

    @property
    def reasoning_label(self) -> str:
        """The reasoning settings in a few words (``effort high``, ``thinking 8000 tokens``); ``""``: none."""
        parts: list[str] = []
        if self.reasoning_effort is not None:
            parts.append(f"effort {self.reasoning_effort}")
        if self.thinking_budget_tokens is not None:
            parts.append(f"thinking {self.thinking_budget_tokens} tokens")
        if self.thinking is not None:
            parts.append(f"thinking {self.thinking}")
        if self.extra_body:
            keys = ", ".join(sorted(self.extra_body))
            parts.append(f"extra_body {keys}")
        return "; ".join(parts)

    @property
    def provider_plugin(self) -> Provider:
        """The installed provider these settings name (its defaults fill what is unset)."""
        return provider_named(self.provider)

    @property
    def key_env(self) -> str | None:
        """Environment variable holding the API key (``None``: no key needed)."""
        return self.api_key_env or self.provider_plugin.key_env

    @property
    def endpoint(self) -> str | None:
        """Where calls go: ``base_url``, else the provider's default (``None``: the SDK's own)."""
        return self.base_url or self.provider_plugin.base_url

    @property
    def output_tokens(self) -> int:
        """Output token cap with the provider default filled in."""
        return self.max_output_tokens or self.provider_plugin.max_output_tokens

    @property
    def context_tokens(self) -> int | None:
        """The context size when it is known here (offline models), else ``None``."""
        return self.provider_plugin.context_tokens(self)

    @property
    def memory_budget(self) -> int:
        """The transcript memory budget in effect: the configured one, capped to fit the context.

        With a known context the prompt and remembered turns may use what the reply cap
        leaves of it; a hosted model's context is not known here, so its budget is as set.
        """
        context = self.context_tokens
        if context is None:
            return self.memory_budget_tokens
        return min(self.memory_budget_tokens, context - self.output_tokens)

    @property
    def turn_timeout(self) -> float:
        """Per-decision deadline in seconds with the provider default filled in."""
        return self.timeout or self.provider_plugin.timeout

    @property
    def reasoning_allowance(self) -> int:
        """Extra output tokens for the thinking a reply needs room for: what the settings ask for
        (an effort, a thinking budget), else the provider's allowance for models whose hidden
        reasoning counts as output (OpenAI gpt-5, o-series)."""
        return self.thinking_allowance or self.provider_plugin.reasoning_allowance(self)

    @property
    def explicitly_free(self) -> bool:
        """Both prices given in the models file, and both 0: a free model, whose dollars are known ($0).

        A price left out defaults to 0 too, but then the cost is unknown (``unpriced``), not $0.
        """
        given = {"price_input_per_mtok", "price_output_per_mtok"} <= self.model_fields_set
        return given and not self.price_input_per_mtok and not self.price_output_per_mtok

    @property
    def cached_input_price(self) -> float:
        """Dollars per million cached input tokens: the models-file price, else the provider ratio."""
        if self.price_cached_input_per_mtok is not None:
            return self.price_cached_input_per_mtok
        return self.price_input_per_mtok * self.provider_plugin.cached_input_ratio

    @property
    def cache_write_price(self) -> float:
        """Dollars per million input tokens written to the cache (Anthropic 1.25x; others bill none)."""
        if self.price_cache_write_per_mtok is not None:
            return self.price_cache_write_per_mtok
        return self.price_input_per_mtok * self.provider_plugin.cache_write_ratio

    @property
    def has_price(self) -> bool:
        """Whether these settings price a model's tokens (:func:`arena.contract.usage.has_price`)."""
        return self.explicitly_free or has_price(self.__dict__)  # the fields, by name

    def priced(self, usage: Usage) -> Usage:
        """``usage`` with its dollars at these prices, marked ``unpriced`` when there are none."""
        cost = self.cost(
            usage.input_tokens,
            usage.output_tokens,
            cached_tokens=usage.cached_tokens,
            cache_write_tokens=usage.cache_write_tokens,
        )
        return replace(usage, cost_usd=cost, unpriced=not self.has_price)

    def cost(
        self, input_tokens: int, output_tokens: int, *, cached_tokens: int = 0, cache_write_tokens: int = 0
    ) -> float:
        """Dollar cost of a call from the per-million-token prices (0 if unknown).

        ``input_tokens`` counts every input token; ``cached_tokens`` of them were read from
        the provider's cache and ``cache_write_tokens`` written to it, each at its own price.
        """
        fresh = max(0, input_tokens - cached_tokens - cache_write_tokens)
        dollars = (
            fresh * self.price_input_per_mtok
            + cached_tokens * self.cached_input_price
            + cache_write_tokens * self.cache_write_price
            + output_tokens * self.price_output_per_mtok
        )
        return dollars / 1e6


@dataclass(frozen=True)
class ModelsConfig:
    """All named models of a models file (empty when there is no file)."""

    models: dict[str, ModelSettings] = field(default_factory=dict)
    source: Path | None = None

    def resolve(self, spec: PlayerSpec) -> tuple[str, ModelSettings]:
        """Canonical spec text and settings for a model spec; :class:`SpecError` if unknown.

        A direct spec (``openai:gpt-5-mini``) borrows the settings of the first named
        model with the same provider, model and base URL (prices, limits), else defaults.
        A trailing ``?memory=transcript`` (and ``&memory_budget_tokens=N``) on a direct
        spec sets those settings (:data:`SPEC_OPTIONS`).
        """
        spec, options = _spec_options(spec)
        text, settings = self._resolve(spec)
        if not options:
            return text, settings
        text = f"{text}?{urlencode(options)}"
        try:
            # Only the fields the models file set, so "which prices were given" survives the options.
            given = settings.model_dump(exclude_unset=True)
            return text, ModelSettings.model_validate({**given, **_option_settings(options)})
        except ValidationError as exc:
            raise SpecError(f"{text!r}: {one_line(exc, whole='settings')}") from None

    def _resolve(self, spec: PlayerSpec) -> tuple[str, ModelSettings]:
        if spec.kind == "named":
            settings = self.models.get(spec.name)
            if settings is None:
                where = f" in {self.source}" if self.source else " (no models file found)"
                known = ", ".join(sorted(self.models)) or "none"
                raise SpecError(f"unknown model {spec.name!r}{where}; defined models: {known}")
            return spec.text, settings
        if spec.kind not in providers():
            raise SpecError(f"{spec.text!r} is not a model spec")
        base_url = spec.base_url.rstrip("/") if spec.base_url else None
        for settings in self.models.values():
            if (settings.provider, settings.model, settings.base_url) == (spec.kind, spec.name, base_url):
                return spec.text, settings
        try:
            return spec.text, ModelSettings(provider=spec.kind, model=spec.name, base_url=base_url)
        except ValidationError as exc:
            raise SpecError(f"{spec.text!r}: {first_problem(exc).message}") from None


def _spec_options(spec: PlayerSpec) -> tuple[PlayerSpec, dict[str, str]]:
    """The spec without a trailing ``?key=value&...`` and those options (only :data:`SPEC_OPTIONS`)."""
    at_url = spec.base_url is not None  # MODEL@BASE_URL: options follow the URL
    where = spec.base_url if at_url and spec.base_url else spec.name
    head, sep, query = where.partition("?")
    if not sep or spec.kind == "named":
        return spec, {}
    pairs = parse_qsl(query, keep_blank_values=True)
    unknown = [key for key, _ in pairs if key not in SPEC_OPTIONS]
    if at_url and unknown:
        return spec, {}  # a query the server's URL needs, not options of ours
    if unknown or not pairs:
        known = ", ".join(SPEC_OPTIONS)
        bad = unknown[0] if unknown else query
        raise SpecError(f"{spec.text!r}: unknown option {bad!r} after '?' (known: {known})")
    options = dict(pairs)
    if at_url:
        return PlayerSpec(spec.kind, spec.name, head), options
    return PlayerSpec(spec.kind, head, spec.base_url), options


def _option_settings(options: dict[str, str]) -> dict[str, str]:
    """A spec's ``?`` options as the settings they stand for: ``effort`` is ``reasoning_effort``,
    ``thinking=N`` a budget in tokens (``thinking_budget_tokens``), ``thinking=adaptive`` itself."""
    settings = {SPEC_OPTION_SETTINGS.get(key, key): value for key, value in options.items()}
    thinking = settings.pop("thinking", None)
    if thinking is not None and thinking.strip().isdigit():
        settings["thinking_budget_tokens"] = thinking.strip()
    elif thinking is not None:
        settings["thinking"] = thinking
    return settings


def default_models_path() -> Path | None:
    """The models file that would be read with no explicit path (``None`` if none exists)."""
    env = os.environ.get("ARENA_MODELS")
    if env:
        return Path(env).expanduser()
    local = Path("arena-models.toml")
    if local.is_file():
        return local
    config_home = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    user = config_home / "arena" / "models.toml"
    return user if user.is_file() else None


def load_models_config(path: str | Path | None = None) -> ModelsConfig:
    """Read and validate a models file; raises :class:`ConfigError` with a one-line message."""
    explicit = path is not None or bool(os.environ.get("ARENA_MODELS"))
    target = Path(path).expanduser() if path is not None else default_models_path()
    if target is None:
        return ModelsConfig()
    if not target.is_file():
        if explicit:
            raise ConfigError(f"{target}: models file not found")
        return ModelsConfig()
    try:
        data = tomllib.loads(target.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{target}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{target}: invalid TOML: {exc}") from None
    return parse_models_config(data, source=target)


def parse_models_config(data: dict[str, Any], *, source: Path | None = None) -> ModelsConfig:
    """Validate already-parsed TOML data (see :func:`load_models_config`)."""
    where = str(source) if source else "<models>"
    unknown = sorted(set(data) - {"models"})
    if unknown:
        raise ConfigError(f"{where}:{unknown[0]}: unknown top-level key (expected [models.NAME] tables)")
    tables = data.get("models", {})
    if not isinstance(tables, dict):
        raise ConfigError(f"{where}:models: must be a table of [models.NAME] tables")
    models: dict[str, ModelSettings] = {}
    for name, table in tables.items():
        key = f"{where}:models.{name}"
        if not name or not all(ch.isalnum() or ch in "-_." for ch in name):
            raise ConfigError(f"{key}: model names may use letters, digits, '-', '_' and '.' only")
        if not isinstance(table, dict):
            raise ConfigError(f"{key}: must be a table")
        if "provider" not in table:
            raise ConfigError(f"{key}.provider: missing (one of {', '.join(providers())})")
        try:
            models[name] = ModelSettings.model_validate(table)
        except ValidationError as exc:
            problem = first_problem(exc)
            suffix = f".{problem.where}" if problem.where else ""
            raise ConfigError(f"{key}{suffix}: {problem.message}") from None
    return ModelsConfig(models=models, source=source)


def example_models_toml() -> str:
    """Text of the shipped example models file."""
    return EXAMPLE_MODELS_FILE.read_text(encoding="utf-8")


def _provider_only(keys: tuple[str, ...]) -> str:
    """``'api' applies to provider openai only``: the installed providers that take ``keys``."""
    names = " and ".join(repr(key) for key in keys)
    verb = "applies" if len(keys) == 1 else "apply"
    takers = [name for name, plugin in providers().items() if set(keys) <= plugin.settings_keys]
    if not takers:
        return f"{names} {verb} to no installed provider"
    noun = "provider" if len(takers) == 1 else "providers"
    return f"{names} {verb} to {noun} {', '.join(takers)} only"
