"""The paperclip game end to end: baselines, both modes, humans, the CLI, export and a model seat."""

from __future__ import annotations

import asyncio
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from arena.cli.main import main
from arena.engine.action_form import ActionForm
from arena.engine.match import MatchConfig, play_match
from arena.engine.runner import decision_request
from arena.plugins.games import get_game
from arena.store.database import Store
from games.paperclip import PaperclipState
from games.paperclip.answers import format_report
from games.paperclip.baselines import OraclePlayer, SloppyPlayer
from players.console_human import ConsoleHuman
from players.models import ModelsConfig
from tests.support.episodes import stored_turns
from tests.support.gamekit import new_paperclip, replay_stored
from tests.support.modelkit import CANARY_KEY, KEY_ENV, settings_for
from tests.support.wire_server import WireServer, reply


def render_text(game: PaperclipState, viewer: str | None = None) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=200, color_system=None).print(game.definition.view.render(game, viewer))
    return buffer.getvalue()


async def play(store: Store, players: dict[str, str], seed: int, **options: Any) -> int:
    outcome = await play_match(MatchConfig("paperclip", players, seed=seed, options=options), store)
    assert outcome.status == "finished" and outcome.episode_id is not None
    return outcome.episode_id


@pytest.mark.parametrize("mode", ["batch", "stepwise"])
@pytest.mark.parametrize("reporting", ["full", "touched"])
async def test_oracle_scores_one_and_sloppy_shows_its_tags(store: Store, mode: str, reporting: str) -> None:
    seats = {"a": "baseline:oracle", "b": "baseline:sloppy", "c": "baseline:random"}
    episode = await play(store, seats, 7, puzzles=12, mode=mode, reporting=reporting, seats=3)
    rows = {row["seat"]: row for row in store.seats(episode)}
    oracle, sloppy, rand = rows["a"]["metrics"], rows["b"]["metrics"], rows["c"]["metrics"]
    assert rows["a"]["score"] == 1.0 and oracle["full"] == 12 and oracle["tags"] == {}
    assert oracle["breaking_point"] is None and oracle["accuracy_by_tier"] == dict.fromkeys(
        ("entry", "medium", "hard"), 1.0
    )
    assert rows["b"]["score"] < 1.0 and sloppy["first_error"]
    assert {"count_drift", "paint_changed_count"} <= set(sloppy["tags"])
    if reporting == "full":
        assert {"colour_lost", "focus_loss"} <= set(sloppy["tags"])
    assert rows["c"]["score"] < 0.5 and rand["wrong"] >= 8
    assert replay_stored(store, episode, "paperclip") > 0  # every stored state rebuilds


def test_the_sloppy_rate_comes_from_its_own_seeded_generator() -> None:
    game = new_paperclip(3, puzzles=8, tier="hard", dimensions="partial")

    def answers(seed: int) -> list[Any]:
        player, out = SloppyPlayer(random.Random(seed)), []
        for index in range(len(game.puzzles)):
            game.index = index
            out.append(asyncio.run(player.decide(decision_request(game, "a", index))).action)
        return out

    assert answers(1) == answers(1) != answers(2)


def test_render_shows_boxes_the_step_and_the_graded_side_by_side() -> None:
    game = new_paperclip(11, puzzles=2, mode="stepwise")
    assert "Answering step 1" in render_text(game) and "▶ 1" in render_text(game)
    first = game.puzzle
    while game.index == 0:
        actions = {}
        for seat, player in (("a", OraclePlayer(random.Random(0))), ("b", SloppyPlayer(random.Random(0)))):
            decision = asyncio.run(player.decide(decision_request(game, seat, 0)))
            actions[seat] = game.action_model(seat).model_validate(decision.action)
        wrong = dict(actions["b"].model_dump())
        wrong["boxes"] = {box: {"gold": 99} for box in first.boxes}
        actions["b"] = game.action_model("b").model_validate(wrong)
        game.apply(actions)
    full = render_text(game)
    assert "Puzzle 1 graded" in full and "seat a" in full and "seat b" in full
    assert "◀ first error" in full and "phantom_colour" in full and "✓" in full
    assert first.operations[0].text in full and "99 gold" in full
    own = render_text(game, "a")
    assert "seat b" not in own and "99 gold" not in own
    assert "truth after it" not in own  # a seat never sees the truth of the puzzle it is answering


def test_a_human_fills_the_form_in_compact_text() -> None:
    game = new_paperclip(5, puzzles=1, tier="entry")
    puzzle = game.puzzle
    form = ActionForm(decision_request(game, "a", 0))
    assert [f.name for f in form.fields][-3:] == ["total", "colour_count", "reason"]
    for k in range(1, puzzle.steps + 1):
        assert form.set_entry(f"step_{k}", format_report(puzzle.states[k - 1])) is None
    form.set_entry("total", str(puzzle.answer[0]))
    form.set_entry("colour_count", str(puzzle.answer[1]))
    form.set_entry("step_1", "E: red 3")
    outcome = form.submit()
    assert (
        not outcome.ok
        and "step_1" in outcome.field_errors
        and "unknown box" in outcome.field_errors["step_1"]
    )
    form.set_entry("step_1", format_report(puzzle.states[0]).lower())
    form.set_entry("step_2", "")
    outcome = form.submit()
    # the game refuses a blank step, so the form says the field is required, beside it
    assert not outcome.ok and outcome.field_errors["step_2"] == "step 2 is required"
    assert form.field("step_2") is not None and form.hint(form.fields[1], note=False) == "required text"
    form.set_entry("step_2", format_report(puzzle.states[1]))
    outcome = form.submit()
    assert outcome.ok and outcome.action is not None
    game.apply({"a": outcome.action, "b": game.fallback("b")})
    assert game.grades["a"][0].grade == "full" and game.grades["b"][0].grade == "invalid"


def test_a_new_puzzle_starts_with_blank_answers() -> None:
    game = new_paperclip(5, puzzles=2, tier="entry")
    entries = {"total": "8", "colour_count": "8", "step_1": "A: red 1"}
    form = ActionForm(decision_request(game, "a", 0), entries)
    assert form.entries["total"] == "" and form.entries["colour_count"] == ""


def test_a_human_plays_stepwise_at_the_console() -> None:
    game = new_paperclip(8, puzzles=1, tier="entry", mode="stepwise", seats=1)
    puzzle = game.puzzle
    lines: list[str] = []
    for k in range(1, puzzle.steps + 1):
        report = format_report(puzzle.states[k - 1])
        if k == 1:
            lines += ["A: lots", report, ""]  # a bad entry is explained and that field asked again
        elif k == puzzle.steps:
            lines += [report, str(puzzle.answer[0]), str(puzzle.answer[1]), "done"]
        else:
            lines += [report, ""]
    feed = iter(lines)
    said: list[str] = []

    def read(prompt: str) -> str:
        line = next(feed, None)
        if line is None:
            raise EOFError
        return line

    human = ConsoleHuman(reader=read, writer=said.append)
    while not game.over():
        decision = asyncio.run(human.decide(decision_request(game, "a", 0)))
        assert decision.action is not None and not isinstance(decision.action, dict)
        game.apply({"a": decision.action})
    assert game.grades["a"][0].grade == "full"
    assert any("cannot read 'lots'" in line for line in said)


def test_cli_plays_oracle_against_sloppy_and_exports_every_puzzle(
    capsys: pytest.CaptureFixture[str], db_path: Path
) -> None:
    argv = [
        "--db",
        str(db_path),
        "play",
        "paperclip",
        "--seat",
        "a=baseline:oracle",
        "--seat",
        "b=baseline:sloppy",
    ]
    assert main([*argv, "--seed", "4", "--option", "puzzles=6"]) == 0
    out = capsys.readouterr().out
    assert "episode 1 finished" in out and "breaking point" in out
    assert main(["--db", str(db_path), "export", "1"]) == 0
    document = json.loads(capsys.readouterr().out)
    puzzles = document["game_data"]["puzzles"]
    assert len(puzzles) == 6
    for puzzle in puzzles:
        assert {"initial", "operations", "states", "question", "answer"} <= set(puzzle)
        assert len(puzzle["states"]) == len(puzzle["operations"])
        assert all({"op", "text", "text_zh"} <= set(op) for op in puzzle["operations"])
        for seat in ("a", "b"):
            result = puzzle["seats"][seat]
            assert {"reported_states", "grade", "first_error", "tags"} <= set(result)
        assert puzzle["seats"]["a"]["grade"] == "full"
        assert puzzle["seats"]["a"]["reported_states"] == puzzle["states"]
    assert any(p["seats"]["b"]["tags"] for p in puzzles)


def test_options_are_checked_with_one_clear_line(capsys: pytest.CaptureFixture[str], db_path: Path) -> None:
    argv = ["--db", str(db_path), "play", "paperclip", "--seat", "a=baseline:oracle", "--seat", "b=human"]
    assert main([*argv, "--option", "mode=sideways"]) != 0
    assert "mode must be one of batch, stepwise" in capsys.readouterr().err
    assert get_game("paperclip").create(1, {"seats": 4}).seats == ("a", "b", "c", "d")


def right_answer(seed: int, options: dict[str, Any]) -> dict[str, Any]:
    puzzle = new_paperclip(seed, **options).puzzle
    steps = {f"step_{k}": state for k, state in enumerate(puzzle.states, start=1)}
    total, colour = puzzle.answer
    return {**steps, "total": total, "colour_count": colour, "reason": "tracked each step"}


@pytest.mark.parametrize("provider", ["openai-chat", "anthropic"])
async def test_a_model_seat_answers_a_puzzle_through_the_wire_server(
    provider: str, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, CANARY_KEY)
    options: dict[str, Any] = {"puzzles": 2, "tier": "entry"}
    with WireServer() as wire:
        # Puzzle 1 as JSON objects; puzzle 2 first without step 2 (re-asked), then in compact text.
        game = new_paperclip(9, **options)
        game.index = 1  # the second puzzle
        second: dict[str, Any] = {
            f"step_{k}": format_report(state) for k, state in enumerate(game.puzzle.states, start=1)
        }
        second |= {"total": game.puzzle.answer[0], "colour_count": game.puzzle.answer[1]}
        wire.script(reply(right_answer(9, options)), reply({**second, "step_2": None}), reply(second))
        models = ModelsConfig(models={"m": settings_for(provider, wire)})
        config = MatchConfig("paperclip", {"a": "m", "b": "baseline:oracle"}, seed=9, options=options)
        outcome = await play_match(config, store, models_config=models)
        body = json.dumps(wire.posts()[0].body)
    assert outcome.status == "finished" and outcome.episode_id is not None
    assert "step_1" in body and "colour_count" in body  # the schema went out with the request
    assert outcome.results["a"].score == 1.0 and outcome.results["a"].metrics["full"] == 2
    turns = [t for t in stored_turns(store, outcome.episode_id) if t["seat"] == "a"]
    assert [t["valid"] for t in turns] == [1, 0] and turns[1]["error"] == "illegal"
    assert "step_2 is missing" in turns[1]["error_detail"]
    assert turns[0]["prompt"].startswith("You are tracking paperclips")
