"""Cattle Trade with model seats: the real openai/anthropic SDKs against the wire server."""

from __future__ import annotations

import importlib
import json
import random
import typing
from collections.abc import Iterator
from typing import Any

import pytest

from arena.contract.game import GameState
from arena.contract.records import Event, Observer, StepStarted
from arena.engine.match import MatchConfig, prepare_runner, run_to_end
from arena.engine.runner import decision_request
from arena.plugins.players import parse_player_spec
from arena.store.database import Store
from games.cattle.actions import SaleAction
from games.cattle.definition import DEFINITION
from games.cattle.game import ACTION_MODELS
from players.models import ModelsConfig, build_model_player, local_runtime
from players.models.grammar import bounded_grammar
from players.models.local_runtime import missing_requirement
from players.models.schema import action_schema, grammar_schema
from tests.support.cattle_wire import FEEDBACK_MARK, NOTES_INPUT_TOKENS, NOTES_OUTPUT_TOKENS, CattleResponder
from tests.support.episodes import stored_turns
from tests.support.modelkit import CANARY_KEY, KEY_ENV, settings_for
from tests.support.wire_server import WireServer, prompt_of

SENTINEL = 987_654
"""A money card no deal holds: a prompt showing it shows another seat's money."""


class PromptTape(Observer):
    """Each model seat's prompt at every step it is asked, checked blind to the others' money."""

    def __init__(self, seats: set[str]) -> None:
        self.seats = seats
        self.game: GameState[Any, Any, Any] | None = None
        self.prompts: dict[str, list[str]] = {seat: [] for seat in seats}

    def __call__(self, event: Event) -> None:
        game = self.game
        if not isinstance(event, StepStarted) or game is None:
            return
        for seat in self.seats & set(event.seats):
            prompt = game.definition.prompt_for(game, seat)
            # Another seat's money, changed card for card, must not change the prompt (a seat
            # without cards has none to hide: the sentinel copy would give it one).
            for other in game.seats:
                if other != seat and game.table.money[other]:  # type: ignore[attr-defined]
                    twin = game.with_sentinel(other, SENTINEL)
                    assert twin is not None
                    assert game.definition.prompt_for(twin, seat) == prompt, (seat, other)
            self.prompts[seat].append(prompt)


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> Iterator[WireServer]:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    with WireServer() as server:
        yield server


async def play(
    wire: WireServer, store: Store, seats: dict[str, str], seed: int, options: dict[str, Any], **prices: float
) -> tuple[Any, PromptTape]:
    """Play one game with the wire's models ``chat`` (openai chat) and ``claude`` (anthropic)."""
    models = ModelsConfig(
        models={
            "chat": settings_for("openai-chat", wire, **prices),
            "claude": settings_for("anthropic", wire, **prices),
        }
    )
    tape = PromptTape({seat for seat, spec in seats.items() if not spec.startswith("baseline:")})
    runner = prepare_runner(
        MatchConfig("cattle", seats, seed=seed, options=options), store, [tape], models_config=models
    )
    tape.game = runner.game
    return await run_to_end(runner), tape


async def test_two_model_seats_play_a_whole_game_and_bad_replies_are_re_asked_then_fall_back(
    wire: WireServer, store: Store
) -> None:
    responder = CattleResponder(
        bad={
            ("p1", "bidding"): ["I bid fifty on the goose"],  # unreadable: re-asked, then fine
            ("p1", "payment"): ['{"cards": "500 500 500"}'] * 2,  # cards not held, twice: pays auto
        },
        low_bids={"p1": 2},  # a bid that does not beat the standing one, twice: passes
    )
    wire.responder = responder
    seats = {"p1": "chat", "p2": "baseline:tracker", "p3": "claude", "p4": "baseline:set-racer"}
    outcome, tape = await play(wire, store, seats, seed=11, options={})

    assert outcome.status == "finished"
    assert not outcome.results["p1"].metrics["turn_capped"]  # a real end (61 turns), not the cap
    turns = stored_turns(store, outcome.episode_id or 0)
    mine = [t for t in turns if t["seat"] == "p1"]
    errors = sorted((t["error"], t["fallback"]) for t in mine if t["error"])
    assert errors == [("illegal", 1), ("illegal", 1), ("unparsable", 0)]
    paid = next(t for t in mine if t["fallback"] and "cards" in t["action"])
    assert "500" in paid["attempts"][0]["detail"] and paid["action"]["cards"] == "auto"
    low = next(t for t in mine if t["fallback"] and "amount" in t["action"])
    assert low["action"]["action"] == "pass" and "beat" in low["attempts"][0]["detail"]
    metrics = outcome.results["p1"].metrics
    assert (metrics["invalid_replies"], metrics["fallbacks"]) == (5, 2)
    clean = outcome.results["p3"].metrics
    assert (clean["invalid_replies"], clean["fallbacks"]) == (0, 0)
    assert metrics["decisions"] == len(mine) and clean["decisions"] == sum(t["seat"] == "p3" for t in turns)

    # Every request carried the prompt the game rendered then: with the legal-move summary,
    # and (the tape checked each one) blind to the other seats' money.
    posts = wire.posts()
    assert len(posts) == len(mine) + sum(t["seat"] == "p3" for t in turns) + 3  # three re-asks
    for post, asked in zip(posts, responder.seen, strict=True):
        prompt = prompt_of(post.body).split("\n\n" + FEEDBACK_MARK)[0]
        assert prompt in tape.prompts[asked.seat]
        assert "\nLegal moves:\n- " in prompt and str(SENTINEL) not in prompt
    kinds = set(responder.kinds)
    assert {"turn", "bidding", "sale", "payment", "response"} <= kinds, responder.kinds
    assert all(t["prompt"] in tape.prompts["p1"] for t in mine)


async def test_notes_are_a_model_call_counted_in_the_seat_and_shown_in_its_next_prompt(
    wire: WireServer, store: Store
) -> None:
    responder = CattleResponder()
    wire.responder = responder
    seats = {"p1": "chat", "p2": "baseline:tracker", "p3": "baseline:cautious", "p4": "baseline:random"}
    prices = {"price_input_per_mtok": 2.0, "price_output_per_mtok": 8.0}
    outcome, tape = await play(wire, store, seats, seed=5, options={"notes": True, "turn_cap": 12}, **prices)

    assert outcome.status == "finished"
    turns = [t for t in stored_turns(store, outcome.episode_id or 0) if t["seat"] == "p1"]
    notes = [t for t in turns if "notes" in t["action"]]
    written = responder.notes_written["p1"]
    assert len(notes) == len(written) == 3  # p1's own turns 1, 5 and 9 of 12
    assert [t["action"]["notes"] for t in notes] == written  # not read as the reason
    for turn in notes:
        assert (turn["input_tokens"], turn["output_tokens"]) == (NOTES_INPUT_TOKENS, NOTES_OUTPUT_TOKENS)
        assert turn["cost_usd"] == pytest.approx((NOTES_INPUT_TOKENS * 2.0 + NOTES_OUTPUT_TOKENS * 8.0) / 1e6)
    seat = next(s for s in store.seats(outcome.episode_id or 0) if s["seat"] == "p1")
    others = len(turns) - len(notes)
    assert seat["input_tokens"] == others * 120 + len(notes) * NOTES_INPUT_TOKENS
    assert seat["output_tokens"] == others * 30 + len(notes) * NOTES_OUTPUT_TOKENS
    assert seat["cost_usd"] == pytest.approx(sum(t["cost_usd"] for t in turns))
    assert outcome.usage["p1"].input_tokens == seat["input_tokens"]

    # The prompt after each notes call shows them as "your notes"; before the first, none yet.
    prompts = tape.prompts["p1"]
    assert "\nYour notes: (none yet)\n" in prompts[0]
    for text in written:
        at = next(i for i, t in enumerate(turns) if t["action"].get("notes") == text)
        if at + 1 < len(turns):
            assert f"\nYour notes: {text}\n" in prompts[at + 1]
    assert f"\nYour notes: {written[0]}\n" in prompts[turns.index(notes[0]) + 1]


GEMMA_MISSING = missing_requirement("gemma3-270m")


def literal_values(annotation: Any) -> list[str]:
    """The strings a field's ``Literal`` allows, looking inside ``X | None``."""
    values: list[str] = []
    for arg in typing.get_args(annotation):
        values += [arg] if isinstance(arg, str) else literal_values(arg)
    return values


@pytest.mark.skipif(GEMMA_MISSING is not None, reason=f"offline model unavailable: {GEMMA_MISSING}")
@pytest.mark.parametrize("phase", sorted(set(ACTION_MODELS) - {"over"}))
def test_every_action_model_becomes_a_local_grammar(phase: str) -> None:
    # Literal fields, optional (nullable) fields and the free `cards` text: llama.cpp's
    # converter takes each as the local player sends it (a refusal would crash every decision).
    constraints: Any = importlib.import_module(f"{local_runtime.BINDING}.constraints")
    schema = grammar_schema(action_schema(ACTION_MODELS[phase]))

    def convert(marked: dict[str, Any]) -> str:
        format_ = {"type": "json_schema", "json_schema": {"name": "action", "schema": marked}}
        return str(constraints.response_format_to_grammar(format_))

    grammar = bounded_grammar(schema, convert)  # bounded numbers: Arena's own rules (issue 47.1)
    assert isinstance(grammar, str) and "root ::=" in grammar
    for name, field in ACTION_MODELS[phase].model_fields.items():
        assert f'\\"{name}\\"' in grammar, name  # every field, required (one key order)
        for value in literal_values(field.annotation):  # `Seat | None` too
            assert f'\\"{value}\\"' in grammar, value


@pytest.mark.skipif(GEMMA_MISSING is not None, reason=f"offline model unavailable: {GEMMA_MISSING}")
async def test_the_offline_model_takes_a_cattle_decision() -> None:
    # One real decision (a few seconds): the auctioneer's sale, the moment with the shortest
    # reply. Gemma 3 270M's replies are JSON by construction (the grammar); legal or not, the
    # runner can read them. Over 21 decisions of every kind 16 were legal (bench note in the report).
    state = DEFINITION.create(1, {"players": 4})
    rng = random.Random(1)
    while state.table.phase != "sale":
        state.apply({seat: state.sample_action(seat, rng) for seat in state.pending()})
    (seat,) = state.pending()
    player = build_model_player(parse_player_spec("local:gemma3-270m"), seed=3, config=ModelsConfig())
    try:
        decision = await player.decide(decision_request(state, seat, 0, episode="cattle-local"))
    finally:
        await player.close()
    assert decision.error is None, (decision.error, decision.error_detail, decision.raw)
    assert isinstance(json.loads(decision.raw), dict)
    action = SaleAction.model_validate(decision.action)
    assert state.validate(seat, action) is None or action.action == "buy"  # buy may lack the money
    assert decision.usage.input_tokens > 1000 and decision.usage.output_tokens > 0
