"""report.json: a sample built from real tables validates; broken ones are rejected in one line."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from arena.tournament.report_schema import ReportInvalid, report_errors, report_schema, validate_report
from arena.tournament.schedule import schedule
from arena.tournament.tables import tables
from tests.support.synthetic import many_seat, two_seat

PLAYERS = {"openai:gpt-x": 120.0, "baseline:honest": 0.0, "baseline:bluff": -80.0}
COST = {"openai:gpt-x": 0.004, "baseline:honest": 0.0, "baseline:bluff": 0.0}


def sample_report() -> dict[str, Any]:
    records = two_seat(PLAYERS, deals=12, seed=3)
    planned = len(schedule(["seller", "buyer"], list(PLAYERS), 12, 3))
    report: dict[str, Any] = {
        "schema_version": 1,
        "identity": {
            "tournament_id": 7,
            "name": "bargain pool",
            "game": "bargain",
            "game_version": "2",
            "prompt_version": "3",
            "arena_version": "0.1.0",
            "master_seed": 3,
            "seeds": 12,
            "deal_seed_rule": "sha256('arena-suite:{seed}:{i}')[:4] & 0x7FFFFFFF",
            "schedule_rule": "every pair on every deal seed in both seatings",
            "seats": ["seller", "buyer"],
            "options": {"max_rounds": 8},
            "players": list(PLAYERS),
            "episodes_planned": planned,
            "episodes_finished": len(records),
            "status": "finished",
            "started_at": "2026-11-30T14:00:00Z",
            "finished_at": "2026-11-30T14:03:00Z",
        },
        "harness": {
            "seats": ["seller", "buyer"],
            "first_to_move": ["seller"],
            "episode_length": 8,
            "timeout": 60.0,
            "reask": "one re-ask with the validation error",
            "fallback": "the seller holds its last offer; the buyer walks away",
            "budget": None,
            "concurrency": 4,
        },
        "inference": {
            "openai:gpt-x": {"spec": "openai:gpt-x", "kind": "openai", "settings": {"temperature": 0.0}},
            "baseline:honest": {"spec": "baseline:honest", "kind": "baseline"},
            "baseline:bluff": {"spec": "baseline:bluff", "kind": "baseline"},
        },
        "cost": {
            "episodes": len(records),
            "total_usd": 0.32,
            "usd_per_episode": 0.0044,
            "input_tokens": 81000,
            "output_tokens": 9000,
            "per_player": {
                p: {
                    "episodes": 48,
                    "input_tokens": 0,
                    "output_tokens": 0,
                    "cost_usd": COST[p] * 48,
                    "usd_per_episode": COST[p],
                }
                for p in PLAYERS
            },
        },
        "failures": {
            "episodes_by_status": {"finished": len(records), "failed": 1},
            "errors_by_class": {"schema": 3},
            "per_player": {
                p: {
                    "decisions": 300,
                    "invalid": 3,
                    "reasked": 3,
                    "fallback": 1,
                    "timeouts": 0,
                    "provider_errors": 1,
                }
                for p in PLAYERS
            },
        },
        **tables(records, resamples=200, seed=1, cost_per_episode=COST),
        "left_out": [
            {
                "slot_key": "4:123/seller=a/buyer=b",
                "episode_id": 99,
                "status": "failed",
                "reason": "HTTP 500 twice",
            }
        ],
    }
    add_disclosure(report)
    return report


def _text(text: str, **more: Any) -> dict[str, Any]:
    return {**more, "sha256": hashlib.sha256(text.encode()).hexdigest(), "text": text}


def add_disclosure(report: dict[str, Any]) -> None:
    """The disclosure fields of a report beyond schema 1's first tables (code, environment, texts)."""
    packages = ["arena==0.1.0", "numpy==2.3.0"]
    listing = "".join(f"{line}\n" for line in packages)
    digest = hashlib.sha256(listing.encode()).hexdigest()
    report["identity"]["arena"] = {
        "version": "0.1.0",
        "commit": "a" * 40,
        "dirty": False,
        "source_sha256": "b" * 64,
    }
    report["identity"]["game_source"] = {
        "package": "games.bargain",
        "sha256": "c" * 64,
        "files": {"x.py": "d" * 64},
    }
    report["harness"] |= {
        "max_steps": 8,
        "environment": {
            "python": "CPython 3.11.7",
            "platform": "Linux",
            "packages_sha256": digest,
            "environment_sha256": "e" * 64,
            "packages_count": 2,
        },
        "prompt_templates": [{"owner": "game bargain", "version": "3", "sha256": "f" * 64, "rule": "joined"}],
    }
    report["methods"] = {
        "rating": {"fit": "bt", "prior": 1.0, "prior_text": "one draw", "interval_text": "95%"}
    }
    report["cost"]["wallclock"] = {
        "started_at": "2026-11-30T14:00:00Z",
        "finished_at": "2026-11-30T14:03:00Z",
        "span_seconds": 180.0,
        "episode_seconds": 170.0,
        "decision_seconds": 150.0,
        "decisions": 900,
    }
    report["failures"]["errors_by_player"] = {p: {"schema": 1} for p in PLAYERS}
    report["appendix"] = {
        "prompt_templates": [_text("Offer a price.", name="bargain template", owner="game bargain")],
        "rules": [_text("Sell.", seat="seller"), _text("Buy.", seat="buyer")],
        "example_prompts": [
            _text("Sell. Round 1.", seat="seller", player="openai:gpt-x", episode_id=1, step=0)
        ],
        "packages": packages,
    }


def test_the_schema_is_valid_draft_2020_12() -> None:
    schema = report_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_a_sample_report_validates_after_a_json_round_trip() -> None:
    report = json.loads(json.dumps(sample_report()))
    assert report_errors(report) == []
    validate_report(report)
    first = report["players"][0]
    assert first["player"] == "openai:gpt-x" and first["rating_per_dollar"] > 0
    assert {"player", "rating", "rating_low", "rating_high", "episodes", "wins", "draws", "losses"} <= set(
        first
    )
    assert report["ratings"]["method"] == "bradley-terry" and report["ratings"]["openskill"] is None
    assert all(
        row["more_usd"] is not None for row in report["order_confidence"] if row["more_seeds"] is not None
    )


def test_a_many_seat_report_carries_plackett_luce() -> None:
    records = many_seat({"a": 200.0, "b": 0.0, "c": -200.0, "d": 0.0}, ["n", "e", "s"], deals=5, seed=2)
    report = sample_report() | tables(records, resamples=50)
    validate_report(json.loads(json.dumps(report)))
    assert report["ratings"]["method"] == "plackett-luce" and report["players"][0]["player"] == "a"
    assert report["ratings"]["openskill"]["rows"][0]["player"] == "a"
    assert "order" in report["ratings"]["openskill"]["label"]


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    def apply(report: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = report
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        if value is KeyError:
            del node[last]
        else:
            node[int(last) if last.isdigit() else last] = value

    return apply


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set("identity", KeyError), "'identity' is a required property"),
        (_set("players.0.rating", "high"), "players/0/rating: 'high' is not of type 'number'"),
        (_set("order_confidence.0.p_order_right", 1.5), "order_confidence/0/p_order_right"),
        (_set("inference.openai:gpt-x.settings", {"api_key": "sk-x"}), "inference/openai:gpt-x/settings"),
        (_set("failures.per_player.baseline:bluff.timeouts", -1), "timeouts: -1 is less than the minimum"),
        (_set("players.0.rating_low", 5000.0), "players/0: rating"),
        (_set("schema_version", 2), "schema_version"),
        (_set("left_out.0.reason", KeyError), "'reason' is a required property"),
    ],
)
def test_a_broken_report_is_rejected_in_one_line(
    change: Callable[[dict[str, Any]], None], message: str
) -> None:
    report = copy.deepcopy(sample_report())
    change(report)
    with pytest.raises(ReportInvalid, match=r"report\.json is not valid") as caught:
        validate_report(report)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_an_unsorted_table_is_rejected() -> None:
    report = sample_report()
    report["players"].reverse()
    assert report_errors(report) == ["players: not sorted best first"]
