"""The app's view logic as plain objects, tested without a running app."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, RootModel

from arena.app.browse_data import EpisodeFilter, episode_cells
from arena.app.home_data import MatchDraft, reflow, seat_options
from arena.app.human import HumanDesk, HumanPlayer
from arena.app.match_data import HIDDEN_VIEW, HistoryRow, MatchData
from arena.app.model_catalog import ModelCatalog
from arena.app.replay_data import ReplayData
from arena.app.safe import SafeRenderable, safe_text
from arena.app.screens.match import HISTORY_WIDTHS, history_cells
from arena.contract.player import DecisionRequest
from arena.engine.action_form import JSON_FIELD, ActionForm
from arena.engine.match import MatchConfig, play_match, prepare_runner
from arena.engine.runner import decision_request
from arena.plugins.games import get_game
from arena.store.database import Store
from tests.support.app_driving import record_episode, render_plain
from tests.support.episodes import stored_turns

HOSTILE = "[@click=app.quit]x[/] \x1b[2J \x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\ \u202eabc"


def lemonade_request(cash_days: int = 30) -> DecisionRequest:
    """Seat a's first request in a fresh lemonade game (cash 50)."""
    game = get_game("lemonade").create(1, {"days": cash_days})
    return decision_request(game, "a", 0)


def test_form_explains_a_rule_break_and_keeps_the_entries() -> None:
    form = ActionForm(lemonade_request())
    assert [f.name for f in form.fields] == ["price", "produce", "promotion", "reason"]
    form.set_entry("price", "3")
    # Within the morning's declared limit without a promotion, over it with the bundle's signs.
    limit = ActionForm(lemonade_request()).field("produce").maximum  # type: ignore[union-attr]
    form.set_entry("produce", str(limit))
    form.set_entry("promotion", "bundle")
    outcome = form.submit()
    assert outcome.action is None
    assert outcome.error is not None and "cash is 50.00" in outcome.error
    assert "produce" in outcome.field_errors
    assert form.entries["produce"] == str(limit) and form.entries["price"] == "3"
    form.set_entry("produce", "10")
    outcome = form.submit()
    assert outcome.ok and outcome.action is not None
    assert outcome.action.model_dump()["produce"] == 10


def test_form_checks_each_entry_as_typed() -> None:
    form = ActionForm(lemonade_request())
    assert form.set_entry("price", "abc") == "price must be a number, not 'abc'"
    assert form.set_entry("price", "9") == "price must be at most 6, not 9"
    assert form.set_entry("price", "2.5") is None
    assert form.set_entry("promotion", "disc") is None
    form.set_entry("produce", "")
    outcome = form.submit()
    limit = form.field("produce").maximum  # type: ignore[union-attr]
    assert limit is not None and limit < 1000  # the morning's limit (issue 47.1), not the cap
    # the range as it is now: with the discount's fixed cost chosen, fewer cups than the field's bound
    [message] = outcome.field_errors.values()
    now = re.fullmatch(r"produce is required \(0 to (\d+) now\)", outcome.field_errors["produce"])
    assert now is not None and int(now[1]) <= limit, message


def test_form_prefills_the_previous_move_and_takes_the_reason() -> None:
    previous = {"price": "3.5", "produce": "12", "promotion": "none", "reason": "same as yesterday"}
    form = ActionForm(lemonade_request(), previous)
    assert form.entries["reason"] == ""
    form.set_entry("reason", "steady")
    outcome = form.submit()
    assert outcome.ok
    assert outcome.reason == "steady"


class _Offer(BaseModel):
    kind: Literal["offer"]
    price: int


class _Accept(BaseModel):
    kind: Literal["accept"]


class _Move(RootModel[_Offer | _Accept]):
    """A union action: its schema has no properties, so the form takes JSON."""


def test_form_without_fields_takes_json() -> None:
    request = lemonade_request()
    request.action_model = _Move
    request.check = None
    form = ActionForm(request)
    assert form.raw_json and [f.name for f in form.fields] == [JSON_FIELD]
    form.set_entry(JSON_FIELD, "{not json")
    assert JSON_FIELD in form.submit().field_errors
    form.set_entry(JSON_FIELD, '{"kind": "offer"}')
    assert JSON_FIELD in form.submit().field_errors
    form.set_entry(JSON_FIELD, '{"kind": "offer", "price": 7}')
    outcome = form.submit()
    assert outcome.action is not None and outcome.action.model_dump() == {"kind": "offer", "price": 7}


async def test_human_player_waits_for_the_form() -> None:
    desk = HumanDesk()
    player = HumanPlayer("a", desk)
    request = lemonade_request()
    task = asyncio.create_task(player.decide(request))
    await asyncio.sleep(0)
    turn = desk.active()
    assert turn is not None and turn.seat == "a" and not task.done()
    form = ActionForm(turn.request)
    form.set_entry("price", "3")
    form.set_entry("produce", "5")
    outcome = form.submit()
    assert outcome.action is not None
    turn.submit(outcome.action, "because", form.entries_for_storage())
    decision = await task
    assert decision.reason == "because" and '"produce": "5"' in decision.raw
    assert desk.active() is None


async def test_match_data_follows_a_real_episode(tmp_path: Path) -> None:
    store = Store(tmp_path / "m.db")
    config = MatchConfig(
        "lemonade", {"a": "baseline:weather", "b": "baseline:random"}, seed=2, options={"days": 5}
    )
    runner = prepare_runner(config, store, [])
    data = MatchData(
        "lemonade",
        list(runner.game.seats),
        {s: p.spec for s, p in runner.players.items()},
        source=runner.game,
    )
    runner.observers.append(data)
    await runner.run()
    store.close()
    assert data.status == "finished" and data.over
    assert len(data.history) == 10
    assert data.stats["a"].decisions == 5
    assert data.visible_seats() == ["a", "b"]
    assert data.board_viewer(None) is None
    seats, rows = data.result_rows()
    assert seats == ["a", "b"] and rows[0][0] == "score"
    assert len(data.score_series()["a"]) == 6


def test_match_data_hides_the_others_while_a_person_plays() -> None:
    data = MatchData("lemonade", ["a", "b"], {"a": "human", "b": "baseline:weather"}, human_seats=["a"])
    data.status = "running"
    assert data.secret
    assert data.visible_seats() == ["a"]
    assert data.board_viewer(None) == "a"
    two = MatchData("lemonade", ["a", "b"], {"a": "human", "b": "human"}, human_seats=["a", "b"])
    two.status = "running"
    assert two.board_viewer(None) == HIDDEN_VIEW
    assert two.board_viewer("b") == "b"
    assert two.visible_seats() == [], "people sharing a screen see nobody's reasons during play"
    two.status = "finished"
    assert two.board_viewer("b") is None and two.visible_seats() == ["a", "b"]


async def test_replay_rebuilds_every_step(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    episode_id = await record_episode(db, days=12)
    store = Store(db)
    replay = ReplayData.load(store, episode_id, snapshot_every=5)
    turns = stored_turns(store, episode_id)
    store.close()
    assert replay.total == 12
    assert replay.game() is not None and replay.game().day == 1  # type: ignore[union-attr]
    replay.go(replay.total)
    end = replay.game()
    assert end is not None and end.over()
    assert replay.warnings() == []
    final_cash = [t["state"]["cash"] for t in turns if t["step"] == 11]
    assert [r.score for r in end.result().values()] == final_cash
    replay.go(7)
    assert replay.game().day == 8  # type: ignore[union-attr]
    replay.back(6)
    assert replay.game().day == 2  # type: ignore[union-attr]
    assert [t.seat for t in replay.current_turns()] == ["a", "b"]
    assert replay.cycle_view() == "a"
    assert [t.seat for t in replay.current_turns()] == ["a"]
    assert "b:price" not in render_plain(replay.render())
    assert replay.cycle_view() == "b"
    assert replay.cycle_view() is None


def test_safe_text_shows_markup_and_escapes_literally() -> None:
    text = safe_text(HOSTILE)
    assert text.spans == []
    assert text.plain.startswith("[@click=app.quit]x[/] ^[[2J")
    assert "\x1b" not in text.plain and "\u202e" not in text.plain and "<U+202E>" in text.plain
    from rich.text import Text

    wrapped = SafeRenderable(Text.from_markup("[link=http://evil]go[/link] [@click=app.quit]q[/]\x1b[2J"))
    out = render_plain(wrapped)
    assert "go q" in out and "\x1b" not in out


@dataclass
class _Entry:
    spec: str
    available: bool
    reason: str


def test_home_draft_checks_seed_options_and_seats() -> None:
    definition = get_game("lemonade")
    catalog = ModelCatalog(entries=[_Entry("openai:gpt-x", False, "OPENAI_API_KEY is not set")], loaded=True)
    choices = seat_options(definition, catalog, ["test:extra"])
    assert {c.kind for c in choices} == {"baseline", "human", "model", "extra"}
    draft = MatchDraft(definition, seed="x", seats={"a": "openai:gpt-x", "b": "human"}, seed_given=True)
    draft.options["days"] = "0"
    errors = draft.errors(choices)
    assert "seed" in errors and "days" in errors
    assert errors["seat:a"] == "openai:gpt-x is unavailable: OPENAI_API_KEY is not set"
    draft.seed, draft.options["days"], draft.options["stands"] = "4", "5", "3"
    assert draft.seat_names() == ("a", "b", "c")
    draft.seats = {"a": "baseline:weather", "b": "human", "c": "baseline:random"}
    assert draft.errors(choices) == {}
    config = draft.config()
    assert config.seed == 4 and config.options["stands"] == 3 and config.seats["b"] == "human"


def test_home_draft_refuses_a_seed_sqlite_cannot_store() -> None:
    draft = MatchDraft(get_game("bargain"), seed="99999999999999999999999")
    assert "signed 64-bit" in draft.errors([])["seed"]
    draft.seed = str(2**63 - 1)
    assert "seed" not in draft.errors([])


def test_reflow_joins_hard_wrapped_lines() -> None:
    # an indented line right under a bullet continues it (the bargain rules' "binding:" bullet)
    assert reflow("one\ntwo\n- item\n  more\n\nnext:") == "one two\n- item more\n\nnext:"


async def test_episode_filter(tmp_path: Path) -> None:
    db = tmp_path / "f.db"
    episode_id = await record_episode(db, days=2)
    store = Store(db)
    rows = EpisodeFilter(game="lemonade", status="finished", player="weather").query(store)
    assert [row["id"] for row in rows] == [episode_id]
    assert EpisodeFilter(status="aborted").query(store) == []
    assert episode_cells(rows[0])[3] == "finished"
    store.close()


def test_history_cells_end_with_an_ellipsis_where_their_column_cuts_them() -> None:
    action_text = "price 3.00, make 60, promo discount and more words"
    row = HistoryRow(0, 0, "a", action_text, "why " * 40, "FALLBACK (truncated reply)")
    cells = history_cells(row)
    action, reason, flags = cells[2].plain, cells[3].plain, cells[4].plain
    assert len(action) == HISTORY_WIDTHS["action"] and action.endswith("…")
    assert len(reason) == HISTORY_WIDTHS["reason"] and reason.endswith("…")
    assert flags == "FALLBACK (truncated reply)", "the flags column is wide enough for a fallback's cause"


async def test_replay_results_show_a_deals_episode_wide_values_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "r.db")
    try:
        config = MatchConfig(
            game="bargain", seats={"seller": "baseline:honest", "buyer": "baseline:bluffing"}
        )
        outcome = await play_match(config, store)
        assert outcome.episode_id is not None
        episode = store.episode(outcome.episode_id)
        assert episode is not None
        seats, turns = store.seats(outcome.episode_id), stored_turns(store, outcome.episode_id)
        data = ReplayData(episode, seats, turns, get_game("bargain"))
    finally:
        store.close()
    data.go(data.total)
    shown_seats, rows = data.result_rows()
    by_name = {row[0]: row[1:] for row in rows}
    assert shown_seats == ["seller", "buyer"]
    assert by_name["price (episode)"][1] == "" and by_name["surplus (episode)"][1] == ""
    assert "price" not in by_name, "shown once, not once per seat"
    assert by_name["gain"][0] != by_name["gain"][1], "each seat's own values stay per seat"
