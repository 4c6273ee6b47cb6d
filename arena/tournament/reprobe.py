"""REPROBE v0.1 manifests of a tournament: one per model player, built from its ``report.json``.

REPROBE (repository ``mahdinaser/reprobe-audit``) records per result what an LLM benchmark
run did: identity, harness, inference, cost, failures and one headline number. A tournament
holds one result per model player (its rating), so each model player gets its own manifest;
scripted baselines are not model results and get none. The types below mirror the published
schema (vendored as ``reprobe.schema.json``, see ``reprobe_schema_source.txt``) and add the
rules its descriptions state in words: a subset other than ``full`` names its rule, more than
one pass names its aggregation, a system prompt and its hash agree, a greedy run has no
temperature above 0. :func:`codebook_scores` applies the project's ``CODEBOOK.md`` field rules.

How Arena's facts fill the fields:

* identity: the benchmark is ``arena-<game>``; its version the game's version with the prompt
  template's (``1.0+prompt-30131d1caeb5``); the commit Arena's; the grader's version the
  SHA-256 of the game's source files; the cardinality the player's counted episodes; partial
  credit yes (a tie counts half a win in the ratings).
* harness: scaffold ``arena`` at its commit; the model system message verbatim and hashed; no
  tools (actions are structured output); the stopping rule the game's longest episode; Arena
  runs in no container, so ``container_digest`` holds the digest of the Python version and the
  installed package set (the ``name==version`` lines are in report.json's appendix).
* inference: the provider and model id asked for; ``engine`` says what served the calls (the
  model id and fingerprint a hosted provider returned, an offline model's engine and file);
  sampling ``greedy`` at temperature 0, else ``top_p`` (temperature sampling within the
  nucleus: an offline model's top-p and top-k are given, a hosted provider's are its defaults
  and null); one pass per episode; the seed is the tournament's master seed when the provider
  takes per-decision seeds (derived from it), else null (not exposed).
* cost: the player's tokens, its decisions' wall-clock summed, dollars only when priced, with
  the price source and date.
* failures: the player's replies not used as given by error class, its fallbacks and re-asks,
  and the episodes it sat in that were left out, by status.
* headline metric: the player's Bradley-Terry rating; a player that won or lost every
  comparison has no rating, only a one-sided bound, and the name says so
  (``bradley_terry_rating_at_least`` / ``_at_most``).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import math
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Annotated, Any, Literal, Self

from jsonschema import Draft202012Validator, FormatChecker
from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, StringConstraints, model_validator

from arena.contract.player import ErrorClass

REPROBE_VERSION = "0.1"
SCHEMA_NAME = "reprobe.schema.json"
SCHEMA_SHA256 = "321f2ff2cd22e1837fba331793f00a373a9a44fcbb5c32b4bd043305ee91bc78"
"""The vendored schema's SHA-256 (reprobe-audit commit ced77aa80bfaa77c1aeadc0f8234e371d2f890e0)."""
HEADLINE = "bradley_terry_rating"
SCORE_SHARE = "score_share"
"""The headline of a player whose sweep is too short to bound its rating: (wins + draws / 2) / episodes."""

Sha256Digest = Annotated[str, StringConstraints(pattern=r"^sha256:[a-f0-9]{64}$")]
"""A content digest as REPROBE writes it: ``sha256:`` and 64 lowercase hex digits."""
Sampling = Literal["greedy", "top_p", "top_k", "nucleus", "beam", "best_of_n"]
Aggregation = Literal["none", "mean", "majority", "best_of_n"]
Text = Annotated[str, StringConstraints(min_length=1)]


class NoModelResult(ValueError):
    """The tournament has no model player with a rating: REPROBE manifests describe model results."""


class ManifestInvalid(ValueError):
    """A manifest Arena built fails the published schema (a bug: the types here are stricter)."""


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Identity(_Part):
    """Benchmark identity card: which benchmark, version, subset and grader."""

    benchmark: Text
    version: Text
    commit: str | None
    subset: Text
    subset_rule: str | None
    cardinality: int = Field(ge=1)
    grader_version: Text
    partial_credit: bool

    @model_validator(mode="after")
    def _subset_has_a_rule(self) -> Self:
        if self.subset != "full" and not self.subset_rule:
            raise ValueError("a subset other than 'full' needs its subset_rule")
        return self


class Harness(_Part):
    """The scaffold: its version, system prompt, tools, stopping rule and environment digest."""

    scaffold: Text
    scaffold_version: Text
    system_prompt: str | None
    system_prompt_hash: Sha256Digest | None
    tools: list[str]
    max_steps: int | None = Field(ge=1)
    max_tokens: int | None = None
    max_wallclock_seconds: int | None = None
    container_digest: Sha256Digest | None
    container_tag: str | None

    @model_validator(mode="after")
    def _hash_is_of_the_prompt(self) -> Self:
        prompt, digest = self.system_prompt, self.system_prompt_hash
        if prompt is not None and digest is not None and digest != sha256_digest(prompt):
            raise ValueError("system_prompt_hash is not the SHA-256 of system_prompt")
        return self


class Inference(_Part):
    """Inference settings as used. ``seed`` and ``engine`` have no default: null must be said."""

    provider: Text
    model_alias: Text
    engine: str | None
    sampling: Sampling
    temperature: float | None = Field(ge=0)
    top_p: float | None = Field(ge=0, le=1)
    top_k: int | None = Field(ge=1)
    frequency_penalty: float | None = None
    presence_penalty: float | None = None
    max_output_tokens: int | None = Field(ge=1)
    seed: int | None
    passes_per_task: int = Field(ge=1)
    aggregation: Aggregation | None
    verifier_for_best_of_n: str | None = None
    run_date: datetime.date

    @model_validator(mode="after")
    def _rules_in_words(self) -> Self:
        if self.passes_per_task > 1 and self.aggregation in (None, "none"):
            raise ValueError("more than one pass per task needs an aggregation rule")
        if self.aggregation == "best_of_n" and not self.verifier_for_best_of_n:
            raise ValueError("best_of_n aggregation needs verifier_for_best_of_n")
        if self.sampling == "greedy" and self.temperature not in (None, 0.0):
            raise ValueError("greedy sampling with a temperature above 0")
        return self


class Cost(_Part):
    """Tokens, wall-clock and dollars, with the rate source the dollars were computed from."""

    input_tokens: NonNegativeInt | None
    output_tokens: NonNegativeInt | None
    tool_calls: NonNegativeInt | None = None
    wallclock_seconds: float | None = Field(ge=0)
    dollar_cost_usd: float | None = Field(ge=0)
    rate_source: str | None


class HeadlineMetric(_Part):
    """The single number the manifest is attached to."""

    name: Text
    value: float = Field(allow_inf_nan=False)


class Manifest(_Part):
    """A REPROBE v0.1 manifest (``reprobe.schema.json``)."""

    reprobe_version: Annotated[str, StringConstraints(pattern=r"^[0-9]+\.[0-9]+(\.[0-9]+)?$")]
    result_id: Text
    identity: Identity
    harness: Harness | None
    inference: Inference
    cost: Cost
    failures: dict[str, NonNegativeInt] | None
    headline_metric: HeadlineMetric

    def document(self) -> dict[str, Any]:
        """The manifest as JSON data, every field present (a null is a statement, never omitted)."""
        return self.model_dump(mode="json")


def sha256_digest(text: str) -> str:
    """``sha256:<hex>`` of ``text`` as UTF-8."""
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


@cache
def reprobe_schema() -> dict[str, Any]:
    """The vendored REPROBE JSON Schema (draft 2020-12)."""
    text = resources.files("arena.tournament").joinpath(SCHEMA_NAME).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def reprobe_errors(document: object) -> list[str]:
    """Every way ``document`` fails the REPROBE schema (dates checked too), one line each."""
    validator = Draft202012Validator(reprobe_schema(), format_checker=FormatChecker())
    found = sorted(validator.iter_errors(document), key=lambda error: list(map(str, error.absolute_path)))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in found]


def slug(text: str) -> str:
    """``text`` as a safe file-name part (letters, digits, ``.``, ``_``, ``-``)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")[:60] or "player"


def model_players(report: dict[str, Any]) -> list[str]:
    """The report's players that called a model (baselines and people are not model results)."""
    return [p for p, info in report["inference"].items() if info.get("settings", {}).get("kind") == "model"]


def headline(row: dict[str, Any]) -> HeadlineMetric | None:
    """A player's headline number: its rating, or the one-sided bound its table row gives instead.

    A player that won or lost every comparison it had has no rating, only a bound
    (``rating_low`` or ``rating_high``): the metric's name then says which side it bounds.
    When its seeds are too few to bound the gap at all (the bound has no number), the
    headline is its score share (:data:`SCORE_SHARE`), which the data do fix.
    ``None`` for a player with neither (no finished games).
    """
    rating = row.get("rating")
    if isinstance(rating, int | float) and math.isfinite(rating):
        return HeadlineMetric(name=HEADLINE, value=float(rating))
    bound = row.get("bound") or {}
    side, value = (
        ("at_most", row.get("rating_high"))
        if bound.get("side") == "below"
        else ("at_least", row.get("rating_low"))
    )
    if bound and isinstance(value, int | float) and math.isfinite(value):
        return HeadlineMetric(name=f"{HEADLINE}_{side}", value=float(value))
    episodes = row.get("episodes")
    if bound and isinstance(episodes, int) and episodes > 0:
        # a sweep over too few seeds bounds no gap: the number the data do fix is the score share
        share = (float(row.get("wins", 0)) + 0.5 * float(row.get("draws", 0))) / episodes
        return HeadlineMetric(name=SCORE_SHARE, value=share)
    return None


def manifests(report: dict[str, Any]) -> dict[str, Manifest]:
    """One manifest per model player with a rating or a bound; :class:`NoModelResult` when there is none."""
    rows = {row["player"]: row for row in report["players"]}
    found = {}
    for player in model_players(report):
        metric = headline(rows.get(player, {}))
        if metric is not None:
            found[player] = manifest(report, player, metric)
    if not found:
        tournament = report["identity"]["tournament_id"]
        raise NoModelResult(
            f"tournament {tournament} has no rated model player:"
            " a REPROBE manifest describes a model's result"
        )
    return found


def manifest(report: dict[str, Any], player: str, metric: HeadlineMetric) -> Manifest:
    """The REPROBE manifest of ``player``'s result (``metric``) in the tournament ``report`` describes."""
    ident = report["identity"]
    run_date = datetime.datetime.fromisoformat(str(ident["started_at"])).date()
    facts = SentFacts.of(report, player)
    return Manifest(
        reprobe_version=REPROBE_VERSION,
        result_id=f"arena-{ident['game']}-t{ident['tournament_id']}-{slug(player)}-{run_date.isoformat()}",
        identity=_identity(report, player),
        harness=_harness(report, player, facts),
        inference=_inference(report, player, run_date, facts),
        cost=_cost(report, player, facts),
        failures=_failures(report, player),
        headline_metric=metric,
    )


def _identity(report: dict[str, Any], player: str) -> Identity:
    ident = report["identity"]
    episodes = report["cost"]["per_player"][player]["episodes"]
    left_out = sum(report["failures"].get("left_out_by_player", {}).get(player, {}).values())
    complete = ident["episodes_finished"] == ident["episodes_planned"] and not left_out
    rule = None
    if not complete:
        rule = (
            f"the player's episodes that ended 'finished': {episodes} counted, {left_out} left out"
            f" (failures); the tournament counted {ident['episodes_finished']} of"
            f" {ident['episodes_planned']} planned episodes (status {ident['status']})"
        )
    source = ident.get("game_source")
    grader = f"sha256:{source['sha256']}" if source else f"{ident['game']} {ident['game_version']}"
    return Identity(
        benchmark=f"arena-{ident['game']}",
        version=f"{ident['game_version']}+prompt-{ident['prompt_version']}",
        commit=ident["arena"].get("commit"),
        subset="full" if complete else "finished-episodes",
        subset_rule=rule,
        cardinality=max(1, episodes),
        grader_version=grader,
        partial_credit=True,
    )


OPEN_WEIGHTS = frozenset({"local", "openai-compat"})
"""Providers whose engine the codebook asks for (open weights served by a named engine)."""
NOT_REPORTED = "not reported"
TOOL_MODE = "tool"


@dataclass(frozen=True)
class SentFacts:
    """What a model player's counted decisions were actually sent, as its turns recorded it.

    Read from ``report.json`` (``inference.<player>.sent`` and ``served``): the SHA-256 of each
    distinct system message over its exact bytes, every per-decision seed, each sampling
    setting's distinct values, the engines the provider reported, the sampler an offline
    model used. The manifest is built from these, and :func:`codebook_detail` checks it
    against them.
    """

    decisions: int
    system: tuple[tuple[str, str], ...]
    """(SHA-256, text) of each distinct system message sent."""
    system_unknown: int
    seeds: tuple[int, ...]
    parameters: dict[str, tuple[Any, ...]]
    output_caps: tuple[int, ...]
    engines: tuple[str, ...]
    sampler: dict[str, Any]
    tool_mode: bool

    @classmethod
    def of(cls, report: dict[str, Any], player: str) -> SentFacts:
        """The facts of ``player`` in ``report``."""
        info = report["inference"][player]
        sent = info.get("sent") or {}
        served = info.get("served") or []
        seeds = sent.get("seeds")
        settings = info.get("settings") or {}
        return cls(
            decisions=int(sent.get("decisions") or 0),
            system=tuple((m["sha256"], m["text"]) for m in sent.get("system_messages") or []),
            system_unknown=int(sent.get("system_unknown") or 0),
            seeds=tuple(seeds) if isinstance(seeds, list) else (),
            parameters={k: tuple(v) for k, v in (sent.get("parameters") or {}).items()},
            output_caps=tuple(c for caps in (sent.get("output_cap") or {}).values() for c in caps),
            engines=tuple(dict.fromkeys(str(f["engine"]) for f in served if f.get("engine"))),
            sampler=next((dict(f["sampler"]) for f in served if f.get("sampler")), {}),
            tool_mode=settings.get("provider") == "anthropic"
            and (settings.get("anthropic_mode") or TOOL_MODE) == TOOL_MODE,
        )

    def single(self, name: str) -> Any:
        """The one value of sampling setting ``name`` sent to every decision, else ``None``."""
        values = self.parameters.get(name, ())
        return values[0] if len(values) == 1 else None

    def used(self, name: str) -> Any:
        """A setting's one value as sent, or as an offline model's sampler used it."""
        value = self.single(name)
        return self.sampler.get(name) if value is None else value


def _harness(report: dict[str, Any], player: str, facts: SentFacts) -> Harness:
    arena = report["identity"]["arena"]
    version = arena.get("commit")
    if version and arena.get("dirty"):
        version += "+dirty"
    elif not version:
        version = f"{arena['version']} (source sha256:{arena['source_sha256']})"
    # The message as sent, when every counted decision was sent the same one (its hash over the
    # exact bytes); several (one per action schema) do not fit the field: report.json lists them.
    system = facts.system[0][1] if len(facts.system) == 1 and not facts.system_unknown else None
    env = report["harness"]["environment"]
    return Harness(
        scaffold="arena",
        scaffold_version=version,
        system_prompt=system,
        system_prompt_hash=sha256_digest(system) if system is not None else None,
        tools=["action (forced tool: its input schema is the action schema; the only tool)"]
        if facts.tool_mode
        else [],
        max_steps=report["harness"]["max_steps"],
        max_wallclock_seconds=None,  # no cap per episode: the per-decision deadline is in report.json
        container_digest=f"sha256:{env['environment_sha256']}",
        container_tag=f"no container: {env['python']} with {env['packages_count']} packages"
        " (digest of the Python version and the package set; lines in report.json appendix.packages)",
    )


def _engine(info: dict[str, Any], facts: SentFacts, open_weights: bool) -> str | None:
    """What served the calls: the engine the provider reported (open weights), else ``not reported``;
    for a hosted API, the model snapshot and fingerprint it returned (``None`` when it said nothing)."""
    if open_weights:
        return "; ".join(facts.engines) or NOT_REPORTED
    said = []
    for served in info.get("served", []):
        parts = []
        if "model" in served:
            parts.append(f"served model {served['model']}")
        if "system_fingerprint" in served:
            parts.append(f"system_fingerprint {served['system_fingerprint']}")
        if parts:
            count = served["episodes"]
            said.append(", ".join(parts) + f" (in {count} episode{'s' if count != 1 else ''})")
    return "; ".join(said) or None


def _sampling(facts: SentFacts) -> Sampling:
    """The method as sent: greedy at temperature 0, top-k or top-p when one was sent (or used by an
    offline model's sampler). With none of them sent the provider's default applied; REPROBE has
    no word for that, so the label is top_p (the hosted defaults sample the whole distribution,
    top_p 1) with ``top_p`` null, and :func:`codebook_detail` scores it partial."""
    if facts.single("temperature") == 0:
        return "greedy"
    if facts.used("top_k") is not None:
        return "top_k"
    return "top_p"


def _inference(report: dict[str, Any], player: str, run_date: datetime.date, facts: SentFacts) -> Inference:
    info = report["inference"][player]
    settings = info.get("settings") or {}
    provider = str(settings.get("provider") or info["kind"])
    cap = max(facts.output_caps) if facts.output_caps else settings.get("max_output_tokens")
    seeds = set(facts.seeds)
    return Inference(
        provider=provider,
        model_alias=str(settings.get("model") or player),
        engine=_engine(info, facts, provider in OPEN_WEIGHTS),
        sampling=_sampling(facts),
        temperature=facts.single("temperature"),
        top_p=facts.used("top_p"),
        top_k=facts.used("top_k"),
        frequency_penalty=facts.single("frequency_penalty"),
        presence_penalty=facts.single("presence_penalty"),
        max_output_tokens=cap if isinstance(cap, int) else None,
        # a seed only when every decision was sent that one; per-decision seeds are in report.json
        seed=next(iter(seeds)) if len(seeds) == 1 else None,
        passes_per_task=1,
        aggregation="none",
        run_date=run_date,
    )


def _cost(report: dict[str, Any], player: str, facts: SentFacts) -> Cost:
    spent = report["cost"]["per_player"][player]
    price = report["cost"].get("prices", {}).get(player, {})
    priced = bool(price.get("priced"))
    sources = []
    if price.get("price_source"):
        sources.append(f"{price['price_source']['source']} ({price['price_source']['date']})")
    if priced and price.get("builtin_ratios_source"):
        builtin = price["builtin_ratios_source"]
        sources.append(
            "built-in cache-price ratios, for cache prices the models file leaves unset:"
            f" {builtin['source']} ({builtin['date']})"
        )
    return Cost(
        input_tokens=spent["input_tokens"],
        output_tokens=spent["output_tokens"],
        # the forced action tool is called once per request: each decision and each re-ask
        tool_calls=facts.decisions + report["failures"]["per_player"][player]["reasked"]
        if facts.tool_mode
        else 0,
        wallclock_seconds=spent.get("decision_seconds"),
        # An unpriced model's dollars are unknown, not zero.
        dollar_cost_usd=spent["cost_usd"] if priced else None,
        rate_source="; ".join(sources) or None,
    )


def _failures(report: dict[str, Any], player: str) -> dict[str, int]:
    """Counts by category for the whole result, then the same attributed to each episode and seat.

    ``schema``, ``timeout``, ... are the player's replies not used as given, ``fallback`` and
    ``reasked`` its fallbacks and re-asks, ``episode_<status>`` its left-out episodes; then
    ``episode_<id>_<seat>_<category>`` for each counted episode and seat where one happened.
    """
    failures = report["failures"]
    counts = dict.fromkeys((str(e) for e in ErrorClass), 0)
    counts.update(failures.get("errors_by_player", {}).get(player, {}))
    mine = failures["per_player"][player]
    counts["fallback"] = mine["fallback"]
    counts["reasked"] = mine["reasked"]
    for status, count in failures.get("left_out_by_player", {}).get(player, {}).items():
        counts[f"episode_{status}"] = count
    for item in failures.get("by_episode", {}).get(player, []):
        where = f"episode_{item['episode_id']}_{slug(str(item['seat']))}"
        for category, count in {
            **item["errors"],
            "fallback": item["fallback"],
            "reasked": item["reasked"],
        }.items():
            if count:
                counts[f"{where}_{slug(category)}"] = count
    return counts


Detail = dict[str, dict[str, float]]
"""Codebook scores per field and sub-field."""


def codebook_detail(manifest: Manifest, facts: SentFacts | None = None) -> Detail:
    """Each REPROBE sub-field's score under ``CODEBOOK.md`` (1.0 disclosed, 0.5 partial, 0.0 absent).

    Strict: with ``facts`` (what the decisions were actually sent, :class:`SentFacts`) a field
    scores only what is true of them. The system prompt counts when its hash is of the one
    message every decision was sent; a seed when every decision was sent that seed (null when
    none was: an explicit "not sent"; null while per-decision seeds were sent is partial, the
    field cannot hold them); the sampling method when the settings sent name it (temperature 0
    for greedy, top_k or top_p sent or used); an open-weights engine when the provider reported
    it, with a version. Without ``facts`` only the manifest's own text is read. ``harness`` is
    applicable (an agent run).
    """
    ident, harness, inference, cost = manifest.identity, manifest.harness, manifest.inference, manifest.cost
    identity = {
        "version": 1.0 if (ident.version or ident.commit) else 0.5,
        "subset": 1.0 if (ident.subset == "full" and ident.cardinality) or ident.subset_rule else 0.5,
        "grader_version": 1.0 if ident.grader_version else 0.0,
    }
    if harness is None:
        harness_detail = {"scaffold": 0.0, "system_prompt": 0.0, "container": 0.0, "max_steps": 0.0}
    else:
        given = harness.system_prompt_hash or (
            sha256_digest(harness.system_prompt) if harness.system_prompt else None
        )
        if facts is None:
            prompt = 1.0 if given else 0.0
        else:
            sent = {f"sha256:{digest}" for digest, _ in facts.system}
            if given is None:
                prompt = 0.5 if sent else 0.0  # report.json holds them; the manifest names none
            else:
                prompt = 1.0 if sent == {given} and not facts.system_unknown else 0.0
        harness_detail = {
            "scaffold": 1.0 if harness.scaffold_version else 0.5,
            "system_prompt": prompt,
            "container": 1.0 if harness.container_digest else (0.5 if harness.container_tag else 0.0),
            "max_steps": 1.0 if harness.max_steps is not None else 0.0,
        }
    inference_detail = {
        "sampling": _sampling_score(inference, facts),
        "engine": _engine_score(inference, facts),
        "seed": _seed_score(inference, facts),
        "aggregation": 1.0 if inference.passes_per_task == 1 or inference.aggregation else 0.0,
    }
    tokens = 1.0 if cost.input_tokens is not None and cost.output_tokens is not None else 0.0
    if tokens == 0.0 and (cost.input_tokens is not None or cost.output_tokens is not None):
        tokens = 0.5
    dollars = 1.0 if cost.dollar_cost_usd is not None and cost.rate_source else 0.0
    if dollars == 0.0 and (cost.dollar_cost_usd is not None or cost.rate_source):
        dollars = 0.5
    if max(tokens, dollars) == 1.0 and cost.wallclock_seconds is not None:
        whole = 1.0
    else:
        numbers = (cost.input_tokens, cost.output_tokens, cost.dollar_cost_usd, cost.wallclock_seconds)
        whole = 0.5 if any(n is not None for n in numbers) else 0.0
    found = manifest.failures or {}
    attributed = any(key.startswith("episode_") for key in found) or not any(found.values())
    failures = 1.0 if found and attributed else (0.5 if manifest.failures is not None else 0.0)
    return {
        "identity": identity,
        "harness": harness_detail,
        "inference": inference_detail,
        "cost": {"tokens": tokens, "dollars": dollars, "whole": whole},
        "failures": {"breakdown": failures},
    }


def _sampling_score(inference: Inference, facts: SentFacts | None) -> float:
    if facts is None:
        return 1.0  # the types require a method and a pass count
    backed = {
        "greedy": facts.single("temperature") == 0,
        "top_k": facts.used("top_k") is not None and inference.top_k == facts.used("top_k"),
        "top_p": facts.used("top_p") is not None and inference.top_p == facts.used("top_p"),
    }
    return 1.0 if backed.get(inference.sampling, False) else 0.5


def _engine_score(inference: Inference, facts: SentFacts | None) -> float:
    if inference.provider not in OPEN_WEIGHTS:
        return 1.0 if inference.model_alias and inference.run_date else 0.5
    engines = facts.engines if facts is not None else tuple(filter(None, [inference.engine]))
    if not engines or inference.engine in (None, NOT_REPORTED):
        return 0.0
    return 1.0 if all(re.search(r"\d+\.\d+", engine) for engine in engines) else 0.5


def _seed_score(inference: Inference, facts: SentFacts | None) -> float:
    if facts is None:
        return 1.0  # the types require the field, null included
    sent = set(facts.seeds)
    if inference.seed is None:
        return 1.0 if not sent else 0.5
    return 1.0 if sent == {inference.seed} else 0.0


def codebook_scores(manifest: Manifest, facts: SentFacts | None = None) -> dict[str, float]:
    """Each REPROBE field's score (:func:`codebook_detail`): cost by its whole-field rule, the others
    the lowest of their sub-fields."""
    detail = codebook_detail(manifest, facts)
    scores = {field: min(parts.values()) for field, parts in detail.items()}
    scores["cost"] = detail["cost"]["whole"]
    return scores
