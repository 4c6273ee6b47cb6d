"""The facts a tournament report discloses beyond its tables, read from the database and the code.

What served each model seat (the model id and fingerprint its provider returned), how long
the run and its decisions took, the schedule rule in plain words, every prompt template
with its full SHA-256, and the rules and an example prompt per seat.
:mod:`arena.tournament.report` puts them into ``report.json`` and ``report.md``.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from math import comb
from typing import Any

import orjson

from arena.contract.game import GameDefinition
from arena.contract.templates import template_texts
from arena.plugins.players import SpecError, parse_player_spec, player_kinds
from arena.store.database import Store
from arena.tournament.provenance import sha256_text

COUNTED = (
    " FROM episodes e JOIN turns t ON t.episode_id = e.id WHERE e.tournament_id = ? AND e.status = 'finished'"
)
"""The turns of a tournament's counted (finished) episodes."""


def schedule_prose(seats: list[str], players: list[str], seeds: int, episodes: int) -> str:
    """The schedule of this tournament in plain words, with its own numbers."""
    k, m = len(seats), len(players)
    names = ", ".join(seats)
    per_seed = episodes // seeds if seeds else 0
    if k == 1:
        rule = (
            f"The game has one seat ({names}): each of the {m} players plays every deal seed alone,"
            f" and players are compared with one another on the same deal seed"
        )
    elif m >= k == 2:
        pairs = (
            "The two players play" if m == 2 else f"Every pair of the {m} players ({comb(m, 2)} pairs) plays"
        )
        rule = (
            f"{pairs} every deal seed twice, once in each seating, so each player holds each seat"
            f" ({names}) against each opponent on every deal"
        )
    elif m >= k:
        rule = (
            f"Every group of {k} of the {m} players ({comb(m, k)} groups) plays every deal seed in each"
            f" of its {k} cyclic seatings over the seats {names}, so every player holds every seat equally"
            f" often ({comb(m - 1, k - 1)} times per deal seed) and every two players meet equally often"
        )
    else:
        rule = (
            f"There are fewer players ({m}) than seats ({k}: {names}), so the players fill the seats in"
            f" turn (seat j gets player (j + o) mod {m}) for every offset o and every cyclic rotation of"
            f" the seats, identical line-ups counted once; every player holds every seat equally often"
        )
    return (
        f"{rule}. That is {per_seed} episodes per deal seed, {per_seed} x {seeds} deal seeds ="
        f" {episodes} episodes. All line-ups play the same deal seeds, in order deal by deal, so a"
        " tournament stopped early holds whole deals."
    )


def served_by_player(store: Store, tournament_id: int) -> dict[str, list[dict[str, Any]]]:
    """Per player, each distinct identity its provider reported (model id, fingerprint, ...) and in how
    many counted episodes it was reported, in order of first appearance."""
    rows = store.conn.execute(
        "SELECT s.player, t.served, e.id FROM episodes e JOIN turns t ON t.episode_id = e.id"
        " JOIN seats s ON s.episode_id = e.id AND s.seat = t.seat"
        " WHERE e.tournament_id = ? AND e.status = 'finished' AND t.served IS NOT NULL ORDER BY e.id, t.idx",
        (tournament_id,),
    )
    seen: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    episodes: dict[tuple[str, str], set[int]] = defaultdict(set)
    for player, served, episode_id in rows:
        entry = seen[player].setdefault(served, {**orjson.loads(served), "first_episode": episode_id})
        entry["last_episode"] = episode_id
        episodes[player, served].add(episode_id)
    return {
        player: [{**entry, "episodes": len(episodes[player, key])} for key, entry in by_key.items()]
        for player, by_key in seen.items()
    }


def _seconds(start: str | None, end: str | None) -> float | None:
    if not start or not end:
        return None
    try:
        return max(0.0, (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds())
    except ValueError:
        return None


def wallclock(store: Store, tournament_id: int, row: dict[str, Any]) -> dict[str, Any]:
    """When the tournament started and finished, and the seconds its episodes and decisions took."""
    episodes = store.conn.execute(
        "SELECT started_at, finished_at, status FROM episodes WHERE tournament_id = ?", (tournament_id,)
    ).fetchall()
    counted = [_seconds(start, end) for start, end, status in episodes if status == "finished"]
    decisions = store.conn.execute(f"SELECT coalesce(sum(t.latency), 0), count(*){COUNTED}", (tournament_id,))
    decision_seconds, decision_count = decisions.fetchone()
    started, finished = row.get("created_at"), row.get("finished_at")
    return {
        "started_at": started,
        "finished_at": finished,
        "span_seconds": _round(_seconds(started, finished)),
        "span_note": "from the tournament's creation to the end of its last run"
        " (time stopped between runs included)",
        "episode_seconds": _round(sum(s for s in counted if s is not None)),
        "decision_seconds": _round(float(decision_seconds)),
        "decisions": int(decision_count),
        "note": "episode_seconds: the counted episodes' durations summed; decision_seconds: every"
        " decision's wall-clock summed over every seat of them (episodes running at once overlap,"
        " so sums can exceed the span)",
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def decision_seconds(store: Store, tournament_id: int) -> dict[str, float]:
    """Per player, the wall-clock of its decisions in counted episodes, summed."""
    rows = store.conn.execute(
        "SELECT s.player, coalesce(sum(t.latency), 0) FROM episodes e JOIN turns t ON t.episode_id = e.id"
        " JOIN seats s ON s.episode_id = e.id AND s.seat = t.seat"
        " WHERE e.tournament_id = ? AND e.status = 'finished' GROUP BY s.player",
        (tournament_id,),
    )
    return {player: round(float(seconds), 3) for player, seconds in rows}


def output_caps(store: Store, tournament_id: int) -> dict[str, dict[str, int]]:
    """Per model player, the smallest and largest output-token cap its calls were sent (counted episodes)."""
    cap = (
        "coalesce(json_extract(t.sampling, '$.max_tokens'), json_extract(t.sampling, '$.max_output_tokens'),"
        " json_extract(t.sampling, '$.max_completion_tokens'))"
    )
    rows = store.conn.execute(
        f"SELECT s.player, min({cap}), max({cap}) FROM episodes e JOIN turns t ON t.episode_id = e.id"
        " JOIN seats s ON s.episode_id = e.id AND s.seat = t.seat WHERE e.tournament_id = ?"
        " AND e.status = 'finished' AND t.sampling IS NOT NULL GROUP BY s.player",
        (tournament_id,),
    )
    return {player: {"min": int(low), "max": int(high)} for player, low, high in rows if high is not None}


PASSES = (
    "each episode (a deal seed in one seating) is played once: one pass per task, no aggregation"
    " across passes; a decision is asked again once after an unusable reply (provider errors are"
    " retried within the decision's deadline)"
)


def sampling_disclosure(
    settings: dict[str, Any], served: list[dict[str, Any]], master_seed: int
) -> dict[str, Any]:
    """How a model seat sampled: the method in words, the passes per episode and the seed."""
    temperature = settings.get("temperature")
    sampler = next((s["sampler"] for s in served if "sampler" in s), None)
    if temperature == 0:
        method = "greedy (temperature 0)"
    elif temperature is None:
        method = "the provider's default sampling (no temperature or top-p sent)"
    else:
        method = f"temperature {temperature:g} sampling, top-p left at the provider's default"
    if sampler is not None:
        chain = ", ".join(f"{name.replace('_', '-')} {value:g}" for name, value in sampler.items())
        method = f"temperature {temperature:g} after {chain} (llama.cpp sampler chain)"
    seeded = settings.get("seed") is not None
    seed = (
        f"{settings['seed']}; the episode seeds are dealt from master seed {master_seed}"
        if seeded
        else "not exposed by this API: no seed is sent"
    )
    return {"method": method, "passes_per_episode": 1, "passes": PASSES, "seed": seed}


def episode_versions(store: Store, tournament_id: int) -> list[dict[str, str]]:
    """The (game, prompt, arena) versions the tournament's counted episodes were played with."""
    rows = store.conn.execute(
        "SELECT DISTINCT game_version, prompt_version, arena_version FROM episodes"
        " WHERE tournament_id = ? AND status = 'finished' ORDER BY 1, 2, 3",
        (tournament_id,),
    )
    return [{"game": g, "prompt": p, "arena": a} for g, p, a in rows]


def example_prompts(store: Store, tournament_id: int, seats: list[str]) -> list[dict[str, Any]]:
    """Per seat, the first prompt a model seat was sent in a counted episode (none for baselines)."""
    found = []
    for seat in seats:
        row = store.conn.execute(
            "SELECT t.prompt, e.id, t.step, s.player FROM episodes e JOIN turns t ON t.episode_id = e.id"
            " JOIN seats s ON s.episode_id = e.id AND s.seat = t.seat WHERE e.tournament_id = ?"
            " AND e.status = 'finished' AND t.seat = ? AND t.prompt IS NOT NULL ORDER BY e.id, t.idx LIMIT 1",
            (tournament_id, seat),
        ).fetchone()
        if row is not None:
            prompt, episode_id, step, player = row
            found.append(
                {
                    "seat": seat,
                    "player": player,
                    "episode_id": episode_id,
                    "step": step,
                    "sha256": sha256_text(prompt),
                    "text": prompt,
                }
            )
    return found


def prompt_templates(
    definition: GameDefinition, settings: dict[str, dict[str, Any]], players: list[str]
) -> dict[str, Any]:
    """Every prompt template the tournament's seats were sent, each with its full SHA-256 and text.

    The game's template (the parts its prompt version hashes) and, when model players took
    part, the model kinds' own texts (system message, re-ask note). ``matches`` says whether
    the installed texts hash to the version the episodes or seats recorded.
    """
    templates: list[dict[str, Any]] = []
    groups: list[dict[str, Any]] = []
    found = template_texts(definition.prompt_version)
    if found is not None:
        full, parts = found
        groups.append(
            {
                "owner": f"game {definition.name}",
                "version": definition.prompt_version,
                "sha256": full,
                "rule": "SHA-256 of the parts joined by the unit separator U+001F; the version is its first"
                " 12 hex digits",
            }
        )
        for i, text in enumerate(parts, 1):
            name = f"{definition.name} template, part {i} of {len(parts)}"
            templates.append(
                {"name": name, "owner": f"game {definition.name}", "sha256": sha256_text(text), "text": text}
            )
    else:
        groups.append(
            {
                "owner": f"game {definition.name}",
                "version": definition.prompt_version,
                "sha256": None,
                "rule": "the game does not name its template through arena.contract.game.template_version:"
                " see the rules and example prompts",
            }
        )
    kinds_done: set[str] = set()
    for player in players:
        try:
            kind = player_kinds().get(parse_player_spec(player).kind)
        except SpecError:
            continue
        if kind is None or not kind.is_model:
            continue
        fixed = kind.prompt_templates()
        if fixed is None or fixed.sha256 in kinds_done:
            continue
        kinds_done.add(fixed.sha256)
        recorded = {
            str(settings[p].get(fixed.version_key))
            for p in players
            if p in settings and settings[p].get(fixed.version_key) is not None
        }
        groups.append(
            {
                "owner": "model players",
                "version": fixed.sha256[:12],
                "sha256": fixed.sha256,
                "rule": "SHA-256 of the system and re-ask texts joined by a newline; seats record its first"
                f" 12 hex digits as {fixed.version_key}",
                "matches": recorded <= {fixed.sha256[:12]} if recorded else None,
            }
        )
        for name, text in fixed.texts.items():
            templates.append(
                {"name": f"model {name}", "owner": "model players", "sha256": sha256_text(text), "text": text}
            )
    return {"groups": groups, "templates": templates}


def rules_texts(
    definition: GameDefinition, options: dict[str, Any], seats: list[str]
) -> list[dict[str, Any]]:
    """The rules each seat was told under the tournament's options, with their SHA-256."""
    model = definition.parse_options(options)
    texts = []
    for seat in seats:
        text = definition.rules(model, seat)
        texts.append({"seat": seat, "sha256": sha256_text(text), "text": text})
    return texts


SAMPLING_PARAMETERS = ("temperature", "top_p", "top_k", "min_p", "frequency_penalty", "presence_penalty")
"""Sampling settings a turn can record as sent (the output cap and the seed are reported apart)."""
OUTPUT_CAPS = ("max_tokens", "max_output_tokens", "max_completion_tokens")


def sent_by_player(store: Store, tournament_id: int) -> dict[str, dict[str, Any]]:
    """Per model player, what its counted decisions were actually sent, from the recorded turns.

    ``system_messages``: each distinct system message with its SHA-256 over the exact UTF-8
    bytes and the number of decisions sent it (a turn stores the text on a seat's first model
    turn and when it changes; ``system_unknown`` counts decisions of turns recorded before
    Arena stored it). ``seeds``: every per-decision seed in order, or ``"none sent"``.
    ``parameters``: each sampling setting sent, with the distinct values sent; ``output_cap``
    the same for the output-token cap under its wire name. Nothing here is a label: a setting
    that was never sent is absent.
    """
    rows = store.conn.execute(
        "SELECT s.player, e.id, t.seat, t.sampling, t.system"
        " FROM episodes e JOIN turns t ON t.episode_id = e.id"
        " JOIN seats s ON s.episode_id = e.id AND s.seat = t.seat WHERE e.tournament_id = ?"
        " AND e.status = 'finished' AND t.sampling IS NOT NULL ORDER BY e.id, t.idx",
        (tournament_id,),
    )
    found: dict[str, dict[str, Any]] = {}
    current: dict[tuple[int, str], str] = {}
    for player, episode_id, seat, sampling_json, system in rows:
        entry = found.setdefault(
            player,
            {"decisions": 0, "messages": {}, "system_unknown": 0, "seeds": [], "parameters": {}, "caps": {}},
        )
        entry["decisions"] += 1
        if system is not None:
            current[episode_id, seat] = system
        text = current.get((episode_id, seat))
        if text is None:
            entry["system_unknown"] += 1
        else:
            message = entry["messages"].setdefault(sha256_text(text), {"text": text, "decisions": 0})
            message["decisions"] += 1
        sent = orjson.loads(sampling_json)
        if sent.get("seed") is not None:
            entry["seeds"].append(int(sent["seed"]))
        for names, into in ((SAMPLING_PARAMETERS, "parameters"), (OUTPUT_CAPS, "caps")):
            for name in names:
                if sent.get(name) is not None:
                    entry[into].setdefault(name, set()).add(sent[name])
    return {player: _sent_summary(entry) for player, entry in found.items()}


def _sent_summary(entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "decisions": entry["decisions"],
        "system_messages": [
            {"sha256": digest, "decisions": m["decisions"], "text": m["text"]}
            for digest, m in entry["messages"].items()
        ],
        "system_unknown": entry["system_unknown"],
        "seeds": entry["seeds"] or "none sent",
        "parameters": {name: sorted(values) for name, values in entry["parameters"].items()},
        "output_cap": {name: sorted(values) for name, values in entry["caps"].items()},
    }


def failures_by_episode(store: Store, tournament_id: int) -> dict[str, list[dict[str, Any]]]:
    """Per player, each counted episode and seat in which a decision failed: attempts by error class,
    fallbacks and re-asks (the per-player totals of the tables, attributed to their episodes)."""
    rows = store.conn.execute(
        "SELECT s.player, e.id, t.seat, t.fallback, t.attempts"
        " FROM episodes e JOIN turns t ON t.episode_id = e.id"
        " JOIN seats s ON s.episode_id = e.id AND s.seat = t.seat WHERE e.tournament_id = ?"
        " AND e.status = 'finished' AND (t.attempts != '[]' OR t.fallback) ORDER BY e.id, t.idx",
        (tournament_id,),
    )
    found: dict[str, dict[tuple[int, str], dict[str, Any]]] = defaultdict(dict)
    for player, episode_id, seat, fallback, attempts_json in rows:
        item = found[player].setdefault(
            (episode_id, seat),
            {"episode_id": episode_id, "seat": seat, "errors": {}, "fallback": 0, "reasked": 0},
        )
        attempts = orjson.loads(attempts_json or "[]")
        for attempt in attempts:
            error = str(attempt.get("error", ""))
            item["errors"][error] = item["errors"].get(error, 0) + 1
        item["fallback"] += int(bool(fallback))
        item["reasked"] += int(len(attempts) > 1 or (bool(attempts) and not fallback))
    return {player: list(items.values()) for player, items in found.items()}
