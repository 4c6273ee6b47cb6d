"""Each game's action model says the moment's legal moves and bounds (issue 47.1/47.2)."""

from __future__ import annotations

from arena.engine.runner import decision_request
from arena.plugins.games import get_game
from games.bargain.rules import BargainAction
from players.models.schema import action_schema, grammar_schema


def test_lemonade_production_is_bounded_by_what_the_cash_pays_for_now() -> None:
    game = get_game("lemonade").create(3, {"days": 3})
    game.stands["a"].cash = 10.0
    schema = grammar_schema(action_schema(game.action_model("a")))
    cups = int(10.0 // game.today.unit_cost)
    assert schema["properties"]["produce"]["maximum"] == cups
    assert schema["properties"]["price"] | {} == {"type": "number", "minimum": 0.5, "maximum": 6.0}
    assert (
        f"from 0 to {cups}" in action_schema(game.action_model("a"))["properties"]["produce"]["description"]
    )
    reason = action_schema(game.action_model("a"))["properties"]["reason"]["description"]
    assert "one sentence explaining" not in reason  # the offline model wrote that back as its answer
    assert isinstance(game.fallback("a"), game.action_model("a"))


def test_bargain_offers_only_when_there_is_nothing_to_accept() -> None:
    game = get_game("bargain").create(0, {})
    first = grammar_schema(action_schema(game.action_model("seller")))
    assert first["properties"]["action"]["enum"] == ["offer"]
    assert first["properties"]["price"] == {"type": "integer", "minimum": 1, "maximum": 200}
    game.apply({"seller": BargainAction(action="offer", price=120)})
    answer = grammar_schema(action_schema(game.action_model("buyer")))
    assert answer["properties"]["action"]["enum"] == ["offer", "accept"]
    assert answer["properties"]["price"]["anyOf"][0] == {"type": "integer", "minimum": 1, "maximum": 200}


def test_textarena_moves_are_an_enum_of_the_legal_moves_and_listed_in_the_prompt() -> None:
    game = get_game("textarena:Nim-v0").create(0, {})
    legal = game.legal_moves("p0")
    assert legal and action_schema(game.action_model("p0"))["properties"]["move"]["enum"] == legal
    prompt = decision_request(game, "p0", 0).prompt
    assert "reply with exactly one of them, as written: " + ", ".join(legal) in prompt
