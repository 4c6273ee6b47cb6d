"""Effort sweeps: one model played at several reasoning settings in one tournament, as one table.

Players are told apart by their configuration (its hash), so ``gpt-5-mini`` at effort low,
medium and high are three players. A sweep groups the players whose configurations name the
same provider, model and base URL and differ in their reasoning settings; each level's row
holds its rating, its reasoning tokens per decision and its dollars per episode, ordered by
reasoning tokens, so a reader sees what more thinking bought. Pure: it reads the table's rows
and the stored configurations only.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

REASONING_KEYS = ("reasoning_effort", "thinking_budget_tokens", "thinking", "extra_body")
"""Configuration keys that make one model's players differ in how they think."""


def level_label(config: dict[str, Any]) -> str:
    """A configuration's reasoning settings in a few words (``effort high``); ``default`` for none."""
    parts: list[str] = []
    if config.get("reasoning_effort") is not None:
        parts.append(f"effort {config['reasoning_effort']}")
    if config.get("thinking_budget_tokens") is not None:
        parts.append(f"thinking {config['thinking_budget_tokens']}")
    if config.get("thinking") is not None:
        parts.append(f"thinking {config['thinking']}")
    if config.get("extra_body"):
        parts.append("extra_body " + ",".join(sorted(config["extra_body"])))
    return "; ".join(parts) or "default"


def effort_sweeps(
    rows: list[dict[str, Any]],
    settings: dict[str, dict[str, Any]],
    reasoning: dict[str, tuple[int, int]],
    cost: dict[str, dict[str, Any]],
) -> list[dict[str, Any]]:
    """One sweep per model played at two or more reasoning settings.

    ``rows`` are the ratings table's player rows, ``settings`` each player's stored
    configuration, ``reasoning`` each player's (reasoning tokens, decisions) and ``cost`` the
    table's ``cost.per_player``. A level's ``reasoning_tokens_per_decision`` is ``None`` with no
    decisions; its ``usd_per_episode`` is ``None`` when the player is unpriced.
    """
    by_model: defaultdict[tuple[str, str, str], list[str]] = defaultdict(list)
    for player, config in settings.items():
        if not isinstance(config, dict) or not config.get("model"):
            continue
        key = (str(config.get("provider", "")), str(config["model"]), str(config.get("base_url") or ""))
        by_model[key].append(player)
    rated = {row["player"]: row for row in rows}
    sweeps: list[dict[str, Any]] = []
    for (provider, model, _), players in by_model.items():
        labels = {player: level_label(settings[player]) for player in players}
        if len(players) < 2 or len(set(labels.values())) < 2:
            continue
        levels = []
        for player in players:
            tokens, decisions = reasoning.get(player, (0, 0))
            row = rated.get(player, {})
            levels.append(
                {
                    "player": player,
                    "level": labels[player],
                    "rating": row.get("rating"),
                    "rating_low": row.get("rating_low"),
                    "rating_high": row.get("rating_high"),
                    "reasoning_tokens_per_decision": round(tokens / decisions, 1) if decisions else None,
                    "usd_per_episode": None
                    if row.get("unpriced")
                    else cost.get(player, {}).get("usd_per_episode"),
                }
            )
        levels.sort(key=lambda level: (level["reasoning_tokens_per_decision"] or 0.0, level["player"]))
        sweeps.append({"model": f"{provider}:{model}", "levels": levels})
    return sweeps
