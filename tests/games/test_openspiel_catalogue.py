"""The ``openspiel`` catalogue: curated games listed and checked, any other game by name, one-line refusals.

Real ``pyspiel`` throughout. ``check_game`` runs on every curated game with short options or a
move cap so the whole file takes seconds.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena.plugins.games import UnknownGameError, game_names, get_game
from arena.testing import check_game
from games.openspiel_catalogue.curated import CURATED
from games.openspiel_catalogue.state import OpenSpielState

CHECK_OPTIONS: dict[str, dict[str, Any]] = {
    "liars_dice": {},
    "kuhn_poker": {"players": 3},
    "leduc_poker": {},
    "goofspiel": {"num_cards": 4},
    "tic_tac_toe": {},
    "connect_four": {"rows": 4, "columns": 5},
    "chess": {"move_cap": 2},  # each MCTS move rolls out random chess games (about 0.3 s a move)
    "first_sealed_auction": {"players": 3},
    "bargaining": {"max_turns": 4},
    "hex": {"board_size": 4},
}


def test_every_curated_game_is_listed_and_checked() -> None:
    listed = [name for name in game_names() if name.startswith("openspiel:")]
    assert listed == [f"openspiel:{name}" for name in CURATED]
    assert set(CHECK_OPTIONS) == set(CURATED)


@pytest.mark.parametrize("name", sorted(CHECK_OPTIONS))
def test_check_game_passes(name: str) -> None:
    check_game(get_game(f"openspiel:{name}"), seeds=(0, 3), options=CHECK_OPTIONS[name])


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("liars_dice", {"numdice": 2}),
        ("kuhn_poker", {"players": 3}),
        ("goofspiel", {"num_cards": 4, "imp_info": True}),
    ],
)
def test_each_seat_sees_exactly_the_librarys_string_for_its_player(
    name: str, options: dict[str, Any]
) -> None:
    definition = get_game(f"openspiel:{name}")
    for seed in range(5):
        state = definition.create(seed, options)
        assert isinstance(state, OpenSpielState)
        rng = random.Random(seed)
        while not state.over():
            for player, seat in enumerate(state.seats):
                seen = state.observation(seat)
                assert seen.view == state.spiel.information_state_string(player)
                assert all(move.startswith(f"{seat} ") for move in seen.moves), "only its own moves"
            state.apply({seat: state.sample_action(seat, rng) for seat in state.pending()})


def test_perfect_information_games_show_the_observation_string_and_every_move() -> None:
    state = get_game("openspiel:connect_four").create(0)
    assert isinstance(state, OpenSpielState)
    state.apply({"p0": state.sample_action("p0", random.Random(1))})
    seen = state.observation("p1")
    assert seen.view_kind == "observation_string"
    assert seen.view == state.spiel.observation_string(1)
    assert seen.moves == [f"p0 {state.history[0][2]}"] and seen.moves_seen == "all"
    assert seen.move_ids == [state.history[0][1]]
    assert seen.legal_moves == [f"o{column}" for column in range(7)]


def test_options_are_the_librarys_parameters_typed_and_checked_by_the_library() -> None:
    definition = get_game("openspiel:liars_dice")
    state = definition.create(0, {"numdice": "2", "bidding_rule": "reset-quantity"})
    assert isinstance(state, OpenSpielState)
    assert str(state.game) == "liars_dice(bidding_rule=reset-quantity,numdice=2)"
    with pytest.raises(ValueError, match="option numdice wants a whole number, got 'two'"):
        definition.create(0, {"numdice": "two"})
    with pytest.raises(ValueError, match="unknown option 'nodice' for openspiel:liars_dice"):
        definition.create(0, {"nodice": 2})
    with pytest.raises(ValueError, match="players"):
        definition.create(0, {"players": 3})  # liar's dice is for two in open-spiel 2.0.2


def test_any_default_loadable_game_loads_by_name_with_its_parameters() -> None:
    definition = get_game("openspiel:breakthrough")
    assert definition.name == "openspiel:breakthrough"
    assert {option.name for option in definition.options} == {"rows", "columns", "move_cap"}
    assert set(definition.baselines) == {"random", "mcts"}
    check_game(definition, seeds=(0,), options={"rows": 4, "columns": 3, "move_cap": 6})


def test_a_library_error_is_one_line_without_the_librarys_own_stderr(
    capfd: pytest.CaptureFixture[str],
) -> None:
    definition = get_game("openspiel:nim")
    with pytest.raises(
        ValueError, match=r"^OpenSpiel cannot load nim with these parameters: Could not parse"
    ):
        definition.create(0, {"pile_sizes": "1;x"})
    assert "OpenSpiel exception" not in capfd.readouterr().err


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        (
            "nosuch",
            r"unknown OpenSpiel game 'nosuch' \(`arena games` lists the curated ones; the library has \d+",
        ),
        ("misere", "cannot be played here: it needs another game or a file to load"),
        ("crossword", "cannot be played here: it takes its moves as action structs only"),
    ],
)
def test_games_arena_cannot_play_are_refused_in_one_line(name: str, reason: str) -> None:
    with pytest.raises(UnknownGameError, match=reason) as caught:
        get_game(f"openspiel:{name}")
    assert "\n" not in str(caught.value)


def test_a_capped_game_stops_at_the_cap_and_scores_the_returns_so_far() -> None:
    state = get_game("openspiel:chess").create(0, {"move_cap": 3})
    rng = random.Random(0)
    while not state.over():
        state.apply({seat: state.sample_action(seat, rng) for seat in state.pending()})
    assert isinstance(state, OpenSpielState)
    assert state.steps == 3 and state.capped
    assert state.returns() == {"p0": 0.0, "p1": 0.0}
    assert state.result()["p0"].metrics == {"capped": True, "moves": 3}


def test_the_curated_snapshot_is_what_the_installed_library_says() -> None:
    from games.openspiel_catalogue import library
    from games.openspiel_catalogue.game_type import SNAPSHOT, SNAPSHOT_VERSION, read_game_type

    assert library.version() == SNAPSHOT_VERSION, "read the snapshot again for this open-spiel version"
    assert set(SNAPSHOT) == set(CURATED)
    for name, facts in SNAPSHOT.items():
        assert facts == read_game_type(library.registry()[name]), name


def test_listing_the_games_imports_neither_the_library_nor_the_state() -> None:
    import subprocess
    import sys

    code = (
        "import contextlib, io, sys\n"
        "from arena.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    main(['games', 'openspiel'])\n"
        "assert 'openspiel:liars_dice' in out.getvalue()\n"
        "internals = ('pyspiel', 'games.openspiel_catalogue.state', 'games.openspiel_catalogue.baselines')\n"
        "print(sorted(set(internals) & set(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/")
    assert done.stdout.strip() == "[]", (
        "listing needs neither the library nor the adapter's state and baselines"
    )
