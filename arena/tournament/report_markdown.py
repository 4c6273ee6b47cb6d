"""The disclosure parts of ``report.md``: identity, harness, cost, inference, failures, appendix.

:func:`arena.tournament.report.markdown` puts :func:`head_lines` before the tables and
:func:`tail_lines` after them. Text from players, models, games and people (names, model ids,
reasons, prompts) goes through :mod:`arena.tournament.report_text`: Markdown-escaped in lines
and table cells, literal in code spans and fences, control and bidi characters as escapes.
"""

from __future__ import annotations

import json
from typing import Any

from arena.contract.usage import made_no_model_call
from arena.tournament.report_text import code_span, fenced, markdown_text


def cell(value: Any, digits: int = 2) -> str:
    """A value for a Markdown table cell or list item: ``-`` for none, one line of inert text."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return markdown_text(value)


def won_lines(matrix: dict[str, Any], i: int, j: int) -> list[str]:
    """A win-matrix cell in words: ``["2 of 40", "games won"]`` (a draw counts half), or ``["never met"]``."""
    games = matrix["games"][i][j]
    if matrix["rate"][i][j] is None or not games:
        return ["never met"]
    return [f"{matrix['wins'][i][j]:g} of {games:g}", "games won"]


def json_code(value: Any) -> str:
    """``value`` as JSON in a code span (literal: its ``<`` or ``*`` are never markup)."""
    return code_span(json.dumps(value, ensure_ascii=False))


def _seconds(value: float | None) -> str:
    if value is None:
        return "unknown"
    minutes, seconds = divmod(value, 60.0)
    return f"{value:.1f} s" if value < 60 else f"{value:.1f} s ({int(minutes)} min {seconds:.0f} s)"


def _first(seats: list[str]) -> str:
    """``seller``, or ``a and b together`` when several seats move at once."""
    if len(seats) <= 1:
        return seats[0] if seats else "nobody"
    return f"{', '.join(seats[:-1])} and {seats[-1]} together"


def _budget(budget: dict[str, Any] | None) -> str:
    return "no budget" if budget is None else f"budget ${budget['usd']:.2f}"


def counts_text(counts: dict[str, int]) -> str:
    """``finished 118, failed 2`` (or ``none``): a count per name, in words."""
    return ", ".join(f"{name} {count}" for name, count in counts.items()) or "none"


def _commit(arena: dict[str, Any]) -> str:
    if arena.get("commit"):
        state = {True: "with uncommitted changes", False: "clean", None: "state unknown"}[arena.get("dirty")]
        return f"commit {code_span(str(arena['commit']))} ({state})"
    return f"no commit known ({cell(arena.get('commit_note'))})"


def head_lines(report: dict[str, Any]) -> list[str]:
    """Title, benchmark identity and harness, ending with a blank line."""
    ident, harness = report["identity"], report["harness"]
    arena = ident["arena"]
    source = ident.get("game_source")
    game_source = (
        f"- game source: package {code_span(str(source['package']))}, SHA-256 `{source['sha256']}` over"
        f" {len(source['files'])} files (each file's SHA-256 in report.json, identity.game_source)"
        if source
        else "- game source: not found"
    )
    versions = "; ".join(
        f"game {cell(v['game'])}, prompt {cell(v['prompt'])}, arena {cell(v['arena'])}"
        for v in ident.get("episode_versions", [])
    )
    env = harness["environment"]
    lines = [
        f"# Tournament {ident['tournament_id']}: {cell(ident['name'])}",
        "",
        "## Benchmark identity",
        f"- game {code_span(str(ident['game']))} version {cell(ident['game_version'])},"
        f" prompt {cell(ident['prompt_version'])}, arena {cell(ident['arena_version'])}",
        f"- Arena code: {_commit(arena)}; source SHA-256 `{arena['source_sha256']}` over"
        f" {arena['source_files']} files of {cell(', '.join(arena['source_packages']))}",
        game_source,
        f"- episodes were played with: {versions or 'none counted'}",
        f"- {ident['seeds']} deal seeds from master seed {ident['master_seed']}"
        f" ({code_span(str(ident['deal_seed_rule']))})",
        f"- seats: {cell(', '.join(ident['seats']))}; options: {json_code(ident['options'])}",
        f"- episodes: {ident['episodes_finished']} of {ident['episodes_planned']} counted;"
        f" status {cell(ident['status'])}",
        f"- run: started {cell(ident.get('started_at'))}, finished {cell(ident.get('finished_at'))}",
        f"- schedule: {cell(ident['schedule_rule'])}",
        "",
        "## Harness",
        f"- first to move: {cell(_first(harness['first_to_move']))};"
        f" episode length: {cell(harness['episode_length'])}"
        f" steps with the default deal, at most {harness['max_steps']} on this tournament's deals",
        f"- re-ask: {cell(harness['reask'])}",
        f"- fallback: {cell(harness['fallback'])}",
        f"- invalid-move policy: {cell(harness.get('on_invalid', ''))}",
        f"- timeout: {cell(harness['timeout_note'])}",
        f"- concurrency {harness['concurrency']}; {_budget(harness['budget'])}",
        *(f"- run {number}: {run_line(run)}" for number, run in enumerate(harness.get("runs") or [], 1)),
        f"- environment: {cell(env['python'])} on {cell(env['platform'])}; {env['packages_count']} installed"
        f" packages, SHA-256 `{env['packages_sha256']}` (listed in appendix D);"
        f" environment SHA-256 `{env['environment_sha256']}` ({cell(env['rule'])})",
    ]
    for group in harness["prompt_templates"]:
        match = {True: "; matches what the seats recorded", False: "; differs from what the seats recorded"}
        lines.append(
            f"- prompt templates of {cell(group['owner'])}: version {cell(group['version'])}, SHA-256"
            f" `{group['sha256'] or 'unknown'}` ({cell(group['rule'])}{match.get(group.get('matches'), '')});"
            " texts in appendix A"
        )
    return [*lines, ""]


def tail_lines(report: dict[str, Any]) -> list[str]:
    """Cost, inference, failures, left-out episodes and the appendix, after the tables."""
    return [
        *_cost(report),
        *_inference(report),
        *_failures(report),
        *_left_out(report),
        *_appendix(report),
    ]


def _cost(report: dict[str, Any]) -> list[str]:
    cost = report["cost"]
    clock = cost["wallclock"]
    unpriced = cost.get("unpriced_players") or []
    total = f"- total ${cost['total_usd']:.4f} over {cost['episodes']} episodes"
    each = f"${cost['usd_per_episode']:.4f} each"
    if unpriced:
        names = ", ".join(cell(p) for p in unpriced)
        calls = cost.get("unpriced_decisions")
        counted = f"{calls} decisions unpriced" if calls is not None else "some decisions unpriced"
        total = (
            f"- total unknown ({counted}): no price for {names}; the priced players' ${cost['total_usd']:.4f}"
        )
        total += f" over {cost['episodes']} episodes"
        each = f"priced part ${cost['usd_per_episode']:.4f} each"
    lines = [
        "",
        "## Cost",
        f"{total} ({each}); {cost['input_tokens']} input"
        f" ({cost.get('cached_tokens', 0)} read from a prompt cache,"
        f" {cost.get('cache_write_tokens', 0)} written to it) and"
        f" {cost['output_tokens']} output tokens",
        f"- wall-clock: started {cell(clock['started_at'])}, finished {cell(clock['finished_at'])}"
        f" ({_seconds(clock['span_seconds'])}, {cell(clock['span_note'])}); counted episodes"
        f" {_seconds(clock['episode_seconds'])} summed; {clock['decisions']} decisions"
        f" {_seconds(clock['decision_seconds'])} summed",
        "",
        "| player | episodes | input tokens | output tokens | $ | decision seconds | price source |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    prices = cost.get("prices", {})
    for player, c in cost["per_player"].items():
        source = _price_source(prices.get(player))
        lines.append(
            f"| {cell(player)} | {c['episodes']} | {c['input_tokens']} | {c['output_tokens']}"
            f" | {_dollars(player, c, prices)} | {c['decision_seconds']:.2f} | {source} |"
        )
    return lines


def is_free(report: dict[str, Any], player: str) -> bool:
    """True for a player that made no model call (a baseline, a person): free, not priced at $0."""
    cost = report["cost"]
    # ``prices`` lists every player that is not a baseline (the report's model seats).
    return made_no_model_call(cost["per_player"].get(player) or {}, model=player in cost.get("prices", {}))


def _dollars(player: str, spent: dict[str, Any], prices: dict[str, Any]) -> str:
    price = prices.get(player)
    if price is None and not spent["cost_usd"] and not spent["input_tokens"]:
        return "free"
    if price is not None and not price["priced"] and (spent["input_tokens"] or spent["output_tokens"]):
        return "unknown (no price)"
    return f"{spent['cost_usd']:.4f}"


def _price_source(price: dict[str, Any] | None) -> str:
    if price is None:
        return "no model calls"
    parts = []
    source = price.get("price_source")
    if source:
        parts.append(f"{cell(source['source'])} ({cell(source['date'])})")
    elif price["priced"]:
        parts.append("models file (no price_source given)")
    else:
        parts.append("no price given")
    builtin = price.get("builtin_ratios_source")
    if builtin and price["priced"]:
        parts.append(
            f"built-in cache-price ratios, for cache prices the models file leaves unset:"
            f" {cell(builtin['source'])} ({cell(builtin['date'])})"
        )
    return "; ".join(parts)


def _inference(report: dict[str, Any]) -> list[str]:
    lines = ["", "## Inference settings as used"]
    for player, info in report["inference"].items():
        lines.append(f"- {cell(player)} ({cell(info['kind'])}): {json_code(info.get('settings', {}))}")
        sampling = info.get("sampling")
        if sampling:
            lines.append(
                f"  - sampling: {cell(sampling['method'])}; seed: {cell(sampling['seed'])};"
                f" {cell(sampling['passes'])}"
            )
        cap = info.get("output_cap_sent")
        if cap:
            sent = f"{cap['min']}" if cap["min"] == cap["max"] else f"{cap['min']} to {cap['max']}"
            lines.append(f"  - output-token cap sent: {sent}")
        if "served" not in info:
            continue
        if not info["served"]:
            lines.append("  - served by: not reported by the provider")
        for served in info["served"]:
            facts = ", ".join(
                f"{cell(name)} {cell(value) if not isinstance(value, dict) else json_code(value)}"
                for name, value in served.items()
                if name not in ("episodes", "first_episode", "last_episode")
            )
            lines.append(f"  - served by: {facts} ({_episodes(served)})")
    return lines


def _episodes(served: dict[str, Any]) -> str:
    """``in 1 counted episode (episode 4)`` / ``in 3 counted episodes (episodes 4 to 9)``."""
    first, last, count = served["first_episode"], served["last_episode"], served["episodes"]
    if count == 1:
        return f"in 1 counted episode (episode {first})"
    return f"in {count} counted episodes (episodes {first} to {last})"


def _failures(report: dict[str, Any]) -> list[str]:
    failures = report["failures"]
    lines = [
        "",
        "## Failures (kept apart from skill)",
        f"- episodes by status: {cell(counts_text(failures['episodes_by_status']))}",
        "",
        "| player | decisions | invalid | cut off | re-asked | fallback | timeouts | provider errors"
        " | revised | forfeited |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for player, c in failures["per_player"].items():
        lines.append(
            f"| {cell(player)} | {c['decisions']} | {c['invalid']} | {c.get('cut_off', 0)} | {c['reasked']}"
            f" | {c['fallback']}"
            f" | {c['timeouts']} | {c['provider_errors']} | {c.get('revised', 0)} | {c.get('forfeited', 0)} |"
        )
    lines += ["", "Replies not used as given, by error class, and episodes left out, per player:", ""]
    left_out = failures.get("left_out_by_player", {})
    for player, classes in failures.get("errors_by_player", {}).items():
        errors = cell(counts_text(classes))
        gone = cell(counts_text(left_out.get(player, {})))
        lines.append(f"- {cell(player)}: errors {errors}; episodes left out {gone}")
    return lines


def _left_out(report: dict[str, Any]) -> list[str]:
    if not report["left_out"]:
        return []
    lines = ["", "## Left out (not counted)", ""]
    return lines + [
        f"- episode {i['episode_id']} ({cell(i['status'])}): {cell(i['reason'])}" for i in report["left_out"]
    ]


def _appendix(report: dict[str, Any]) -> list[str]:
    appendix = report["appendix"]
    lines = ["", "## Appendix A: prompt templates", ""]
    for template in appendix["prompt_templates"]:
        lines += [
            f"### {cell(template['name'])}",
            "",
            f"SHA-256 `{template['sha256']}`",
            "",
            *fenced(template["text"]),
            "",
        ]
    lines += ["## Appendix B: the rules each seat was told", ""]
    for rules in appendix["rules"]:
        lines += [
            f"### seat {cell(rules['seat'])}",
            "",
            f"SHA-256 `{rules['sha256']}`",
            "",
            *fenced(rules["text"]),
            "",
        ]
    lines += ["## Appendix C: the first prompt a model seat was sent, per seat", ""]
    if not appendix["example_prompts"]:
        lines += ["No model seat took part: no prompt was sent.", ""]
    for prompt in appendix["example_prompts"]:
        lines += [
            f"### seat {cell(prompt['seat'])} ({cell(prompt['player'])}), episode {prompt['episode_id']},"
            f" step {prompt['step']}",
            "",
            f"SHA-256 `{prompt['sha256']}`",
            "",
            *fenced(prompt["text"]),
            "",
        ]
    lines += ["## Appendix D: installed packages", "", *fenced("\n".join(appendix["packages"]))]
    return lines


def run_line(run: dict[str, Any]) -> str:
    """One run's executor as the report lists it: ``ray: 2 nodes, 4 CPUs; workers: local:m x2``."""
    executor = str(run.get("executor", "?"))
    if executor != "ray":
        return f"{cell(executor)}, {cell(run.get('concurrency', '?'))} episodes at once"
    workers = ", ".join(f"{cell(name)} x{count}" for name, count in dict(run.get("workers") or {}).items())
    where = cell(str(run.get("address") or "a local Ray instance"))
    cpus = run.get("cpus")
    line = f"ray ({where}): {run.get('nodes', '?')} nodes, {cpus if cpus is None else f'{cpus:g}'} CPUs"
    return f"{line}; workers: {workers or 'none'}"
