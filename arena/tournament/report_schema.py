"""Validate a tournament ``report.json`` against the JSON Schema kept beside this module.

:func:`report_errors` lists every problem as one line (``where: what``): the schema's
findings, then checks a schema cannot state (each interval holds its rating, the table is
sorted best first, the win matrix is square over the listed players, every appendix text
hashes to the digest given for it). :func:`validate_report`
raises :class:`ReportInvalid` with the first of them.
"""

from __future__ import annotations

import hashlib
import json
import math
from functools import cache
from importlib import resources
from itertools import pairwise
from typing import Any

from jsonschema import Draft202012Validator

SCHEMA_NAME = "report_schema.json"


class ReportInvalid(ValueError):
    """A report that does not match the schema; the message is one line."""


@cache
def report_schema() -> dict[str, Any]:
    """The report's JSON Schema (draft 2020-12)."""
    text = resources.files("arena.tournament").joinpath(SCHEMA_NAME).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _validator() -> Draft202012Validator:
    schema = report_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _where(path: Any) -> str:
    return "/".join(str(part) for part in path) or "(top)"


def _consistency(report: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    rows = report["players"]
    for i, row in enumerate(rows):
        rating, low, high = row["rating"], row["rating_low"], row["rating_high"]
        if rating is not None and not (
            (low is None or low - 1e-9 <= rating) and (high is None or rating <= high + 1e-9)
        ):
            problems.append(f"players/{i}: rating {rating} is outside [{low}, {high}]")
        if rating is None and row["group"] is not None and row["bound"] is None:
            problems.append(f"players/{i}: rated in a group but has neither a rating nor a bound")
    groups = [row["group"] for row in rows]
    if groups != sorted(groups, key=lambda g: (g is None, g or 0)):
        problems.append("players: not listed group by group")
    if any(
        a["group"] == b["group"]
        and a["rating"] is not None
        and b["rating"] is not None
        and a["rating"] < b["rating"]
        and a["rank"] != b["rank"]
        for a, b in pairwise(rows)
    ):
        problems.append("players: not sorted best first")
    matrix = report["win_matrix"]
    size = len(matrix["players"])
    for name in ("wins", "games", "rate"):
        if len(matrix[name]) != size or any(len(line) != size for line in matrix[name]):
            problems.append(f"win_matrix/{name}: not {size} x {size}")
    if set(matrix["players"]) != {row["player"] for row in rows}:
        problems.append("win_matrix/players: not the players of the table")
    for i, pair in enumerate(report["order_confidence"]):
        if pair["diff"] is not None and not math.isfinite(pair["diff"]):
            problems.append(f"order_confidence/{i}/diff: not a finite number")
    return problems


def report_errors(report: object) -> list[str]:
    """Every way ``report`` fails the schema or the consistency checks, one line each."""
    found = sorted(_validator().iter_errors(report), key=lambda error: list(map(str, error.absolute_path)))
    problems = [f"{_where(error.absolute_path)}: {error.message}" for error in found]
    if not problems and isinstance(report, dict):
        problems = _consistency(report) + _digest_errors(report)
    return problems


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _digest_errors(report: dict[str, Any]) -> list[str]:
    """Every appendix text hashes to its ``sha256``, and the package lines to ``packages_sha256``."""
    problems: list[str] = []
    appendix = report["appendix"]
    for part in ("prompt_templates", "rules", "example_prompts"):
        for i, item in enumerate(appendix[part]):
            if _sha256(item["text"]) != item["sha256"]:
                problems.append(f"appendix/{part}/{i}/sha256: not the SHA-256 of its text")
    packages = "".join(f"{line}\n" for line in appendix["packages"])
    if _sha256(packages) != report["harness"]["environment"]["packages_sha256"]:
        problems.append("harness/environment/packages_sha256: not the SHA-256 of appendix/packages")
    return problems


def validate_report(report: object) -> None:
    """Raise :class:`ReportInvalid` (one line) unless ``report`` is a valid ``report.json`` document."""
    problems = report_errors(report)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ReportInvalid(f"report.json is not valid: {problems[0]}{more}")
