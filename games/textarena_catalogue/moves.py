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
import re
from collections.abc import Callable
from typing import Any

_BRACKETED = re.compile(r"\[[^\[\]\n]+\]")

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


def wild_tic_tac_toe(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Either mark in every empty cell (``[X 4]``, ``[O 4]``)."""
    cells = _empty_cells(state["board"])
    return [f"[{mark} {cell[1:-1]}]" for mark in ("X", "O") for cell in cells]


def ultimate_tic_tac_toe(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Every empty square of the mini-board the last move sends the player to, else of any open one
    (``[7 8]``)."""
    boards, macro = state["board"], state["macro_board"]

    def open_squares(b: int) -> list[str]:
        if macro[b // 3][b % 3] != " ":
            return []
        return [f"[{b} {r * 3 + c}]" for r in range(3) for c in range(3) if boards[b][r][c] == " "]

    forced = state["next_micro_board"]
    if forced is not None and open_squares(forced):
        return open_squares(forced)
    return [move for b in range(9) for move in open_squares(b)]


def quantum_tic_tac_toe(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """A spooky mark in two different squares that have not collapsed (``[0,4]``)."""
    free = [r * 3 + c for r in range(3) for c in range(3) if not state["board"][r][c]]
    return [f"[{a},{b}]" for a, b in itertools.combinations(free, 2)]


def cards_in_hand(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """The position of each card in the hand (``[play 2]``: Briscola, German whist)."""
    return [f"[play {i}]" for i in range(1, len(state["players"][player]["hand"]) + 1)]


def chopsticks(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Attacks of a live hand on a live hand (``[attack 0 1]``); splits are not listed (type them)."""
    own, other = state["hands"][player], state["hands"][1 - player]
    return [f"[attack {m} {o}]" for m in (0, 1) for o in (0, 1) if own[m] and other[o]]


def memory_game(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Any two different cards not matched yet (``[0 1 1 0]``)."""
    board, matched = state["board"], state["matched_positions"]
    cells = [(r, c) for r in range(len(board)) for c in range(len(board[0])) if (r, c) not in matched]
    return [f"[{a[0]} {a[1]} {b[0]} {b[1]}]" for a, b in itertools.combinations(cells, 2)]


def matching_pennies(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Heads or tails."""
    return ["[heads]", "[tails]"]


def rock_paper_scissors(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Rock, paper or scissors."""
    return ["[rock]", "[paper]", "[scissors]"]


def two_thirds_average(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """A whole number from 0 to 100 (``[33]``; the environment takes decimals too)."""
    return [f"[{n}]" for n in range(101)]


def ultimatum(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """The proposer offers any whole amount of the pool (``[Offer: $3]``); the responder accepts or
    rejects."""
    if state["phase"] == "offering":
        return [f"[Offer: ${x}]" for x in range(int(state["pool"]) + 1)]
    return ["[Accept]", "[Reject]"]


PUBLIC_LINES = ("{I will stay out if you enter.}", "{Let us both be careful.}", "{I plan to go in.}")


def market_entry(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """A public message in a conversation turn (any ``{text}``), else enter or stay out."""
    if state["phase"] == "conversation":
        return list(PUBLIC_LINES)
    return ["[E]", "[S]"]


def public_goods(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """A public message in a conversation turn (any ``{text}``), else a contribution 0 .. endowment."""
    if state["phase"] == "conversation":
        return list(PUBLIC_LINES)
    return [f"[{n}]" for n in range(int(state["endowment"]) + 1)]


def three_player_ipd(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """A chat line in a conversation turn, else one choice per opponent (``[1 defect] [2 cooperate]``)."""
    if state["phase"] == "conversation":
        return list(CHAT_LINES)
    others = [p for p in range(3) if p != player]
    return [
        " ".join(f"[{p} {choice}]" for p, choice in zip(others, choices, strict=True))
        for choices in itertools.product(("cooperate", "defect"), repeat=len(others))
    ]


def directions(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """One of four directions (``[up]``)."""
    return ["[up]", "[down]", "[left]", "[right]"]


def directions_title(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """One of four directions, as 2048 writes them (``[Up]``)."""
    return ["[Up]", "[Down]", "[Left]", "[Right]"]


def blackjack(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Hit or stand."""
    return ["[Hit]", "[Stand]"]


def secretary(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Accept the value shown or see the next one."""
    return ["[accept]", "[continue]"]


def three_cups(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """One of the three cups."""
    return ["[0]", "[1]", "[2]"]


def guess_the_number(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Every number in the environment's range (``[7]``)."""
    return [f"[{n}]" for n in range(env.min_number, env.max_number + 1)]


def bandit(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """One of the buttons (``[red]``)."""
    return [f"[{button}]" for button in env.buttons]


def tower_of_hanoi(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """A top disk onto an empty tower or a larger disk (``[A C]``)."""
    towers = state["towers"]
    return [
        f"[{a} {b}]"
        for a, b in itertools.permutations(sorted(towers), 2)
        if towers[a] and (not towers[b] or towers[b][-1] > towers[a][-1])
    ]


def lights_out(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Any light (``[2 3]``)."""
    grid = state["grid"]
    return [f"[{r} {c}]" for r in range(len(grid)) for c in range(len(grid[0]))]


def minesweeper(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Any cell not revealed yet (``[3 2]``)."""
    revealed = state["revealed"]
    return [f"[{r} {c}]" for r in range(len(revealed)) for c in range(len(revealed[0])) if not revealed[r][c]]


def breakthrough(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Every step of an own pawn the environment's own rule allows (``[a2a3]``)."""
    size = len(state["board"])
    ahead = 1 if player == 0 else -1
    moves = []
    for r, c in itertools.product(range(size), range(size)):
        for dc in (-1, 0, 1):
            tr, tc = r + ahead, c + dc
            if 0 <= tr < size and 0 <= tc < size and env._is_valid_move(player, r, c, tr, tc):
                moves.append(f"[{chr(97 + c)}{r + 1}{chr(97 + tc)}{tr + 1}]")
    return moves


def alquerque(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """A forward step to an empty point, or a jump over an opponent to an empty point (``[7 12]``:
    TextArena takes point numbers as well as ``a2``-style squares)."""
    board, size = state["board"], len(state["board"])
    own, other = ("R", "B") if player == 0 else ("B", "R")
    moves = []
    for r, c in itertools.product(range(size), range(size)):
        if board[r][c] != own:
            continue
        for dr, dc in env.forward_dirs[player]:
            if 0 <= r + dr < size and 0 <= c + dc < size and board[r + dr][c + dc] == "":
                moves.append(f"[{r * size + c} {(r + dr) * size + c + dc}]")
        for dr, dc in env.neighbours:
            tr, tc = r + 2 * dr, c + 2 * dc
            if 0 <= tr < size and 0 <= tc < size and board[tr][tc] == "" and board[r + dr][c + dc] == other:
                moves.append(f"[{r * size + c} {tr * size + tc}]")
    return moves


def lines_of_action(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Every move of an own piece as far as the pieces on its line, not over an opponent, not onto an
    own piece (``[b1b3]``)."""
    board, size = state["board"], len(state["board"])
    own, other = ("O", "X") if player == 0 else ("X", "O")
    moves = []
    for r, c in itertools.product(range(size), range(size)):
        if board[r][c] != own:
            continue
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            n = env._count_pieces_on_line(r, c, dr, dc)
            tr, tc = r + dr * n, c + dc * n
            if not (0 <= tr < size and 0 <= tc < size) or board[tr][tc] == own:
                continue
            if any(board[r + dr * k][c + dc * k] == other for k in range(1, n)):
                continue
            moves.append(f"[{env.rc_to_coord(r, c)}{env.rc_to_coord(tr, tc)}]")
    return moves


def santorini(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """The moves the environment's own generator gives the player (``[N1C1C2B2]``)."""
    return list(dict.fromkeys(_BRACKETED.findall(env._get_valid_moves(player))))


def peg_jump(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Every jump of a peg over a peg into an empty hole (``[4 1]``)."""
    board = state["board"]
    return [f"[{f} {t}]" for f, o, t in env.ALLOWED_MOVES if board[f] and board[o] and not board[t]]


def rush_hour(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Every car that can slide forward (``[A+]``) or back (``[A-]``), by the environment's own check."""
    vehicles = state["vehicles"]
    return [
        f"[{vid}{'+' if forward else '-'}]"
        for vid, vehicle in sorted(vehicles.items())
        for forward in (True, False)
        if env._can_move(vehicles, vehicle, forward)
    ]


def slitherlink(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Every edge of the grid, to toggle (``[h 0 1]``, ``[v 2 0]``)."""
    return [f"[h {r} {c}]" for r in range(env.R + 1) for c in range(env.C)] + [
        f"[v {r} {c}]" for r in range(env.R) for c in range(env.C + 1)
    ]


def mastermind(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Every code the environment takes (``[2 1 4 5]``): repeated numbers only where it allows them,
    and no code guessed before."""
    numbers, length = range(1, int(state["num_numbers"]) + 1), int(state["code_length"])
    codes = (
        itertools.product(numbers, repeat=length)
        if state["duplicate_numbers"]
        else itertools.permutations(numbers, length)
    )
    guessed = {tuple(entry["guess"]) for entry in state["history"]}
    return ["[" + " ".join(map(str, code)) + "]" for code in codes if code not in guessed]


def indian_poker(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Check or call, fold, and bets or raises of 1, 5 and 10 chips and all in (the environment filters)."""
    chips = int(state["player_chips"][player])
    amounts = sorted({a for a in (1, 5, 10, chips) if a > 0})
    return ["[check]", "[call]", "[fold]"] + [f"[{verb} {a}]" for verb in ("bet", "raise") for a in amounts]


def golf(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Draw or take, then swap into any position or discard, knock, peek (the environment filters)."""
    positions = [f"{r} {c}" for r in range(env.num_cards // env.num_columns) for c in range(env.num_columns)]
    return ["[draw]", "[take]", "[discard]", "[knock]"] + [
        f"[{verb} {at}]" for verb in ("swap", "peek") for at in positions
    ]


def set_cards(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Any three different cards on the board, by position from 1 (``[1, 5, 9]``); a triple that is
    no set is accepted and scores nothing."""
    return [f"[{a}, {b}, {c}]" for a, b, c in itertools.combinations(range(1, len(state["board"]) + 1), 3)]


def logic_puzzle(state: dict[str, Any], player: int, env: Any) -> list[str]:
    """Every cell marked X or O that the environment's own checks take: in its grid (it compares the
    names in lower case) and not marked so already (``[park alice X]``). Wrong marks are accepted
    (the reward counts the right ones), so the list gives nothing away."""
    moves = []
    for grid in env.game_board.values():
        for name, items in grid.items():
            for item in items:
                row, col = str(name).lower(), str(item).lower()
                if not (row.isalpha() and col.isalpha() and env._is_within_bounds(row, col)):
                    continue
                moves += [f"[{row} {col} {m}]" for m in ("X", "O") if not env._is_repeated_mark(row, col, m)]
    return list(dict.fromkeys(moves))


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
    "wild_tic_tac_toe": wild_tic_tac_toe,
    "ultimate_tic_tac_toe": ultimate_tic_tac_toe,
    "quantum_tic_tac_toe": quantum_tic_tac_toe,
    "cards_in_hand": cards_in_hand,
    "chopsticks": chopsticks,
    "memory_game": memory_game,
    "matching_pennies": matching_pennies,
    "rock_paper_scissors": rock_paper_scissors,
    "two_thirds_average": two_thirds_average,
    "ultimatum": ultimatum,
    "market_entry": market_entry,
    "public_goods": public_goods,
    "three_player_ipd": three_player_ipd,
    "directions": directions,
    "directions_title": directions_title,
    "blackjack": blackjack,
    "secretary": secretary,
    "three_cups": three_cups,
    "guess_the_number": guess_the_number,
    "bandit": bandit,
    "tower_of_hanoi": tower_of_hanoi,
    "lights_out": lights_out,
    "minesweeper": minesweeper,
    "breakthrough": breakthrough,
    "alquerque": alquerque,
    "lines_of_action": lines_of_action,
    "santorini": santorini,
    "peg_jump": peg_jump,
    "rush_hour": rush_hour,
    "slitherlink": slitherlink,
    "mastermind": mastermind,
    "indian_poker": indian_poker,
    "golf": golf,
    "set_cards": set_cards,
    "logic_puzzle": logic_puzzle,
}
"""Each listing's ``moves`` key to its function."""


ANNOUNCED_MARKERS = (
    "Available Moves:",
    "Available moves:",
    "Valid moves:",
    "Available Actions:",
    "Your options:",
    "Your remaining hand:",
)
"""Where an environment lists the moves it takes now, in its own message to the player."""


def announced(texts: list[str]) -> list[str]:
    """The bracketed moves of the latest message (of ``texts``, oldest first) that lists moves.

    ``Available Moves: [a2 b4], [a2 c3]`` gives ``["[a2 b4]", "[a2 c3]"]``: the moves are read
    off the line after the marker, as the environment wrote them, in its order, duplicates
    dropped.
    """
    for text in reversed(texts):
        for marker in ANNOUNCED_MARKERS:
            at = text.rfind(marker)
            if at >= 0:
                line = text[at + len(marker) :].split("\n", 1)[0]
                return list(dict.fromkeys(_BRACKETED.findall(line)))
    return []


def listed_moves(listing: Any, episode: Any, player: int) -> list[str]:
    """The moves ``listing`` lists for ``player`` in ``episode`` now (empty for a free-move game)."""
    if listing.moves is None:
        return []
    if listing.moves == "announced":
        return announced([m.text for m in episode.histories[player] if m.sender == "GAME"])
    return MOVES[listing.moves](episode.game_state(), player, episode.base)
