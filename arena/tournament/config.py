"""What a tournament plays: game, players, deal seeds, options and limits.

A tournament is described once, by command-line flags or a TOML file, validated here and
stored with the tournament row, so ``arena tournament resume`` plays exactly the same
schedule. Every field is checked before anything is played; a mistake is one line.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from arena.contract.validation_errors import first_problem
from arena.tournament.cluster import parse_cluster

DEFAULT_CONCURRENCY = 4
MAX_CONCURRENCY = 256


class TournamentConfigError(ValueError):
    """A tournament description that cannot be played (one line, names the field)."""


class TournamentConfig(BaseModel):
    """A tournament's full description, stored as JSON with the tournament row."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    game: str = Field(description="game name (see: arena games)")
    players: tuple[str, ...] = Field(description="player specs, each entered once")
    seeds: int = Field(ge=1, le=1_000_000, description="deal seeds every line-up plays")
    seed: int = Field(default=0, ge=0, le=2**63 - 1, description="master seed the deal seeds come from")
    name: str = Field(default="", max_length=200, description="a name for listings")
    options: dict[str, Any] = Field(default_factory=dict, description="game options")
    concurrency: int = Field(
        default=DEFAULT_CONCURRENCY, ge=1, le=MAX_CONCURRENCY, description="episodes played at once"
    )
    budget_usd: float | None = Field(default=None, ge=0, description="stop starting episodes past this spend")
    retries: int = Field(default=1, ge=0, le=5, description="replays of a slot whose episode failed")
    on_invalid: Literal["fallback", "forfeit"] = Field(
        default="fallback",
        description="a seat's unusable answer after the re-ask: the game's fallback move, or a forfeit of"
        " the episode (ranked last, its metrics left out)",
    )
    cluster: str | None = Field(
        default=None,
        description="where to play: ray (a Ray instance started here) or ray=ADDRESS (a running cluster);"
        " a run option, not stored with the tournament",
    )

    @field_validator("cluster")
    @classmethod
    def _cluster(cls, value: str | None) -> str | None:
        return None if value is None else parse_cluster(value).text

    @field_validator("players")
    @classmethod
    def _distinct(cls, players: tuple[str, ...]) -> tuple[str, ...]:
        cleaned = tuple(p.strip() for p in players)
        if any(not p for p in cleaned):
            raise ValueError("a player spec is empty")
        repeated = sorted({p for p in cleaned if cleaned.count(p) > 1})
        if repeated:
            raise ValueError(f"each player once; repeated: {', '.join(repeated)}")
        return cleaned

    def display_name(self) -> str:
        """The given name, else ``game: a vs b vs c``."""
        return self.name or f"{self.game}: {' vs '.join(self.players)}"


def build_config(**fields: Any) -> TournamentConfig:
    """A validated config; raises :class:`TournamentConfigError` naming the first bad field."""
    try:
        return TournamentConfig.model_validate(fields)
    except ValidationError as exc:
        raise TournamentConfigError(_first_error(exc)) from None


def load_config_file(path: str | Path, **overrides: Any) -> TournamentConfig:
    """Read a TOML tournament file; ``overrides`` (non-``None`` values) win over the file.

    The file holds the same fields as the flags: ``game``, ``players`` (a list), ``seeds``,
    ``seed``, ``name``, ``concurrency``, ``budget_usd``, ``retries``, ``on_invalid``, ``cluster``
    and an ``[options]`` table.
    """
    file = Path(path)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TournamentConfigError(f"cannot read {file}: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise TournamentConfigError(f"{file}: not valid TOML ({exc})") from None
    for key, value in overrides.items():
        if value is None or value == () or value == {}:
            continue
        if key == "options":
            data["options"] = {**data.get("options", {}), **value}
        else:
            data[key] = value
    try:
        return TournamentConfig.model_validate(data)
    except ValidationError as exc:
        raise TournamentConfigError(f"{file}: {_first_error(exc)}") from None


def _first_error(exc: ValidationError) -> str:
    problem = first_problem(exc)
    where = problem.where or "tournament"
    if problem.type == "extra_forbidden":
        known = ", ".join(TournamentConfig.model_fields)
        return f"unknown field {where!r} (fields: {known})"
    if problem.type == "missing":
        return f"{where} is required"
    return f"{where}: {problem.message}"
