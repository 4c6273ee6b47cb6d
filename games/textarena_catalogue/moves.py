"""The legal moves of each listed environment, read off its state: TextArena has no legal-move API.

Each function gets the environment's game state, the acting player's id and the environment
itself (some keep their facts as attributes, ``board_size`` and the like) and returns every
move the environment accepts from that player now, in the environment's own text format and
in a fixed order (the random baseline draws from this list with its own generator). Moves of
free-text phases (a chat turn) are a few fixed lines: any text is accepted there.
The tests play every listed environment with these moves and require that TextArena refuses none.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

MoveList = Callable[[dict[str, Any], int, Any], list[str]]
"""(game state, acting player id, the unwrapped environment) -> the legal moves."""


def _empty_cells(board: list[list[str]]) -> list[str]:
    width = len(board[0])
    return [f"[{r * width + c}]" for r, row in enumerate(board) for c, cell in enumerate(row) if cell == ""]


def tic_tac_toe(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Every empty cell (``[4]``)."""
    return _empty_cells(state["board"])


def connect_four(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Every column that is not full (``[3]``)."""
    return [f"[{c}]" for c, cell in enumerate(state["board"][0]) if cell == "."]


def nim(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Any number of objects from any pile that has some (``[1 3]``: three from pile 1)."""
    return [f"[{i} {q}]" for i, pile in enumerate(state["piles"]) for q in range(1, pile + 1)]


def kuhn_poker(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """The actions of the betting tree at this point (``[Check]``, ``[Bet]``, ``[Call]``, ``[Fold]``)."""
    return [f"[{action}]" for action in state["current_legal_action_tree"]]


def liars_dice(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """``[Call]`` once there is a bid, and every higher bid up to the number of dice in play."""
    bid = state["current_bid"]
    dice = sum(state["remaining_dice"].values())
    moves = ["[Call]"] if bid["quantity"] > 0 and state["last_bidder_id"] is not None else []
    for quantity, face in itertools.product(range(max(1, bid["quantity"]), dice + 1), range(1, 7)):
        if face >= bid["face_value"] and (quantity, face) != (bid["quantity"], bid["face_value"]):
            moves.append(f"[Bid: {quantity}, {face}]")
    return moves


def high_society(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """One of the money cards the player still holds (``[7]``)."""
    return [f"[{card}]" for card in sorted(state["player_money"][player])]


def pure_strategy(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """One of the cards the player still holds (``[Q]``)."""
    return [f"[{env._val_to_face(card)}]" for card in sorted(state["player_hands"][player])]


def pig_dice(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Roll again or bank the turn total."""
    return ["[roll]", "[hold]"]


def poker(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Fold, check when nothing is due, call, or raise by one or two big blinds."""
    moves = ["[Fold]"]
    if state["current_bet"] <= state["player_bets"][player]:
        moves.append("[Check]")
    moves.append("[Call]")
    moves += [f"[Raise {env.big_blind}]", f"[Raise {2 * env.big_blind}]"]
    return moves


def colonel_blotto(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Every split of the units over the fields (``[A:5, B:7, C:8]``)."""
    names, total = env.field_names, env.num_total_units
    moves = []
    for cuts in itertools.combinations(range(total + len(names) - 1), len(names) - 1):
        edges = (-1, *cuts, total + len(names) - 1)
        units = [edges[i + 1] - edges[i] - 1 for i in range(len(names))]
        moves.append("[" + ", ".join(f"{name}:{n}" for name, n in zip(names, units, strict=True)) + "]")
    return moves


def battleship(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Every cell of the opponent's grid not fired on yet (``[B3]``)."""
    tracking = state["tracking_board"][player]
    return [
        f"[{chr(ord('A') + r)}{c}]"
        for r, row in enumerate(tracking)
        for c, cell in enumerate(row)
        if cell == "~"
    ]


CHAT_LINES = ("I will cooperate if you do.", "I might defect.", "Let us both cooperate.")


def prisoners_dilemma(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """A chat line in a conversation turn (any text is accepted), else ``[Cooperate]`` or ``[Defect]``."""
    if state["phase"] == "conversation":
        return list(CHAT_LINES)
    return ["[Cooperate]", "[Defect]"]


MOVES: dict[str, MoveList] = {
    "tic_tac_toe": tic_tac_toe,
    "connect_four": connect_four,
    "nim": nim,
    "kuhn_poker": kuhn_poker,
    "liars_dice": liars_dice,
    "high_society": high_society,
    "pure_strategy": pure_strategy,
    "pig_dice": pig_dice,
    "poker": poker,
    "colonel_blotto": colonel_blotto,
    "battleship": battleship,
    "prisoners_dilemma": prisoners_dilemma,
}
"""Each listing's ``moves`` key to its function."""
