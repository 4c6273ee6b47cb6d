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
"""

from __future__ import annotations

import datetime
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qsl, urlencode

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from arena.plugins.players import PlayerSpec, SpecError

Provider = Literal["openai", "anthropic", "openai-compat", "local"]

DEFAULT_KEY_ENV: dict[str, str | None] = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "openai-compat": None,
    "local": None,
}
DEFAULT_MAX_OUTPUT_TOKENS: dict[str, int] = {
    "openai": 4096,
    "anthropic": 2048,
    "openai-compat": 1024,
    "local": 256,
}
REASONING_ALLOWANCE = 4096
"""Output tokens added to the schema estimate for OpenAI reasoning models (thinking is output)."""
REASONING_FAMILIES = ("gpt-5", "o1", "o3", "o4")
DEFAULT_CACHED_INPUT_RATIO: dict[str, float] = {
    "openai": 0.1,
    "anthropic": 0.1,
    "openai-compat": 0.1,
    "local": 0.0,
}
"""Price of a cached input token as a share of the input price (OpenAI gpt-4.1/gpt-5 families
and Anthropic cache reads: 0.1x; older OpenAI families are 0.25-0.5x: set the price)."""
ANTHROPIC_CACHE_WRITE_RATIO = 1.25
"""Price of an Anthropic cache write (5-minute cache) as a share of the input price."""
BUILTIN_PRICE_SOURCE: dict[str, str] = {
    "source": "https://openai.com/api/pricing/ (cached input 0.1x for gpt-4.1 and gpt-5);"
    " https://www.anthropic.com/pricing (cache reads 0.1x, 5-minute cache writes 1.25x input)",
    "date": "2026-11-30",
}
"""Where the built-in ratios above come from, and the date they were set in Arena: they price
cached and cache-write tokens whose price the models file leaves unset."""
DEFAULT_MEMORY_BUDGET_TOKENS = 8000
MIN_PROMPT_TOKENS = 256
"""The least room an offline model's context must leave for the prompt after the reply cap."""
DEFAULT_N_CTX = 4096
"""Context size of an offline model when the models file sets no ``n_ctx``."""
SPEC_OPTIONS = ("memory", "memory_budget_tokens")
"""Settings a direct spec may carry after ``?``, e.g. ``openai:gpt-4.1-mini?memory=transcript``."""
DEFAULT_TIMEOUT: dict[str, float] = {"openai": 60.0, "anthropic": 60.0, "openai-compat": 60.0, "local": 120.0}
DEFAULT_LOCAL_MODEL = "gemma3-270m"
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


class ModelSettings(BaseModel):
    """Settings of one model, from a ``[models.NAME]`` table or built-in defaults."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    provider: Provider
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
    check_model_listed: bool = True
    max_consecutive_errors: int | None = Field(default=None, ge=1)

    @field_validator("base_url")
    @classmethod
    def _check_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value.rstrip("/") if value else value

    @model_validator(mode="after")
    def _check_provider_options(self) -> ModelSettings:
        if self.provider == "openai-compat" and not self.base_url:
            raise ValueError("openai-compat needs base_url, e.g. http://127.0.0.1:8000/v1")
        if self.api is not None and self.provider != "openai":
            raise ValueError("'api' applies to provider openai only")
        if self.anthropic_mode is not None and self.provider != "anthropic":
            raise ValueError("'anthropic_mode' applies to provider anthropic only")
        if (self.n_ctx is not None or self.n_threads is not None) and self.provider != "local":
            raise ValueError("'n_ctx' and 'n_threads' apply to provider local only")
        context = self.context_tokens
        if context is not None and context - self.output_tokens < MIN_PROMPT_TOKENS:
            raise ValueError(
                f"a context of {context} tokens less the {self.output_tokens}-token reply cap leaves"
                f" {context - self.output_tokens} for the prompt (at least {MIN_PROMPT_TOKENS}):"
                " raise n_ctx or lower max_output_tokens"
            )
        return self

    @property
    def key_env(self) -> str | None:
        """Environment variable holding the API key (``None``: no key needed)."""
        return self.api_key_env or DEFAULT_KEY_ENV[self.provider]

    @property
    def output_tokens(self) -> int:
        """Output token cap with the provider default filled in."""
        return self.max_output_tokens or DEFAULT_MAX_OUTPUT_TOKENS[self.provider]

    @property
    def context_tokens(self) -> int | None:
        """The context size when it is known here (offline models), else ``None``."""
        return (self.n_ctx or DEFAULT_N_CTX) if self.provider == "local" else None

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
        return self.timeout or DEFAULT_TIMEOUT[self.provider]

    @property
    def reasoning_allowance(self) -> int:
        """Extra output tokens for models whose hidden reasoning counts as output (OpenAI gpt-5, o-series)."""
        if self.provider == "openai" and self.model.startswith(REASONING_FAMILIES):
            return REASONING_ALLOWANCE
        return 0

    @property
    def cached_input_price(self) -> float:
        """Dollars per million cached input tokens: the models-file price, else the provider ratio."""
        if self.price_cached_input_per_mtok is not None:
            return self.price_cached_input_per_mtok
        return self.price_input_per_mtok * DEFAULT_CACHED_INPUT_RATIO[self.provider]

    @property
    def cache_write_price(self) -> float:
        """Dollars per million input tokens written to the cache (Anthropic 1.25x; others bill none)."""
        if self.price_cache_write_per_mtok is not None:
            return self.price_cache_write_per_mtok
        ratio = ANTHROPIC_CACHE_WRITE_RATIO if self.provider == "anthropic" else 1.0
        return self.price_input_per_mtok * ratio

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
            return text, ModelSettings.model_validate({**settings.model_dump(), **options})
        except ValidationError as exc:
            field_name = ".".join(str(part) for part in exc.errors()[0]["loc"])
            raise SpecError(f"{text!r}: {field_name}: {_first_message(exc)}") from None

    def _resolve(self, spec: PlayerSpec) -> tuple[str, ModelSettings]:
        if spec.kind == "named":
            settings = self.models.get(spec.name)
            if settings is None:
                where = f" in {self.source}" if self.source else " (no models file found)"
                known = ", ".join(sorted(self.models)) or "none"
                raise SpecError(f"unknown model {spec.name!r}{where}; defined models: {known}")
            return spec.text, settings
        if spec.kind not in DEFAULT_KEY_ENV:
            raise SpecError(f"{spec.text!r} is not a model spec")
        base_url = spec.base_url.rstrip("/") if spec.base_url else None
        for settings in self.models.values():
            if (settings.provider, settings.model, settings.base_url) == (spec.kind, spec.name, base_url):
                return spec.text, settings
        try:
            return spec.text, ModelSettings(provider=spec.kind, model=spec.name, base_url=base_url)
        except ValidationError as exc:
            raise SpecError(f"{spec.text!r}: {_first_message(exc)}") from None


def _spec_options(spec: PlayerSpec) -> tuple[PlayerSpec, dict[str, str]]:
    """The spec without a trailing ``?key=value&...`` and those options (only :data:`SPEC_OPTIONS`)."""
    compat = spec.kind == "openai-compat" and spec.base_url is not None
    where = spec.base_url if compat and spec.base_url else spec.name
    head, sep, query = where.partition("?")
    if not sep or spec.kind == "named":
        return spec, {}
    pairs = parse_qsl(query, keep_blank_values=True)
    unknown = [key for key, _ in pairs if key not in SPEC_OPTIONS]
    if compat and unknown:
        return spec, {}  # a query the server's URL needs, not options of ours
    if unknown or not pairs:
        known = ", ".join(SPEC_OPTIONS)
        bad = unknown[0] if unknown else query
        raise SpecError(f"{spec.text!r}: unknown option {bad!r} after '?' (known: {known})")
    options = dict(pairs)
    if compat:
        return PlayerSpec(spec.kind, spec.name, head), options
    return PlayerSpec(spec.kind, head, spec.base_url), options


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
            raise ConfigError(f"{key}.provider: missing (one of openai, anthropic, openai-compat, local)")
        try:
            models[name] = ModelSettings.model_validate(table)
        except ValidationError as exc:
            error = exc.errors()[0]
            field_path = ".".join(str(part) for part in error["loc"])
            suffix = f".{field_path}" if field_path else ""
            raise ConfigError(f"{key}{suffix}: {_clean(error['msg'])}") from None
    return ModelsConfig(models=models, source=source)


def example_models_toml() -> str:
    """Text of the shipped example models file."""
    return EXAMPLE_MODELS_FILE.read_text(encoding="utf-8")


def _first_message(exc: ValidationError) -> str:
    return _clean(exc.errors()[0]["msg"])


def _clean(message: str) -> str:
    for prefix in ("Value error, ", "Assertion failed, "):
        if message.startswith(prefix):
            return message[len(prefix) :]
    return message
