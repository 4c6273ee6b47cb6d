"""Plain-object logic behind bargaining in the app, without a running app."""

from __future__ import annotations

from pathlib import Path

from arena.app.match_data import MatchData
from arena.contract.player import DecisionRequest
from arena.engine.action_form import ActionForm
from arena.engine.match import MatchConfig, prepare_runner
from arena.engine.runner import decision_request
from arena.plugins.games import get_game
from arena.store.database import Store


def bargain_request(seed: int = 1) -> DecisionRequest:
    """The seller's first request in a fresh bargain."""
    game = get_game("bargain").create(seed, {})
    return decision_request(game, "seller", 0)


def test_a_required_choice_starts_on_its_first_option() -> None:
    form = ActionForm(bargain_request())
    assert form.entries["action"] == "offer"
    # Nothing to accept on the first turn: offering is the only choice (issue 47.1).
    assert [c for c in form.field("action").choices] == ["offer"]  # type: ignore[union-attr]


def test_a_rule_problem_is_marked_on_the_field_it_names_and_clears_once_fixed() -> None:
    form = ActionForm(bargain_request())
    outcome = form.submit()
    assert outcome.action is None
    assert "price" in outcome.field_errors and form.error is not None
    assert form.set_entry("price", "50") is None
    assert form.field_errors == {} and form.error is None
    outcome = form.submit()
    assert outcome.action is not None and outcome.action.model_dump()["price"] == 50


def test_accepting_skips_the_price_but_keeps_what_was_typed_in_it_and_the_message_still_applies() -> None:
    """The rules let either action carry a message, so accept keeps the message field (issue 24, item 4)."""
    game = get_game("bargain").create(1, {})
    game.apply({"seller": game.action_model("seller").model_validate({"action": "offer", "price": 120})})
    form = ActionForm(decision_request(game, "buyer", 1))
    form.set_entry("price", "abc")
    form.set_entry("message", "deal, thanks")
    assert "price" in form.field_errors, "a bad price is marked while it applies"
    form.set_entry("action", "accept")
    assert form.field_errors == {} and form.error is None, "the mark goes with the field"
    assert not form.applies(form.fields[1]) and form.applies(form.fields[2])
    outcome = form.submit()
    assert outcome.action is not None, outcome
    assert outcome.action.model_dump() == {
        "action": "accept",
        "price": None,
        "message": "deal, thanks",
        "reason": "",
    }
    assert form.entries_for_storage() == {"action": "accept", "message": "deal, thanks", "reason": ""}
    assert form.entries["price"] == "abc", "the entry waits for an offer"
    form.set_entry("action", "offer")
    assert form.applies(form.fields[1])
    assert "price" in form.submit().field_errors


async def test_the_conversation_keeps_each_move_and_what_was_said(tmp_path: Path) -> None:
    store = Store(tmp_path / "chat.db")
    config = MatchConfig("bargain", {"seller": "baseline:bluffing", "buyer": "baseline:honest"}, seed=3)
    runner = prepare_runner(config, store, [])
    data = MatchData(
        "bargain", list(runner.game.seats), {s: p.spec for s, p in runner.players.items()}, source=runner.game
    )
    runner.observers.append(data)
    await runner.run()
    store.close()
    assert data.has_messages and len(data.chat) == len(data.history)
    said = [line for line in data.chat if line.message]
    assert said, "the bluffing seller talks"
    for line, row in zip(data.chat, data.history, strict=True):
        assert line.seat == row.seat and '"' not in line.move, "the move without its quoted message"
    assert data.chat[-1].move.startswith(("accept", "offer"))
    lemonade_runner = prepare_runner(
        MatchConfig("lemonade", {"a": "baseline:weather", "b": "baseline:weather"}), None, []
    )
    lemonade = MatchData("lemonade", ["a", "b"], {}, source=lemonade_runner.game)
    lemonade_runner.observers.append(lemonade)
    await lemonade_runner.run()
    assert not lemonade.has_messages and lemonade.chat == []
