"""One check over the whole TextArena catalogue: every offered game plays, the same every time.

``offered.json`` (written by ``bench/textarena_catalogue.py --write``: 3 seeds, 200 steps) is the
listing; here every offered game is checked again, cheaply (2 seeds, 12 steps each), with the same
function: its ``random`` baseline (listed moves, or the documented example moves where moves are
not listed) plays it, TextArena refuses none of the listed moves, and each seed's episode is the
same twice alone and interleaved with the other seed's. Then the race and free-move guarantees.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from arena.plugins.games import get_game
from arena.store.database import Store
from arena.tournament.config import TournamentConfig
from arena.tournament.run import run_tournament
from arena.tournament.standings import tournament_table
from games.textarena_catalogue.check import check_candidate
from games.textarena_catalogue.listing import CANDIDATES, LISTED, OFFERED_FILE, UNAVAILABLE
from games.textarena_catalogue.observation import TextArenaAction
from tests.support.optional import needs

pytestmark = needs("textarena")

SEEDS = (0, 1)
CAP = 12


def test_the_listing_is_what_the_check_passed() -> None:
    data = json.loads(OFFERED_FILE.read_text(encoding="utf-8"))
    assert list(LISTED) == data["offered"]
    # every candidate is either offered or given its reason, never both
    assert set(CANDIDATES) == set(data["offered"]) | set(data["not_offered"])
    assert not set(data["offered"]) & set(data["not_offered"])
    for env_id in data["offered"]:
        check = data["checks"][env_id]
        assert check["alone_twice"] and check["side_by_side"] and check["refused_listed"] == 0
    for env_id, reason in data["not_offered"].items():
        assert UNAVAILABLE[env_id] == reason


def test_the_catalogue_offers_most_of_textarena() -> None:
    versus = [e for e in LISTED.values() if not e.race]
    races = [e for e in LISTED.values() if e.race]
    assert len(versus) >= 45 and len(races) >= 18


@pytest.mark.parametrize("env_id", list(LISTED))
def test_every_offered_game_plays_the_same_alone_and_side_by_side(env_id: str) -> None:
    result = check_candidate(LISTED[env_id], SEEDS, CAP)
    assert result.error is None, result.error
    assert result.refused_listed == 0
    assert result.alone_twice and result.side_by_side
    assert all(steps > 0 for steps in result.steps.values())


def test_racers_get_the_same_puzzle_and_the_reward_then_fewer_steps_decide() -> None:
    game = get_game("textarena:TowerOfHanoi-v0")
    state = game.create(4, {"players": 2})
    first = {seat: state.observation(seat).messages for seat in state.seats}
    assert first["p0"] == first["p1"]  # the same seeded puzzle
    assert state.pending() == ["p0", "p1"]  # turn for turn, both at once
    rng = random.Random(0)
    solution = ["[A C]", "[A B]", "[C B]", "[A C]", "[B A]", "[B C]", "[A C]"]
    for move in solution:  # p0 solves it in 7; p1 wanders, then solves it
        actions = {"p0": TextArenaAction(move=move)} if "p0" in state.pending() else {}
        if "p1" in state.pending():
            actions["p1"] = state.sample_action("p1", rng)
        state.apply(actions)
    assert "p0" not in state.pending()
    while not state.over():
        state.apply({"p1": state.sample_action("p1", rng)})
    result = state.result()
    assert result["p0"].metrics["steps"] == 7
    assert result["p0"].metrics["reward"] == 1.0
    p1 = result["p1"].metrics
    assert result["p1"].score == pytest.approx(p1["reward"] - p1["steps"] * 1e-6)
    assert result["p0"].score > result["p1"].score
    # the race is its seed and moves: rebuilt, it is the same
    rebuilt = type(state).rebuild(game, json.loads(json.dumps(state.to_json())), reuse=False)
    assert rebuilt.to_json() == state.to_json() and rebuilt.returns() == state.returns()


def test_a_free_move_game_lists_none_and_the_environment_s_rule_decides() -> None:
    game = get_game("textarena:Tak-v0")
    assert "Free moves" in game.description
    state = game.create(2)
    seat = state.pending()[0]
    observation = state.observation(seat)
    assert observation.moves == [] and observation.examples == list(LISTED["Tak-v0"].examples)
    assert state.fallback(seat).move == observation.examples[0]
    assert "Moves: not listed" in game.view.render(state, seat)
    bad = TextArenaAction(move="[move (9,9) {(9,8): [F0]}]")  # off the 4x4 board: TextArena refuses it
    assert state.validate(seat, bad) is not None
    refusals = 0
    while not state.over():  # TextArena re-asks the same player, then ends the game against it
        assert state.pending() == [seat]
        state.apply({seat: bad})
        refusals += 1
    assert refusals == 2
    assert state.result()[seat].metrics["lost_on_invalid_move"] is True


def test_the_listing_says_seats_and_whether_moves_are_listed() -> None:
    assert "2 seats. Moves listed" in get_game("textarena:Othello-v0").description
    assert "2 to 4 seats. Moves listed" in get_game("textarena:Snake-v0").description
    assert "raced by 2 to 4 seats" in get_game("textarena:Sudoku-v0").description
    assert "Free moves" in get_game("textarena:Sudoku-v0").description


def test_what_the_library_prints_stays_out_of_the_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    state = get_game("textarena:SettlersOfCatan-v0").create(0)  # its reset prints the board's corners
    state.apply({seat: state.sample_action(seat, random.Random(0)) for seat in state.pending()})
    assert capsys.readouterr().out == ""


async def test_a_tournament_rates_players_on_a_raced_puzzle_and_a_negotiation(tmp_path: Path) -> None:
    store = Store(tmp_path / "arena.db")
    try:
        for game in ("textarena:Blackjack-v0", "textarena:SimpleNegotiation-v0"):
            config = TournamentConfig(game=game, players=("baseline:random", "baseline:lazy"), seeds=2)
            progress = await run_tournament(store, config)
            assert progress.status == "finished" and progress.done == 4  # 2 seeds, both seatings
            table = tournament_table(store, progress.tournament_id)
            assert {row["player"] for row in table["players"]} == {"baseline:random", "baseline:lazy"}
    finally:
        store.close()
