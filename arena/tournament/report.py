"""``arena tournament report``: ``report.json`` (validated against its schema) and ``report.md``.

The report carries the five disclosure parts of seed 003 - benchmark identity, harness,
inference settings as actually used, cost and the failure breakdown - plus the tables of
:func:`arena.tournament.standings.tournament_table`. Keys never appear: player settings are
filtered of anything named like a key before they are written.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from arena import __version__
from arena.lineup import build_player
from arena.registry import get_game
from arena.runner import REASK_ERRORS
from arena.store import Store, StoreError
from arena.tournament.report_metrics import metrics_markdown
from arena.tournament.report_schema import validate_report
from arena.tournament.run import load_tournament
from arena.tournament.schedule import __doc__ as SCHEDULE_DOC
from arena.tournament.standings import tournament_table
from arena.tournament.wording import (
    gap_text,
    groups_note,
    interval_text,
    probability_text,
    rating_text,
    rough_note,
    separation_text,
)

SCHEMA_VERSION = 1
DEAL_SEED_RULE = "deal_seed(master, i) = int(sha256('arena-suite:{master}:{i}')[:4]) & 0x7FFFFFFF"
TIMEOUT_NOTE = "the runner sets no per-decision timeout; each model player applies its own (see inference)"


class NothingToReport(ValueError):
    """The tournament has no finished episode yet."""


def build_report(store: Store, tournament_id: int) -> dict[str, Any]:
    """The ``report.json`` document of a tournament (validated)."""
    stored = load_tournament(store, tournament_id)
    row, config = stored
    table = tournament_table(store, tournament_id, stored=stored)
    if table["ratings"] is None:
        raise NothingToReport(f"tournament {tournament_id} has no finished episode to report yet")
    spec = get_game(config.game)
    info = table["tournament"]
    status = info["status"]
    sample = spec.create(0, info["options"])
    report: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "identity": {
            "tournament_id": tournament_id,
            "name": info["name"],
            "game": config.game,
            "game_version": spec.version,
            "prompt_version": spec.prompt_version,
            "arena_version": __version__,
            "master_seed": config.seed,
            "seeds": config.seeds,
            "deal_seed_rule": DEAL_SEED_RULE,
            "schedule_rule": _schedule_rule(),
            "seats": info["seats"],
            "options": info["options"],
            "players": list(config.players),
            "episodes_planned": info["slots"],
            "episodes_finished": info["counted"],
            "status": status,
            "started_at": row.get("created_at"),
            "finished_at": row.get("finished_at"),
        },
        "harness": {
            "seats": info["seats"],
            "first_to_move": sample.pending(),
            "episode_length": sample.progress()[1] or None,
            "timeout": None,
            "timeout_note": TIMEOUT_NOTE,
            "reask": "one re-ask with the validation error for: " + ", ".join(sorted(REASK_ERRORS)),
            "fallback": inspect.getdoc(type(sample).fallback) or "the game's conservative fallback",
            "budget": {"usd": config.budget_usd} if config.budget_usd is not None else None,
            "concurrency": config.concurrency,
        },
        "inference": _inference_all(row, config.players, config.game, info["seats"][0]),
        "cost": table["cost"],
        "failures": table["failures"],
        "ratings": table["ratings"],
        "players": table["players"],
        "win_matrix": table["win_matrix"],
        "metrics": table["metrics"],
        "metrics_by_seat": table["metrics_by_seat"],
        "deal_facts": table["deal_facts"],
        "outcome_rule": table["outcome_rule"],
        "order_confidence": table["order_confidence"],
        "left_out": [{k: v for k, v in item.items() if k != "players"} for item in table["left_out"]],
    }
    validate_report(report)
    return report


def _schedule_rule() -> str:
    text = (SCHEDULE_DOC or "").split("Line-ups.", 1)[-1].split("Keys.", 1)[0]
    return " ".join(text.split())


def _inference_all(row: dict[str, Any], players: tuple[str, ...], game: str, seat: str) -> dict[str, Any]:
    """Each player's configuration as the tournament ran it (stored at its first run)."""
    stored = dict(row.get("config") or {})
    hashes: dict[str, str] = dict(stored.get("player_configs") or {})
    settings: dict[str, dict[str, Any]] = dict(stored.get("player_settings") or {})
    result: dict[str, Any] = {}
    for player in players:
        if player in settings:
            config = settings[player]
            result[player] = {
                "spec": player,
                "kind": str(config.get("kind", "")),
                "config_hash": hashes.get(player, ""),
                "settings": _keyless(config),
            }
        else:
            result[player] = _inference(player, game, seat)
    return result


def _inference(text: str, game: str, seat: str) -> dict[str, Any]:
    player = build_player(text, get_game(game), seed=0, seat=seat)
    info: dict[str, Any] = {"spec": player.spec or text, "kind": player.kind}
    settings = getattr(player, "settings", None)
    if isinstance(settings, BaseModel):
        info["settings"] = _keyless(settings.model_dump(mode="json"))
    return info


def _keyless(settings: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in settings.items() if "key" not in k.lower().replace("-", "_").replace("_", "")}


def write_report(store: Store, tournament_id: int, folder: Path) -> list[Path]:
    """Write ``report.json`` and ``report.md`` into ``folder`` (created); returns their paths."""
    report = build_report(store, tournament_id)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        json_path = folder / "report.json"
        json_path.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        md_path = folder / "report.md"
        md_path.write_text(markdown(report), encoding="utf-8")
    except OSError as exc:
        raise StoreError(f"cannot write the report to {folder}: {exc.strerror or exc}") from None
    return [json_path, md_path]


def _cell(value: Any, digits: int = 2) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value).replace("|", "\\|").replace("\n", " ")


def _ratings_markdown(report: dict[str, Any]) -> list[str]:
    """The ratings section: how they were fitted, one table per group, and how sure the order is."""
    info = report["ratings"]
    method = "Plackett-Luce" if info["method"] == "plackett-luce" else "Bradley-Terry"
    lines = [f"## Ratings ({method})", "", f"- fit: {info['fit']}", f"- intervals: {info['interval']}"]
    lines.append(f"- scale: {info['scale']}")
    for note in (rough_note(info), groups_note(info)):
        if note:
            lines.append(f"- **{_cell(note)}**")
    groups = sorted({row.get("group") for row in report["players"]}, key=lambda g: (g is None, g or 0))
    for group in groups:
        if group is None:
            lines += ["", "### No finished games (not rated)"]
        elif len(groups) > 1:
            lines += ["", f"### Group {group} (comparable within this group only)"]
        lines += [
            "",
            "| # | player | rating | 95% interval | episodes | W | D | L | $/episode |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in (r for r in report["players"] if r.get("group") == group):
            lines.append(
                f"| {_cell(row.get('rank'))} | {_cell(row['player'])} | {_cell(rating_text(row))}"
                f" | {interval_text(row)} | {row['episodes']} | {row['wins']} | {row['draws']}"
                f" | {row['losses']} | {_cell(row.get('usd_per_episode'), 4)} |"
            )
    if info.get("openskill"):
        lines += [
            "",
            f"{info['openskill']['label']}:",
            "",
            "| player | mu | sigma | games |",
            "|---|---:|---:|---:|",
        ]
        lines += [
            f"| {_cell(r['player'])} | {r['mu']:.2f} | {r['sigma']:.2f} | {r['games']} |"
            for r in info["openskill"]["rows"]
        ]
    lines += ["", "## How sure is the order?", "", "| higher | lower | gap | P(order right) | to separate |"]
    lines.append("|---|---|---:|---:|---|")
    for row in report["order_confidence"]:
        lines.append(
            f"| {_cell(row['higher'])} | {_cell(row['lower'])} | {gap_text(row)}"
            f" | {probability_text(row['p_order_right'])} | {_cell(separation_text(row))} |"
        )
    return lines


def markdown(report: dict[str, Any]) -> str:
    """The report as Markdown: identity, ratings, order confidence, metrics, cost, failures."""
    ident, harness = report["identity"], report["harness"]
    lines = [
        f"# Tournament {ident['tournament_id']}: {_cell(ident['name'])}",
        "",
        "## Benchmark identity",
        f"- game `{ident['game']}` version {ident['game_version']}, prompt {ident['prompt_version']},"
        f" arena {ident['arena_version']}",
        f"- {ident['seeds']} deal seeds from master seed {ident['master_seed']} ({ident['deal_seed_rule']})",
        f"- seats: {', '.join(ident['seats'])}; options: `{json.dumps(ident['options'])}`",
        f"- episodes: {ident['episodes_finished']} of {ident['episodes_planned']} counted;"
        f" status {ident['status']}",
        f"- schedule: {ident['schedule_rule']}",
        "",
        "## Harness",
        f"- first to move: {harness['first_to_move']}; episode length: {harness['episode_length']}",
        f"- re-ask: {harness['reask']}",
        f"- fallback: {_cell(harness['fallback'])}",
        f"- timeout: {harness['timeout_note']}",
        f"- concurrency {harness['concurrency']}; budget {harness['budget']}",
        "",
    ]
    lines += _ratings_markdown(report)
    lines += metrics_markdown(report)
    cost = report["cost"]
    lines += [
        "",
        "## Cost",
        f"- total ${cost['total_usd']:.4f} over {cost['episodes']} episodes"
        f" (${cost['usd_per_episode']:.4f} each); {cost['input_tokens']} input"
        f" ({cost.get('cached_tokens', 0)} read from a prompt cache,"
        f" {cost.get('cache_write_tokens', 0)} written to it) and"
        f" {cost['output_tokens']} output tokens",
        "",
        "## Inference settings as used",
    ]
    for player, info in report["inference"].items():
        lines.append(f"- {_cell(player)} ({info['kind']}): `{json.dumps(info.get('settings', {}))}`")
    failures = report["failures"]
    lines += [
        "",
        "## Failures (kept apart from skill)",
        f"- episodes by status: {failures['episodes_by_status']}",
    ]
    lines.append("")
    lines.append("| player | decisions | invalid | re-asked | fallback | timeouts | provider errors |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|")
    for player, c in failures["per_player"].items():
        lines.append(
            f"| {_cell(player)} | {c['decisions']} | {c['invalid']} | {c['reasked']} | {c['fallback']}"
            f" | {c['timeouts']} | {c['provider_errors']} |"
        )
    if report["left_out"]:
        lines += ["", "## Left out (not counted)", ""]
        lines += [
            f"- episode {i['episode_id']} ({i['status']}): {_cell(i['reason'])}" for i in report["left_out"]
        ]
    return "\n".join(lines) + "\n"
