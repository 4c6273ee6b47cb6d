"""The curated OpenSpiel games: those that play well as text, each described for people.

Each entry gives a one-line description, the rules as a seat is told them (plain words, no
strategy), words for the game's parameters (with their allowed values when the library
takes a fixed set) and Arena's move cap. Every other default-loadable game loads by name with
the library's parameters and a generic description.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Parameter:
    """Words for one of the library's parameters, and its allowed values if it takes a set."""

    description: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class Curated:
    """One curated game: what people read about it and Arena's defaults for it."""

    description: str
    rules: str
    parameters: dict[str, Parameter] = field(default_factory=dict)
    move_cap: int = 0
    """Arena's default move cap (0: none): the game stops there and each seat scores its return so far."""


PLAYERS = Parameter("number of players")

CURATED: dict[str, Curated] = {
    "liars_dice": Curated(
        "Liar's dice for two: bid on the hidden dice of both players, or call the last bid a lie.",
        "Each player rolls {numdice} hidden dice with {dice_sides} sides and sees only their own."
        " Players take turns. On your turn you either bid or call 'Liar'. A bid 'Q-F' claims that"
        " at least Q of all dice in play show face F; the highest face ({dice_sides}) is wild and"
        " counts as every face. Each bid must be higher than the last: a higher face with the same"
        " quantity, or a higher quantity (bidding_rule {bidding_rule}). 'Liar' ends the game: if the"
        " last bid is true, the caller loses, otherwise the bidder loses. The winner scores 1 and"
        " the loser -1.",
        {
            "numdice": Parameter("dice per player", minimum=1, maximum=5),
            "dice_sides": Parameter("faces on each die", minimum=2, maximum=10),
            "bidding_rule": Parameter("which bids count as higher", ("reset-face", "reset-quantity")),
            "players": PLAYERS,
        },
    ),
    "kuhn_poker": Curated(
        "Kuhn poker: one hidden card each from a deck of one more card than players, pass or bet.",
        "The deck holds one card more than there are players, ranked 0 (lowest) upwards. Each"
        " player puts 1 chip in the pot and gets one hidden card. In turn, each player passes or"
        " bets 1 chip; once anyone has bet, the others choose to bet (call) or pass (fold). When"
        " the betting ends, the highest card among the players who did not fold takes the pot."
        " Your score is the chips you won or lost.",
        {"players": PLAYERS},
    ),
    "leduc_poker": Curated(
        "Leduc poker: a six-card deck, one hidden card each, two betting rounds and one public card.",
        "The deck has two suits of three ranks. Each player puts 1 chip in the pot and gets one"
        " hidden card. There are two betting rounds; in each you may fold, call (match the bet, or"
        " check when there is none) or raise, by 2 chips in the first round and 4 in the second,"
        " at most two raises a round. A public card is shown after the first round. At the end,"
        " a player whose card pairs the public card wins the pot, otherwise the higher card wins;"
        " equal hands split it. Your score is the chips you won or lost.",
        {
            "players": PLAYERS,
            "starting_player": Parameter("who acts first in each round"),
            "action_mapping": Parameter("the library's alternative action numbering"),
            "suit_isomorphism": Parameter("treat the two suits as one (the library's option)"),
        },
    ),
    "goofspiel": Curated(
        "Goofspiel: everyone bids a card from their hand at once for each prize card.",
        "Every player holds the cards 1 to {num_cards}. Each round a prize card is turned up (in"
        " {points_order} order) and every player bids one card from their hand at the same time,"
        " without seeing the others' bids. The highest bid wins the prize's points; on a tie nobody"
        " does. Cards bid are used up. With returns_type win_loss the player with the most points"
        " scores 1 and the others -1 (0 for a tie); otherwise the score counts the points"
        " ({returns_type}).",
        {
            "num_cards": Parameter("cards per hand, and prize cards", minimum=1, maximum=13),
            "points_order": Parameter("order of the prize cards", ("random", "descending", "ascending")),
            "returns_type": Parameter(
                "what a player scores", ("win_loss", "point_difference", "total_points")
            ),
            "imp_info": Parameter("bids stay hidden: only who won each prize is shown"),
            "egocentric": Parameter("the library's player-relative observation"),
            "num_turns": Parameter("rounds played (-1: one per card)"),
            "players": PLAYERS,
        },
    ),
    "tic_tac_toe": Curated(
        "Tic-tac-toe on a 3x3 grid.",
        "Two players take turns marking an empty cell of a 3x3 grid, x first, then o. Moves are"
        " named mark(row,column), counted from 0. Three of your marks in a row, column or diagonal"
        " win: the winner scores 1 and the loser -1; a full grid without a line is a draw (0 each).",
    ),
    "connect_four": Curated(
        "Connect four: drop discs into columns, four in a line wins.",
        "Two players take turns dropping a disc into one of the columns that is not full, x first,"
        " then o; the disc falls to the lowest empty row. Moves are named by mark and column,"
        " counted from 0 (x3). Four of your discs in a row, column or diagonal win: the winner"
        " scores 1 and the loser -1; a full board is a draw (0 each).",
        {
            "rows": Parameter("board rows", minimum=4, maximum=12),
            "columns": Parameter("board columns", minimum=4, maximum=12),
            "x_in_row": Parameter("discs in a line that win", minimum=3, maximum=6),
            "egocentric_obs_tensor": Parameter("the library's tensor option (no effect on text)"),
        },
    ),
    "chess": Curated(
        "Chess, moves in standard algebraic notation (e4, Nf3, O-O), with a move cap.",
        "Standard chess. White moves first. The board is shown in FEN (Forsyth-Edwards notation)"
        " and moves are named in standard algebraic notation. A win scores 1, a loss -1 and a"
        " draw 0 each. Arena stops the game after {move_cap} moves (both sides' moves counted;"
        " 0: no cap) and a stopped game counts as a draw.",
        {"chess960": Parameter("Chess960: the back rows shuffled")},
        move_cap=200,
    ),
    "first_sealed_auction": Curated(
        "First-price sealed-bid auction: private values, one sealed bid each.",
        "Each player privately draws a value for the item from 1 to {max_value}. In turn, each"
        " player makes one sealed bid from 0 up to their value, without seeing the others' bids."
        " The highest bid wins the item and pays that bid; a tie is broken at random. The winner"
        " scores their value minus their bid; the others score 0.",
        {"max_value": Parameter("highest possible value", minimum=2, maximum=20), "players": PLAYERS},
    ),
    "bargaining": Curated(
        "Bargaining (deal or no deal): split a pool of books, hats and balls with private values.",
        "A pool holds books, hats and basketballs. Each player has private values for each kind of"
        " item and sees only their own. Players take turns: on your turn you either offer a split,"
        " 'Offer: Book: b, Hat: h, Basketball: k' naming what you take (the other player gets the"
        " rest), or 'Agree' to the other player's last offer. An agreement ends the game and each"
        " player scores the value of what they get; after {max_turns} offers without agreement"
        " both score 0.",
        {
            "max_turns": Parameter("offers before the game ends without a deal", minimum=1, maximum=30),
            "discount": Parameter("the library's discount on later agreements"),
            "prob_end": Parameter("chance the game ends after each offer"),
            "instances_file": Parameter("the library's file of deals (empty: its built-in ones)"),
            "max_num_instances": Parameter("how many of the built-in deals are drawn from"),
        },
    ),
    "hex": Curated(
        "Hex: connect your two sides of a rhombus board with an unbroken chain of stones.",
        "Two players take turns placing a stone on an empty cell of a {board_size}x{board_size}"
        " rhombus board, x first, then o. Cells are named column letter and row number (a1)."
        " x joins the top and bottom rows, o the left and right columns; the first to link their"
        " two sides with a chain of adjacent stones wins (a draw cannot happen). The winner scores 1"
        " and the loser -1.",
        {
            "board_size": Parameter("cells per side", minimum=2, maximum=13),
            "num_rows": Parameter("rows (the library's; set board_size)"),
            "num_cols": Parameter("columns (the library's; set board_size)"),
            "swap": Parameter("the swap rule (the second player may take the first stone)"),
            "string_rep": Parameter("how the library draws the board", ("standard", "explicit")),
            "plain_obs_tensor": Parameter("the library's tensor option (no effect on text)"),
        },
    ),
}
"""The curated games by OpenSpiel short name, in listing order."""
