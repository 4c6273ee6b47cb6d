"""What the TextArena catalogue offers, as plain data: no import of TextArena (it takes ~1.4 s).

``arena games`` reads these tables only. ``tests/games/test_textarena_listing.py`` checks them
against the installed library (every listed id is registered with these parameters, each
reason for an unavailable one is true of the library's files), so they cannot drift from it.
"""

from __future__ import annotations

from dataclasses import dataclass

LIBRARY = "TextArena"
LIBRARY_VERSION = "0.7.4"
"""The TextArena release the tables and move lists were written and tested against."""
ADAPTER_VERSION = 1
"""Bump with any change to how the adapter plays a listed environment."""


@dataclass(frozen=True)
class ListedEnv:
    """One curated environment: its TextArena id and what Arena needs to know about it."""

    env_id: str
    title: str
    description: str
    moves: str
    """The key of its legal-move function in :data:`games.textarena_catalogue.moves.MOVES`."""
    players: tuple[int, int] = (2, 2)
    """The fewest and most players it takes (TextArena keeps no such data: read off its asserts)."""
    options: tuple[tuple[str, int | float | bool | str], ...] = ()
    """The constructor parameters offered as ``--option``, with their registered defaults (scalar
    ones whose every value plays); a test checks the defaults against TextArena's registry."""
    uses_numpy: bool = False
    """Whether it draws from numpy's global generator (then the isolation swaps that too)."""


LISTED: dict[str, ListedEnv] = {
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
        ),
        ListedEnv("Nim-v0", "Nim", "Take objects from piles (3, 4, 5); whoever takes the last wins.", "nim"),
        ListedEnv(
            "KuhnPoker-v0",
            "Kuhn poker",
            "Three-card poker: one card each, check, bet, call or fold, over several hands.",
            "kuhn_poker",
            options=(("max_rounds", 3),),
        ),
        ListedEnv(
            "LiarsDice-v0-small",
            "Liar's dice",
            "Bid on the dice under everyone's cups or call the last bid a lie; lose dice when wrong.",
            "liars_dice",
            players=(2, 15),
            options=(("num_dice", 3),),
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
        ),
        ListedEnv(
            "ColonelBlotto-v0",
            "Colonel Blotto",
            "Split 20 units over 3 fields each round; winning more fields wins the round.",
            "colonel_blotto",
            options=(("num_rounds", 9),),
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
        ),
        ListedEnv(
            "Battleship-v0",
            "Battleship",
            "Find and sink the other side's hidden ships on a grid.",
            "battleship",
            options=(("grid_size", 5),),
        ),
    )
}
"""The curated environments, by TextArena id (their Arena name is ``textarena:ID``)."""

NEEDS_NLTK = "needs NLTK word lists it downloads when first imported (no download here)"
NEEDS_API = "needs an OpenRouter API key: an LLM judge or game master plays a part"
NEEDS_PY312 = "its code needs Python 3.12 or later (PEP 701 f-strings)"

UNAVAILABLE: dict[str, str] = {
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
    "Negotiation-v0": (
        "not registered in textarena 0.7.4 (SimpleNegotiation-v0 is, but Arena has no"
        " legal-move generator for its free text yet)"
    ),
    "LeducHoldem-v0": "not registered in textarena 0.7.4 (KuhnPoker-v0 is)",
}
"""Environments people look for that cannot run here, each with the reason (one line)."""
