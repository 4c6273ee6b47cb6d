"""What the adapter reads off an OpenSpiel ``GameType``, as plain data.

The curated games' facts are kept as a snapshot for the library version they were read from
(:data:`SNAPSHOT_VERSION`), so ``arena games`` lists them without importing the library; with
any other installed version the facts are read from the library itself. A test holds the
snapshot to the installed library.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameTypeFacts:
    """One game's type: its names, its parameters with their defaults, players, turns and information."""

    short_name: str
    long_name: str
    parameters: dict[str, Any]
    """The library's parameter specification: each parameter's default (its type is the default's)."""
    min_players: int
    max_players: int
    sequential: bool
    """Turns one player at a time (else simultaneous moves)."""
    perfect: bool
    """Perfect information (every move and chance outcome is public)."""
    chance: bool


def read_game_type(game_type: Any) -> GameTypeFacts:
    """The facts of a live ``pyspiel.GameType``."""
    from games.openspiel_catalogue import library

    kinds = library.spiel().GameType
    return GameTypeFacts(
        short_name=game_type.short_name,
        long_name=game_type.long_name,
        parameters=dict(sorted(game_type.parameter_specification.items())),
        min_players=game_type.min_num_players,
        max_players=game_type.max_num_players,
        sequential=game_type.dynamics == kinds.Dynamics.SEQUENTIAL,
        perfect=game_type.information == kinds.Information.PERFECT_INFORMATION,
        chance=game_type.chance_mode != kinds.ChanceMode.DETERMINISTIC,
    )


SNAPSHOT_VERSION = "2.0.2"
"""The open-spiel version :data:`SNAPSHOT` was read from."""

SNAPSHOT: dict[str, GameTypeFacts] = {
    facts.short_name: facts
    for facts in (
        GameTypeFacts(
            "liars_dice",
            "Liars Dice",
            {"bidding_rule": "reset-face", "dice_sides": 6, "numdice": 1, "players": 2},
            2,
            2,
            sequential=True,
            perfect=False,
            chance=True,
        ),
        GameTypeFacts(
            "kuhn_poker", "Kuhn Poker", {"players": 2}, 2, 10, sequential=True, perfect=False, chance=True
        ),
        GameTypeFacts(
            "leduc_poker",
            "Leduc Poker",
            {"action_mapping": False, "players": 2, "starting_player": 0, "suit_isomorphism": False},
            2,
            10,
            sequential=True,
            perfect=False,
            chance=True,
        ),
        GameTypeFacts(
            "goofspiel",
            "Goofspiel",
            {
                "egocentric": False,
                "imp_info": False,
                "num_cards": 13,
                "num_turns": -1,
                "players": 2,
                "points_order": "random",
                "returns_type": "win_loss",
            },
            2,
            10,
            sequential=False,
            perfect=True,
            chance=True,
        ),
        GameTypeFacts("tic_tac_toe", "Tic Tac Toe", {}, 2, 2, sequential=True, perfect=True, chance=False),
        GameTypeFacts(
            "connect_four",
            "Connect Four",
            {"columns": 7, "egocentric_obs_tensor": False, "rows": 6, "x_in_row": 4},
            2,
            2,
            sequential=True,
            perfect=True,
            chance=False,
        ),
        GameTypeFacts(
            "chess", "Chess", {"chess960": False}, 2, 2, sequential=True, perfect=True, chance=False
        ),
        GameTypeFacts(
            "first_sealed_auction",
            "First-Price Sealed-Bid Auction",
            {"max_value": 10, "players": 2},
            2,
            10,
            sequential=True,
            perfect=False,
            chance=True,
        ),
        GameTypeFacts(
            "bargaining",
            "Bargaining",
            {
                "discount": 1.0,
                "instances_file": "",
                "max_num_instances": 1000,
                "max_turns": 10,
                "prob_end": 0.0,
            },
            2,
            2,
            sequential=True,
            perfect=False,
            chance=True,
        ),
        GameTypeFacts(
            "hex",
            "Hex",
            {
                "board_size": 11,
                "num_cols": 11,
                "num_rows": 11,
                "plain_obs_tensor": False,
                "string_rep": "standard",
                "swap": False,
            },
            2,
            2,
            sequential=True,
            perfect=True,
            chance=False,
        ),
    )
}
"""The curated games' facts as open-spiel :data:`SNAPSHOT_VERSION` gives them."""
