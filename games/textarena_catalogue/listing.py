"""What the TextArena catalogue offers, as plain data: no import of TextArena (it takes ~1.4 s).

``arena games`` reads these tables only. ``tests/games/test_textarena_listing.py`` checks them
against the installed library (every listed id is registered with these parameters, each
reason for an unavailable one is true of the library's files), so they cannot drift from it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LIBRARY = "TextArena"
LIBRARY_VERSION = "0.7.4"
"""The TextArena release the tables and move lists were written and tested against."""
ADAPTER_VERSION = 1
"""Bump with any change to how the adapter plays a listed environment."""


@dataclass(frozen=True)
class ListedEnv:
    """One environment Arena can offer: its TextArena id and what Arena needs to know about it."""

    env_id: str
    title: str
    description: str
    moves: str | None
    """How its legal moves are found: a key of :data:`games.textarena_catalogue.moves.MOVES` (read off
    the game's state), ``"announced"`` (read off the environment's own message listing them), or
    ``None``: its moves cannot be listed (free text), and the environment's invalid-move rule decides."""
    players: tuple[int, int] = (2, 2)
    """The fewest and most players it takes (TextArena keeps no such data: read off its asserts);
    for a raced puzzle, the fewest and most racers."""
    options: tuple[tuple[str, int | float | bool | str], ...] = ()
    """The constructor parameters offered as ``--option``, with their registered defaults (scalar
    ones whose every value plays); a test checks the defaults against TextArena's registry."""
    uses_numpy: bool = False
    """Whether it draws from numpy's global generator (then the isolation swaps that too)."""
    ranges: tuple[tuple[str, int, int], ...] = ()
    """(option, lowest, highest) where the environment's code breaks or never ends outside them
    (TextArena checks none): a board of 0 rows, a grid too small for the ships it places."""
    race: bool = False
    """A one-player puzzle raced: each seat plays its own copy of the same seeded puzzle."""
    examples: tuple[str, ...] = ()
    """A free-move game's example moves in its own format (the ``random`` baseline's stand-in and the
    fallback's source); the environment may refuse them, and then its invalid-move rule decides."""

    filtered: bool = False
    """Whether the listed moves are candidates the environment itself filters, each tried on a copy
    (a move it would refuse is left out: following suit, a wall in the way, a number guessed before)."""

    @property
    def listed_moves(self) -> bool:
        """Whether prompts list its moves and the ``random`` baseline plays legal ones."""
        return self.moves is not None

    @property
    def summary(self) -> str:
        """Seats and moves in a sentence, for the listing."""
        low, high = self.players
        count = str(low) if low == high else f"{low} to {high}"
        if self.race:
            seats = (
                f"A one-player puzzle raced by {count} seats, each on its own copy of the same seeded puzzle."
            )
        else:
            seats = f"{count} seats."
        if self.listed_moves:
            moves = "Moves listed (the random baseline plays legal ones)."
        else:
            moves = "Free moves: not listed; the environment's own invalid-move rule decides."
        return f"{seats} {moves}"


CANDIDATES: dict[str, ListedEnv] = {
    entry.env_id: entry
    for entry in (
        ListedEnv("TicTacToe-v0", "Tic-tac-toe", "Three in a row on a 3x3 board.", "tic_tac_toe"),
        ListedEnv(
            "ThreePlayerTicTacToe-v0",
            "Three-player tic-tac-toe",
            "Three players, a 5x5 board, four in a row wins.",
            "tic_tac_toe",
            players=(3, 3),
        ),
        ListedEnv(
            "ConnectFour-v0",
            "Connect four",
            "Drop discs into columns; four in a row wins.",
            "connect_four",
            options=(
                ("num_rows", 6),
                ("num_cols", 7),
            ),
            ranges=(("num_rows", 4, 12), ("num_cols", 4, 15)),  # its registered sizes run 6x7 to 12x15
        ),
        ListedEnv("Nim-v0", "Nim", "Take objects from piles (3, 4, 5); whoever takes the last wins.", "nim"),
        ListedEnv(
            "KuhnPoker-v0",
            "Kuhn poker",
            "Three-card poker: one card each, check, bet, call or fold, over several hands.",
            "kuhn_poker",
            options=(("max_rounds", 3),),
            ranges=(("max_rounds", 1, 50),),
        ),
        ListedEnv(
            "LiarsDice-v0-small",
            "Liar's dice",
            "Bid on the dice under everyone's cups or call the last bid a lie; lose dice when wrong.",
            "liars_dice",
            players=(2, 15),
            options=(("num_dice", 3),),
            ranges=(("num_dice", 1, 10),),
        ),
        ListedEnv(
            "HighSociety-v0",
            "High Society",
            "Sealed bids with money cards for prestige cards; spent cards are gone.",
            "high_society",
        ),
        ListedEnv(
            "GameOfPureStrategy-v0",
            "Game of pure strategy",
            "Goofspiel: play one card A-K per round for the prize card; the higher card wins it.",
            "pure_strategy",
        ),
        ListedEnv(
            "PigDice-v0",
            "Pig",
            "Roll to build a turn total or hold to bank it; a 1 loses the turn's points.",
            "pig_dice",
            options=(
                ("winning_score", 100),
                ("max_turns", 100),
            ),
            ranges=(("winning_score", 1, 1000), ("max_turns", 1, 1000)),
        ),
        ListedEnv(
            "Poker-v0",
            "Texas hold'em",
            "Heads-up no-limit hold'em over several hands.",
            "poker",
            options=(
                ("num_rounds", 10),
                ("starting_chips", 1000),
                ("small_blind", 10),
                ("big_blind", 20),
            ),
            ranges=(
                ("num_rounds", 1, 100),
                ("starting_chips", 1, 1_000_000),
                ("small_blind", 1, 1_000_000),
                ("big_blind", 1, 1_000_000),
            ),
        ),
        ListedEnv(
            "ColonelBlotto-v0",
            "Colonel Blotto",
            "Split 20 units over 3 fields each round; winning more fields wins the round.",
            "colonel_blotto",
            options=(("num_rounds", 9),),
            ranges=(("num_rounds", 1, 50),),
        ),
        ListedEnv(
            "IteratedPrisonersDilemma-v0",
            "Iterated prisoner's dilemma",
            "Talk, then cooperate or defect, round after round.",
            "prisoners_dilemma",
            options=(
                ("num_rounds", 10),
                ("communication_turns", 1),
                ("cooperate_reward", 3),
                ("defect_reward", 5),
                ("sucker_reward", 0),
                ("mutual_defect_reward", 1),
            ),
            ranges=(("num_rounds", 1, 100), ("communication_turns", 0, 10)),
        ),
        ListedEnv(
            "Battleship-v0",
            "Battleship",
            "Find and sink the other side's hidden ships on a grid.",
            "battleship",
            options=(("grid_size", 5),),
            ranges=(("grid_size", 5, 20),),  # its ships are 2-5 long; rows are lettered; registered 5-20
        ),
        # -- more two-or-more-seat games (issue 48) --
        ListedEnv(
            "WildTicTacToe-v0",
            "Wild tic-tac-toe",
            "Either player may place X or O; whoever completes a line wins.",
            "wild_tic_tac_toe",
        ),
        ListedEnv(
            "UltimateTicTacToe-v0",
            "Ultimate tic-tac-toe",
            "Nine tic-tac-toe boards; your square sends the opponent to a board.",
            "ultimate_tic_tac_toe",
        ),
        ListedEnv(
            "QuantumTicTacToe-v0",
            "Quantum tic-tac-toe",
            "Spooky marks in two squares collapse when they form a cycle.",
            "quantum_tic_tac_toe",
        ),
        ListedEnv(
            "SimpleTak-v0", "Simple Tak", "Place stones to build a road across the board.", "announced"
        ),
        ListedEnv(
            "Tak-v0",
            "Tak",
            "Place and move stacks of stones to build a road.",
            None,
            examples=("[place () {(0,0): [F0]}]",),
        ),
        ListedEnv("Othello-v0", "Othello", "Flip the opponent's discs by flanking them.", "announced"),
        ListedEnv(
            "Breakthrough-v0",
            "Breakthrough",
            "Race a pawn to the far row; pawns move straight and capture diagonally.",
            "breakthrough",
        ),
        ListedEnv(
            "Alquerque-v0",
            "Alquerque",
            "The ancestor of draughts on a 5x5 grid of lines.",
            "alquerque",
        ),
        ListedEnv(
            "Crusade-v0",
            "Crusade",
            "Knights only: convert the opponent's pieces by landing on them.",
            "announced",
        ),
        ListedEnv(
            "LinesOfAction-v0",
            "Lines of action",
            "Connect all your pieces; a piece moves as far as the pieces on its line.",
            "lines_of_action",
        ),
        ListedEnv(
            "SantoriniBaseFixed-v0",
            "Santorini",
            "Move a worker, then build; step onto a third level to win.",
            "santorini",
            players=(2, 3),
        ),
        ListedEnv("Stratego-v0", "Stratego", "Hidden ranks: capture the flag.", "announced"),
        ListedEnv(
            "Snake-v0",
            "Snake",
            "Snakes on one board: eat apples, do not crash.",
            "directions",
            players=(2, 4),
        ),
        ListedEnv(
            "Surround-v0",
            "Surround",
            "Light cycles: leave a trail, the last one moving wins.",
            "directions",
            players=(2, 4),
        ),
        ListedEnv(
            "Chopsticks-v0",
            "Chopsticks",
            "Tap the opponent's hands with yours; five fingers and a hand is out.",
            "chopsticks",
        ),
        ListedEnv("MemoryGame-v0", "Memory", "Flip two cards a turn; a pair scores.", "memory_game"),
        ListedEnv(
            "Briscola-v0",
            "Briscola",
            "Italian trick-taking with a trump suit.",
            "cards_in_hand",
            players=(2, 4),
        ),
        ListedEnv(
            "GermanWhist-v0",
            "German whist",
            "Two-player whist: win cards in the first half, tricks in the second.",
            "cards_in_hand",
            filtered=True,
        ),
        ListedEnv(
            "Golf-v0",
            "Golf (cards)",
            "Swap and flip cards for the lowest total.",
            "golf",
            players=(2, 4),
            filtered=True,
        ),
        ListedEnv(
            "SpiteAndMalice-v0",
            "Spite and malice",
            "Empty your payoff pile onto shared piles first.",
            "announced",
        ),
        ListedEnv(
            "IndianPoker-v0",
            "Indian poker",
            "Everyone sees the other's card but not their own; bet.",
            "indian_poker",
            filtered=True,
        ),
        ListedEnv(
            "ThreePlayerGOPS-v0",
            "Three-player GOPS",
            "Goofspiel for three: bid a card for each prize.",
            "announced",
            players=(3, 3),
        ),
        ListedEnv(
            "IteratedMatchingPennies-v0",
            "Iterated matching pennies",
            "One wants the coins to match, the other not.",
            "matching_pennies",
        ),
        ListedEnv(
            "IteratedRockPaperScissors-v0",
            "Iterated rock-paper-scissors",
            "Rock, paper, scissors, round after round.",
            "rock_paper_scissors",
        ),
        ListedEnv(
            "IteratedTwoThirdsAverage-v0",
            "Iterated two-thirds average",
            "Guess two thirds of the average guess.",
            "two_thirds_average",
        ),
        ListedEnv(
            "IteratedUltimatumGame-v0",
            "Iterated ultimatum game",
            "Offer a split of a pool; the other accepts or both get nothing.",
            "ultimatum",
        ),
        ListedEnv(
            "ThreePlayerIPD-v0",
            "Three-player prisoner's dilemma",
            "Talk, then cooperate or defect with each other player.",
            "three_player_ipd",
            players=(3, 3),
        ),
        ListedEnv(
            "MarketEntryGame-v0",
            "Market entry",
            "Talk, then enter a market that may be overcrowded, or stay out.",
            "market_entry",
            players=(2, 4),
        ),
        ListedEnv(
            "PublicGoodsGame-v0",
            "Public goods",
            "Talk, then contribute to a pot that is multiplied and shared.",
            "public_goods",
            players=(2, 4),
        ),
        ListedEnv(
            "SimpleNegotiation-v0",
            "Simple negotiation",
            "Trade resources by offers; gain inventory value.",
            None,
            examples=("[Offer: 1 Wheat -> 1 Wood]", "[Accept]", "[Deny]", "Let us trade."),
        ),
        ListedEnv(
            "SimpleBlindAuction-v0",
            "Simple blind auction",
            "Talk, then bid blind on items you value privately.",
            None,
            examples=("Let us talk.", "[Bid on Item 0: 10]", "[Bid on Item 1: 5]"),
        ),
        ListedEnv(
            "TwoDollar-v0",
            "Two dollar",
            "Split two dollars under secret role instructions.",
            None,
            examples=("[Propose] $1.00", "[Accept]", "[Reject]"),
        ),
        ListedEnv(
            "NewRecruit-v0",
            "New recruit",
            "Recruiter and candidate negotiate eight job terms.",
            None,
            examples=("[Propose] AAAAAAAA", "[Accept]", "[Reject]"),
        ),
        ListedEnv(
            "TruthAndDeception-v0",
            "Truth and deception",
            "The deceiver talks; the guesser picks the true fact.",
            None,
            examples=("I think it is the first one.", "[Fact 1]", "[Fact 2]"),
        ),
        ListedEnv(
            "CharacterConclave-v0",
            "Character conclave",
            "Talk within a word budget, then vote for the most impressive player.",
            None,
            players=(3, 5),
            examples=("Hello everyone.", "[0]", "[1]", "[2]"),
        ),
        ListedEnv(
            "Taboo-v0",
            "Taboo",
            "Teams of two: clue a word without its taboo words.",
            None,
            players=(4, 4),
            examples=("It shines in the sky.", "[sun]", "[house]"),
        ),
        ListedEnv(
            "SettlersOfCatan-v0",
            "Settlers of Catan",
            "Build, trade and roll for resources on the hex board.",
            None,
            players=(4, 4),
            examples=("[0]", "[1]", "[2]", "[done]"),
        ),
        ListedEnv(
            "SecretMafia-v0",
            "Secret mafia",
            "Villagers and a hidden mafia: talk by day, vote, act by night.",
            None,
            players=(6, 15),
            examples=("I trust no one.", "[0]", "[1]"),
        ),
        # -- one-player puzzles, raced on one seed (issue 48) --
        ListedEnv(
            "2048-v0",
            "2048",
            "Slide tiles to merge equal numbers towards 2048.",
            "directions_title",
            players=(2, 4),
            race=True,
            filtered=True,
        ),
        ListedEnv(
            "Bandit-v0",
            "Bandit",
            "Press buttons to learn their payout odds, then name the best.",
            "bandit",
            players=(2, 4),
            race=True,
        ),
        ListedEnv(
            "Blackjack-v0",
            "Blackjack",
            "Several hands of blackjack against the dealer.",
            "blackjack",
            players=(2, 4),
            race=True,
        ),
        ListedEnv(
            "Countdown-v0",
            "Countdown",
            "Combine numbers with + - * / to reach the target.",
            None,
            players=(2, 4),
            race=True,
            examples=("[0 1 +]", "[0 1 *]", "[1 2 -]"),
        ),
        ListedEnv(
            "Cryptarithm-v0",
            "Cryptarithm",
            "Map letters to digits so the sum holds.",
            None,
            players=(2, 4),
            race=True,
            examples=("[A 1]", "[B 2]", "[C 3]"),
        ),
        ListedEnv(
            "FifteenPuzzle-v0",
            "Fifteen puzzle",
            "Slide tiles into order.",
            "announced",
            players=(2, 4),
            race=True,
        ),
        ListedEnv(
            "FrozenLake-v0",
            "Frozen lake",
            "Walk to the goal without falling into a hole.",
            "announced",
            players=(2, 4),
            race=True,
            filtered=True,
        ),
        ListedEnv(
            "GuessTheNumber-v0",
            "Guess the number",
            "Find the hidden number from higher/lower hints.",
            "guess_the_number",
            players=(2, 4),
            race=True,
            filtered=True,
        ),
        ListedEnv(
            "LightsOut-v0",
            "Lights out",
            "Press lights (and their neighbours) until all are off.",
            "lights_out",
            players=(2, 4),
            race=True,
        ),
        ListedEnv(
            "LogicPuzzle-v0",
            "Logic puzzle",
            "Mark a grid from the clues.",
            "logic_puzzle",
            players=(2, 4),
            race=True,
        ),
        ListedEnv(
            "Mastermind-v0",
            "Mastermind",
            "Find the hidden code from black and white pegs.",
            "mastermind",
            players=(2, 4),
            race=True,
        ),
        ListedEnv(
            "Minesweeper-v0",
            "Minesweeper",
            "Reveal every cell without a mine.",
            "minesweeper",
            players=(2, 4),
            race=True,
            filtered=True,
        ),
        ListedEnv(
            "PegJump-v0",
            "Peg jump",
            "Jump pegs until one is left.",
            "peg_jump",
            players=(2, 4),
            race=True,
        ),
        ListedEnv(
            "RushHour-v0",
            "Rush hour",
            "Slide cars to free the red one.",
            "rush_hour",
            players=(2, 4),
            race=True,
        ),
        ListedEnv(
            "Secretary-v0",
            "Secretary problem",
            "Accept one of a sequence of hidden values, seen one at a time.",
            "secretary",
            players=(2, 4),
            race=True,
        ),
        ListedEnv(
            "Set-v0",
            "Set",
            "Find sets of three cards.",
            "set_cards",
            players=(2, 4),
            race=True,
        ),
        ListedEnv(
            "Slitherlink-v0",
            "Slitherlink",
            "Draw one loop around numbered cells.",
            "slitherlink",
            players=(2, 4),
            race=True,
        ),
        ListedEnv(
            "Sokoban-v0",
            "Sokoban",
            "Push every box onto a target.",
            "directions",
            players=(2, 4),
            race=True,
            uses_numpy=True,
            filtered=True,
        ),
        ListedEnv(
            "Sudoku-v0",
            "Sudoku",
            "Fill the grid so rows, columns and boxes hold 1-9.",
            None,
            players=(2, 4),
            race=True,
            examples=("[1 1 1]", "[5 3 7]", "[9 9 9]"),
        ),
        ListedEnv(
            "ThreeCardMonte-v0",
            "Three-card monte",
            "Follow the ball under the shuffled cups.",
            "three_cups",
            players=(2, 4),
            race=True,
        ),
        ListedEnv(
            "TowerOfHanoi-v0",
            "Tower of Hanoi",
            "Move the disks to the last tower, never a larger on a smaller.",
            "tower_of_hanoi",
            players=(2, 4),
            race=True,
        ),
    )
}
"""Every environment Arena may offer, by TextArena id (its Arena name is ``textarena:ID``): the
ones the catalogue check passes are offered (:data:`LISTED`)."""

NEEDS_NLTK = "needs NLTK word lists it downloads when first imported (no download here)"
NEEDS_API = "needs an OpenRouter API key: an LLM judge or game master plays a part"
NEEDS_PY312 = "its code needs Python 3.12 or later (PEP 701 f-strings)"

NOT_RUNNABLE: dict[str, str] = {
    **dict.fromkeys(
        (
            "Codenames-v0",
            "Wordle-v0",
            "SpellingBee-v0",
            "DontSayIt-v0",
            "Hangman-v0",
            "WordChains-v0",
            "WordLadder-v0",
            "WordSearch-v0",
            "LetterAuction-v0",
        ),
        NEEDS_NLTK,
    ),
    "Crosswords-v0": "needs NLTK word lists it downloads and an OpenRouter API key to make its clues",
    **dict.fromkeys(("Debate-v0", "ScenarioPlanning-v0", "TwentyQuestions-v0", "GuessWho-v0"), NEEDS_API),
    "UsedCarNegotiation-v0": "broken in textarena 0.7.4: its instructions/blue_book.txt is not in the wheel",
    **dict.fromkeys(
        (
            "Chess-v0",
            "Checkers-v0",
            "IteratedStagHunt-v0",
            "Klondike-v0",
            "ReverseTicTacToe-v0",
            "UltimateTexasHoldem-v0",
        ),
        NEEDS_PY312,
    ),
    "Negotiation-v0": ("not registered in textarena 0.7.4 (SimpleNegotiation-v0 is, and Arena offers it)"),
    "LeducHoldem-v0": "not registered in textarena 0.7.4 (KuhnPoker-v0 is)",
    "BabyAiText-v0": "needs gym and BabyAI, which TextArena does not install",
    "UsedCar-v0-balanced": "broken in textarena 0.7.4: registered, but its module is not in the wheel",
    "ScorableGames-v0": "broken in textarena 0.7.4: its games_descriptions folder is not in the wheel",
}
"""Environments that cannot start here, each with the reason (one line); no check is needed to know."""

OFFERED_FILE = Path(__file__).with_name("offered.json")
"""What the catalogue check passed, written by ``bench/textarena_catalogue.py --write``."""


def _offered() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(OFFERED_FILE.read_text(encoding="utf-8"))
    return data


_CHECKED = _offered()

LISTED: dict[str, ListedEnv] = {
    env_id: CANDIDATES[env_id] for env_id in _CHECKED["offered"] if env_id in CANDIDATES
}
"""The environments Arena offers: the candidates the catalogue check passed, in the table's order."""

UNAVAILABLE: dict[str, str] = {**NOT_RUNNABLE, **_CHECKED["not_offered"]}
"""Environments people look for that Arena does not offer, each with the reason (one line)."""
