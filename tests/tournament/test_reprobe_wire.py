"""The REPROBE manifest states what was sent, checked against the request bodies on the wire (issue 43).

A tournament's model seat plays through the real openai SDK against the local wire-format
server, which records every request body. The manifest's system prompt must be the message
in those bodies (its hash over the exact bytes), its seed one that was sent (or null when none
was), its sampling settings the ones sent, its failures attributed to episodes and seats; and
Arena's own codebook score must equal the strict score worked out here from the bodies alone.
The manifest built before issue 43 scored itself 1.0 and 0.60 when checked this way.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import pytest

from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.report import build_report
from arena.tournament.reprobe import SentFacts, codebook_detail, codebook_scores, manifests
from arena.tournament.run import run_tournament
from players.models import ModelsConfig
from tests.support.modelkit import CANARY_KEY, KEY_ENV, settings_for
from tests.support.wire_server import WireServer, reply

STAND = {"price": 2.5, "produce": 20, "promotion": "none", "reason": "steady"}
DAYS, SEEDS = 2, 2


@pytest.fixture
def wire() -> Iterator[WireServer]:
    with WireServer() as server:
        yield server


def system_of(body: dict[str, Any]) -> str:
    """The system message in a request body: Chat Completions' first message, Responses' instructions."""
    if "instructions" in body:
        return str(body["instructions"])
    first = body["messages"][0]
    assert first["role"] in ("system", "developer")
    return str(first["content"])


async def played(store: Store, wire: WireServer, provider: str, **settings: Any) -> dict[str, Any]:
    """Lemonade, model ``m`` against the weather baseline on two deals in both seatings; the report."""
    decisions = DAYS * SEEDS * 2
    wire.script(reply(STAND), reply("not json at all"), *[reply(STAND) for _ in range(decisions)])
    models = ModelsConfig(models={"m": settings_for(provider, wire, **settings)})
    config = build_config(
        game="lemonade", players=("m", "baseline:weather"), seeds=SEEDS, options={"days": DAYS}, concurrency=1
    )
    progress = await run_tournament(store, config, models_config=models)
    assert progress.status == "finished"
    return build_report(store, progress.tournament_id)


def strict_from_the_wire(bodies: list[dict[str, Any]], manifest: dict[str, Any]) -> dict[str, float]:
    """The codebook's inference and system-prompt scores, from the request bodies and the manifest."""
    systems = {system_of(body) for body in bodies}
    digests = {"sha256:" + hashlib.sha256(text.encode()).hexdigest() for text in systems}
    given = manifest["harness"]["system_prompt_hash"]
    prompt = 1.0 if given is not None and {given} == digests else (0.5 if given is None else 0.0)
    seeds = {body["seed"] for body in bodies if "seed" in body}
    seed = manifest["inference"]["seed"]
    seed_score = (1.0 if not seeds else 0.5) if seed is None else (1.0 if seeds == {seed} else 0.0)
    temperatures = {body.get("temperature") for body in bodies}
    method = manifest["inference"]["sampling"]
    backed = (method == "greedy" and temperatures == {0}) or (
        method in ("top_p", "top_k") and all(method in body for body in bodies)
    )
    return {"system_prompt": prompt, "seed": seed_score, "sampling": 1.0 if backed else 0.5}


@pytest.mark.parametrize(
    ("provider", "expected"),
    [
        # greedy at temperature 0 and no seed sent: everything a run can know is disclosed
        ("openai-responses", {"system_prompt": 1.0, "seed": 1.0, "sampling": 1.0}),
        # Chat Completions is sent a seed per decision: REPROBE's one seed cannot hold them
        ("openai-chat", {"system_prompt": 1.0, "seed": 0.5, "sampling": 1.0}),
    ],
)
async def test_the_manifest_states_what_went_over_the_wire(
    provider: str,
    expected: dict[str, float],
    store: Store,
    wire: WireServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    report = await played(store, wire, provider, temperature=0.0)
    bodies = [post.body for post in wire.posts()]
    manifest = manifests(report)["m"]
    document = manifest.document()
    facts = SentFacts.of(report, "m")
    # the system message as sent, hashed over its exact bytes (the template's {schema} filled in)
    (system,) = {system_of(body) for body in bodies}
    assert "{schema}" not in system and document["harness"]["system_prompt"] == system
    assert (
        document["harness"]["system_prompt_hash"] == "sha256:" + hashlib.sha256(system.encode()).hexdigest()
    )
    # every seed sent, in order, in report.json; the manifest's seed only if it was every one of them
    sent = report["inference"]["m"]["sent"]
    seeds = [body["seed"] for body in bodies if "seed" in body]
    counted = sent["decisions"]
    if seeds:
        assert sent["seeds"] == seeds[-counted:] or set(sent["seeds"]) <= set(seeds)
        assert len(set(seeds)) > 1 and document["inference"]["seed"] is None
    else:
        assert sent["seeds"] == "none sent" and document["inference"]["seed"] is None
    # the sampling settings sent, and nothing that was not
    assert {body.get("temperature") for body in bodies} == {0} and sent["parameters"] == {"temperature": [0]}
    assert document["inference"]["sampling"] == "greedy" and document["inference"]["temperature"] == 0
    assert document["inference"]["top_p"] is None and all("top_p" not in body for body in bodies)
    # a hosted API: no engine to report, the alias with its run date
    assert document["inference"]["engine"] is None or "served model" in document["inference"]["engine"]
    # the unusable reply is attributed to its episode and seat
    failures = document["failures"]
    assert failures["unparsable"] == 1 and failures["reasked"] == 1
    by_episode = [key for key in failures if key.startswith("episode_") and key.endswith("_unparsable")]
    assert len(by_episode) == 1 and failures[by_episode[0]] == 1
    assert document["cost"]["tool_calls"] == 0 and document["harness"]["tools"] == []
    limits = report["inference"]["m"]["wallclock_limits"]
    assert limits["per_decision_seconds"] > 0 and limits["per_episode_seconds"] is None
    # Arena's own score is the strict one worked out from the bodies
    by_hand = strict_from_the_wire(bodies, document)
    assert by_hand == expected
    detail = codebook_detail(manifest, facts)
    assert {
        "system_prompt": detail["harness"]["system_prompt"],
        "seed": detail["inference"]["seed"],
        "sampling": detail["inference"]["sampling"],
    } == by_hand
    scores = codebook_scores(manifest, facts)
    assert scores["inference"] == min(by_hand["seed"], by_hand["sampling"])
    assert scores == {
        "identity": 1.0,
        "harness": 1.0,
        "inference": scores["inference"],
        "cost": 1.0,
        "failures": 1.0,
    }
