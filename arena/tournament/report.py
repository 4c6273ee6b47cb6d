"""``arena tournament report``: ``report.json`` (validated against its schema) and ``report.md``.

The report carries the five disclosure parts of seed 003 - benchmark identity, harness,
inference settings as actually used, cost and the failure breakdown - plus the tables of
:func:`arena.tournament.standings.tournament_table`. Keys never appear: player settings are
filtered of anything named like a key before they are written.
"""

from __future__ import annotations

import inspect
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena import __version__
from arena.contract.game import GameDefinition
from arena.contract.usage import has_price
from arena.engine.lineup import build_player
from arena.engine.runner import REASK_ERRORS
from arena.plugins.games import get_game
from arena.plugins.players import SpecError, parse_player_spec, player_kinds
from arena.store.database import Store, StoreError
from arena.store.files import write_atomically
from arena.tournament import provenance, reprobe
from arena.tournament.disclosure import (
    decision_seconds,
    episode_versions,
    example_prompts,
    failures_by_episode,
    output_caps,
    prompt_templates,
    rules_texts,
    sampling_disclosure,
    schedule_prose,
    sent_by_player,
    served_by_player,
    wallclock,
)
from arena.tournament.report_markdown import cell, head_lines, is_free, tail_lines, won_lines
from arena.tournament.report_metrics import metrics_markdown
from arena.tournament.report_schema import validate_report
from arena.tournament.run import load_tournament
from arena.tournament.schedule import deal_seed
from arena.tournament.standings import FALLBACK_NOTE, fallback_cell, tournament_table
from arena.tournament.wording import (
    SURE_NOTE,
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
WALLCLOCK_NOTE = (
    "each decision has its player's deadline, retries within it included; an episode has no"
    " wall-clock cap of its own (it ends at the game's last step)"
)
TIMEOUT_NOTE = "the runner sets no per-decision timeout; each model player applies its own (see inference)"


class NothingToReport(ValueError):
    """The tournament has no finished episode yet."""


ON_INVALID_RULES = {
    "fallback": "fallback: an answer still unusable after the re-ask is replaced by the game's fallback"
    " (counted; a rating of which more than a tenth of the decisions were fallbacks is marked !)",
    "forfeit": "forfeit: a seat whose answer is still unusable after the re-ask forfeits the episode"
    " (ranked last in it, its metrics of that episode left out)",
}
"""The invalid-move policy (``--on-invalid``) as the report's harness states it."""


def build_report(store: Store, tournament_id: int) -> dict[str, Any]:
    """The ``report.json`` document of a tournament (validated)."""
    stored = load_tournament(store, tournament_id)
    row, config = stored
    table = tournament_table(store, tournament_id, stored=stored)
    if table["ratings"] is None:
        raise NothingToReport(f"tournament {tournament_id} has no finished episode to report yet")
    definition = get_game(config.game)
    info = table["tournament"]
    status = info["status"]
    sample = definition.create(0, info["options"])
    seats, players = list(info["seats"]), list(config.players)
    inference = _inference_all(row, config.players, config.game, seats[0])
    served, caps = served_by_player(store, tournament_id), output_caps(store, tournament_id)
    sent = sent_by_player(store, tournament_id)
    for player, entry in inference.items():
        if entry["kind"] != "baseline":
            entry["served"] = served.get(player, [])
        if (entry.get("settings") or {}).get("kind") == "model":
            entry["sampling"] = sampling_disclosure(entry["settings"], entry["served"], config.seed)
            entry["sent"] = sent.get(player) or {"decisions": 0}
            entry["wallclock_limits"] = {
                "per_decision_seconds": entry["settings"].get("timeout"),
                "per_episode_seconds": None,
                "note": WALLCLOCK_NOTE,
            }
        if player in caps:
            entry["output_cap_sent"] = caps[player]
    settings = {p: dict(e.get("settings") or {}) for p, e in inference.items()}
    templates = prompt_templates(definition, settings, players)
    environment = provenance.environment()
    report: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "identity": {
            "tournament_id": tournament_id,
            "name": info["name"],
            "game": config.game,
            "game_version": definition.version,
            "prompt_version": definition.prompt_version,
            "arena_version": __version__,
            "arena": provenance.arena_code(),
            "game_source": provenance.module_source(type(definition).__module__),
            "episode_versions": episode_versions(store, tournament_id),
            "master_seed": config.seed,
            "seeds": config.seeds,
            "deal_seed_rule": DEAL_SEED_RULE,
            "schedule_rule": schedule_prose(seats, players, config.seeds, info["slots"]),
            "seats": info["seats"],
            "options": info["options"],
            "players": players,
            "on_invalid": config.on_invalid,
            "episodes_planned": info["slots"],
            "episodes_finished": info["counted"],
            "status": status,
            "started_at": row.get("created_at"),
            "finished_at": row.get("finished_at"),
        },
        "harness": {
            "seats": info["seats"],
            "first_to_move": sample.pending(),
            "episode_length": definition.view.progress(sample)[1] or None,
            "max_steps": _max_steps(definition, config.seed, config.seeds, info["options"]),
            "timeout": None,
            "timeout_note": TIMEOUT_NOTE,
            "reask": "one re-ask with the validation error for: " + ", ".join(sorted(REASK_ERRORS)),
            "fallback": inspect.getdoc(type(sample).fallback) or "the game's conservative fallback",
            "on_invalid": ON_INVALID_RULES[config.on_invalid],
            "budget": {"usd": config.budget_usd} if config.budget_usd is not None else None,
            "concurrency": config.concurrency,
            "runs": list(dict(row.get("config") or {}).get("runs") or []),
            "environment": {k: v for k, v in environment.items() if k != "packages"}
            | {"packages_count": len(environment["packages"])},
            "prompt_templates": templates["groups"],
        },
        "inference": inference,
        "cost": _cost_disclosure(store, tournament_id, row, table["cost"], inference),
        "failures": {
            **_failures_disclosure(table["failures"], table["left_out"], players),
            "by_episode": failures_by_episode(store, tournament_id),
        },
        "ratings": table["ratings"],
        "players": table["players"],
        "win_matrix": table["win_matrix"],
        "metrics": table["metrics"],
        "metrics_by_seat": table["metrics_by_seat"],
        "deal_facts": table["deal_facts"],
        "outcome_rule": table["outcome_rule"],
        "order_confidence": table["order_confidence"],
        "left_out": [{k: v for k, v in item.items() if k != "players"} for item in table["left_out"]],
        "appendix": {
            "prompt_templates": templates["templates"],
            "rules": rules_texts(definition, info["options"], seats),
            "example_prompts": example_prompts(store, tournament_id, seats),
            "packages": environment["packages"],
        },
    }
    validate_report(report)
    return report


def _max_steps(definition: GameDefinition, master: int, seeds: int, options: dict[str, Any]) -> int | None:
    """The most steps an episode of this tournament can take: the longest over its deal seeds."""
    lengths = [
        definition.view.progress(definition.create(deal_seed(master, i), options))[1] for i in range(seeds)
    ]
    return max(lengths, default=0) or None


def _cost_disclosure(
    store: Store, tournament_id: int, row: dict[str, Any], cost: dict[str, Any], inference: dict[str, Any]
) -> dict[str, Any]:
    """The table's cost, plus wall-clock, each player's decision seconds and where its prices come from."""
    seconds = decision_seconds(store, tournament_id)
    per_player = {p: {**c, "decision_seconds": seconds.get(p, 0.0)} for p, c in cost["per_player"].items()}
    prices: dict[str, Any] = {}
    unpriced: list[str] = []
    for player, entry in inference.items():
        if entry["kind"] == "baseline":
            continue
        config = entry.get("settings") or {}
        priced = has_price(config)
        spent = per_player.get(player, {})
        if not priced and (spent.get("input_tokens") or spent.get("output_tokens")):
            unpriced.append(player)
        prices[player] = {
            "priced": priced,
            "price_source": config.get("price_source"),
            "builtin_ratios_source": _builtin_price_source(player),
        }
    return {
        **cost,
        "per_player": per_player,
        "wallclock": wallclock(store, tournament_id, row),
        "prices": prices,
        "unpriced_players": unpriced,
    }


def _builtin_price_source(player: str) -> dict[str, str] | None:
    try:
        kind = player_kinds().get(parse_player_spec(player).kind)
    except SpecError:
        return None
    return kind.builtin_price_source() if kind is not None else None


def _failures_disclosure(
    failures: dict[str, Any], left_out: list[dict[str, Any]], players: list[str]
) -> dict[str, Any]:
    """The table's failures, plus each player's left-out episodes by status."""
    by_player: dict[str, Counter[str]] = {p: Counter() for p in players}
    for item in left_out:
        for player in set(item.get("players") or []):
            by_player.setdefault(player, Counter())[str(item["status"])] += 1
    return {**failures, "left_out_by_player": {p: dict(sorted(c.items())) for p, c in by_player.items()}}


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
    settings = player.disclosed_settings()
    if settings is not None:
        info["settings"] = _keyless(settings)
    return info


def _keyless(settings: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in settings.items() if "key" not in k.lower().replace("-", "_").replace("_", "")}


def write_report(store: Store, tournament_id: int, folder: Path, *, charts: bool = True) -> list[Path]:
    """Write ``report.json``, ``report.md`` and, with ``vl-convert-python`` installed, each chart as
    SVG and PNG plus ``report.html`` into ``folder`` (created); returns the paths written.

    Without the ``charts`` extra (or with ``charts=False``) report.md says the charts were not
    drawn and why; the chart code and its library load only here.
    """
    report = build_report(store, tournament_id)
    drawn: list[tuple[str, str, str, bytes]] = []
    missing: str | None = "not asked for" if not charts else None
    if charts:
        from arena.tournament.charts import ChartsUnavailable, render, report_charts

        try:
            found = render(report_charts(report, store, tournament_id, get_game(report["identity"]["game"])))
        except ChartsUnavailable as exc:
            missing = str(exc)
        else:
            drawn = [(f"chart-{chart.name}", chart.title, svg, png) for chart, svg, png in found]
    embedded = [(name, title) for name, title, _, _ in drawn]
    text = markdown(report, embedded, missing)
    written: list[Path] = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        json_path = folder / "report.json"
        write_atomically(json_path, json.dumps(report, ensure_ascii=False, indent=2) + "\n")
        md_path = folder / "report.md"
        write_atomically(md_path, text)
        written += [json_path, md_path]
        for name, _, svg, png in drawn:
            write_atomically(folder / f"{name}.svg", svg)
            write_atomically(folder / f"{name}.png", png)
            written += [folder / f"{name}.svg", folder / f"{name}.png"]
        if drawn:
            from arena.tournament.report_html import report_html

            html_path = folder / "report.html"
            write_atomically(html_path, report_html(report, {name: svg for name, _, svg, _ in drawn}, text))
            written.append(html_path)
    except OSError as exc:
        raise StoreError(f"cannot write the report to {folder}: {exc.strerror or exc}") from None
    return written


def write_reprobe(store: Store, tournament_id: int, folder: Path) -> list[tuple[Path, dict[str, float]]]:
    """Write one REPROBE manifest per rated model player into ``folder`` (created).

    Each is checked against the vendored REPROBE schema first; returns each file's path with its
    codebook scores against what the decisions were sent (:func:`arena.tournament.reprobe.codebook_scores`).
    """
    report = build_report(store, tournament_id)
    found = reprobe.manifests(report)
    written: list[tuple[Path, dict[str, float]]] = []
    names: set[str] = set()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for player, manifest in found.items():
            document = manifest.document()
            problems = reprobe.reprobe_errors(document)
            if problems:  # our types are stricter than the schema: this is a bug, said in one line
                raise reprobe.ManifestInvalid(f"the REPROBE manifest of {player} is not valid: {problems[0]}")
            name = f"reprobe-{reprobe.slug(player)}"
            while name in names:
                name += "-"
            names.add(name)
            path = folder / f"{name}.json"
            write_atomically(path, json.dumps(document, ensure_ascii=False, indent=2) + "\n")
            written.append((path, reprobe.codebook_scores(manifest, reprobe.SentFacts.of(report, player))))
    except OSError as exc:
        raise StoreError(f"cannot write the manifests to {folder}: {exc.strerror or exc}") from None
    return written


_cell = cell


def _ratings_markdown(report: dict[str, Any]) -> list[str]:
    """The ratings section: how they were fitted, one table per group, and how sure the order is."""
    info = report["ratings"]
    method = "Plackett-Luce" if info["method"] == "plackett-luce" else "Bradley-Terry"
    lines = [
        f"## Ratings ({method})",
        "",
        f"- fit: {_cell(info['fit'])}",
        f"- intervals: {_cell(info['interval'])}",
    ]
    lines.append(f"- scale: {_cell(info['scale'])}")
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
            "| # | player | rating | 95% interval | fallback | episodes | W | D | L | $/episode |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in (r for r in report["players"] if r.get("group") == group):
            dollars = (
                "unpriced"
                if row.get("unpriced")
                else "free"
                if is_free(report, row["player"])
                else _cell(row.get("usd_per_episode"), 4)
            )
            mark = " !" if row.get("fallback_heavy") else ""
            lines.append(
                f"| {_cell(row.get('rank'))} | {_cell(row['player'])} | {_cell(rating_text(row))}{mark}"
                f" | {_cell(interval_text(row))} | {fallback_cell(row)} | {row['episodes']} | {row['wins']}"
                f" | {row['draws']} | {row['losses']} | {dollars} |"
            )
        if any(r.get("fallback_heavy") for r in report["players"] if r.get("group") == group):
            lines += ["", _cell(FALLBACK_NOTE)]
    if info.get("openskill"):
        lines += [
            "",
            f"{_cell(info['openskill']['label'])}:",
            "",
            "| player | mu | sigma | games |",
            "|---|---:|---:|---:|",
        ]
        lines += [
            f"| {_cell(r['player'])} | {r['mu']:.2f} | {r['sigma']:.2f} | {r['games']} |"
            for r in info["openskill"]["rows"]
        ]
    lines += ["", "## How sure is the order?", "", "| higher | lower | gap | sure | to separate |"]
    lines.append("|---|---|---:|---:|---|")
    for row in report["order_confidence"]:
        sure = probability_text(row.get("sure", row["p_order_right"]))
        lines.append(
            f"| {_cell(row['higher'])} | {_cell(row['lower'])} | {_cell(gap_text(row))}"
            f" | {_cell(sure)} | {_cell(separation_text(row))} |"
        )
    if report["order_confidence"]:
        lines += ["", SURE_NOTE]
    return lines


def markdown(
    report: dict[str, Any], charts: Sequence[tuple[str, str]] = (), charts_missing: str | None = None
) -> str:
    """The report as Markdown: identity, harness, ratings, order confidence, win matrix, charts,
    metrics, cost, inference, failures and the appendix (prompt templates, rules, example
    prompts, packages). ``charts`` are (file name without suffix, caption) of the SVG files
    written beside it; ``charts_missing`` says why there are none."""
    by_name = dict(charts)
    lines = head_lines(report)
    lines += _ratings_markdown(report)
    lines += _embed(by_name, "chart-ratings")
    lines += win_matrix_markdown(report["win_matrix"])
    lines += _embed(by_name, "chart-win-matrix")
    rest = [name for name in by_name if name not in ("chart-ratings", "chart-win-matrix")]
    if rest or charts_missing:
        lines += ["", "## Charts"]
        if charts_missing:
            lines += ["", f"Not drawn: {_cell(charts_missing)}."]
        for name in rest:
            lines += _embed(by_name, name)
    lines += metrics_markdown(report)
    lines += tail_lines(report)
    return "\n".join(lines) + "\n"


def _embed(charts: dict[str, str], name: str) -> list[str]:
    """A chart's SVG embedded with its caption (the PNG beside it has the same name)."""
    if name not in charts:
        return []
    caption = _cell(charts[name])  # brackets escaped: a caption cannot close the image's text
    return ["", f"![{caption}]({name}.svg)", "", f"*{caption}* ([PNG]({name}.png))"]


def win_matrix_markdown(matrix: dict[str, Any]) -> list[str]:
    """The win matrix as a table: how many of its games with each column player the row player won."""
    players = matrix["players"]
    lines = [
        "",
        "## Win matrix",
        "",
        "How many of its games against the column player the row player won (a draw counts half).",
        "",
        "| player | " + " | ".join(_cell(p) for p in players) + " |",
        "|---|" + "---:|" * len(players),
    ]
    for i, player in enumerate(players):
        cells = []
        for j in range(len(players)):
            if i == j:
                cells.append("")
            else:
                cells.append(" ".join(won_lines(matrix, i, j)))
        lines.append(f"| {_cell(player)} | " + " | ".join(cells) + " |")
    return lines
