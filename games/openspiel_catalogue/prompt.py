"""The OpenSpiel prompt: who the seat is, the game's rules, the library's own view and the legal moves.

One template for every game and seat. The rules part names the library, its version and the
game string, so a model (and the disclosure report) knows exactly which game is played.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from games.openspiel_catalogue import library

if TYPE_CHECKING:
    from games.openspiel_catalogue.definition import OpenSpielDefinition
    from games.openspiel_catalogue.models import OpenSpielObservation

FRAME = """\
You are {seat}, player {player} of {players}, in {title}: OpenSpiel's game {game} (the {package} \
library, version {version}).
{rules}
A reply that cannot be used is asked for once more; then the first legal move in the library's \
order is played for you."""

GENERIC_RULES = (
    "The rules are those of OpenSpiel's {title}. You see what the library shows player {player} and"
    " choose among the legal moves it names. Your score is the library's return for you at the end."
)

TEMPLATE = """\
{rules}

{moves_title}: {moves}

What you see now (the library's {view_kind} for player {player}):
{view}

Your legal moves: {legal}

Reply with only a JSON object: \
{{"move": one of your legal moves exactly as written, "reason": why, in your own words}}"""


_WORDS = {
    "SEQUENTIAL": "players move in turn",
    "SIMULTANEOUS": "players move at the same time",
    "MEAN_FIELD": "a mean-field game",
    "DETERMINISTIC": "no chance",
    "EXPLICIT_STOCHASTIC": "chance events (dealt by the library from the episode's seed)",
    "SAMPLED_STOCHASTIC": "chance events sampled by the library",
    "PERFECT_INFORMATION": "perfect information: everyone sees everything",
    "IMPERFECT_INFORMATION": "imperfect information: some facts are hidden from some players",
    "ONE_SHOT": "one simultaneous move, then the game ends",
    "ZERO_SUM": "zero-sum: one player's gain is the others' loss",
    "CONSTANT_SUM": "constant-sum: the players' returns always add up to the same total",
    "GENERAL_SUM": "general-sum: returns need not add up to anything",
    "IDENTICAL": "identical returns: all players score the same",
    "TERMINAL": "returns are given at the end",
    "REWARDS": "rewards may come after every move",
}


def _word(value: object) -> str:
    name = str(value).rsplit(".", 1)[-1]
    return _WORDS.get(name, name.lower().replace("_", " "))


def library_facts(game: object, player: int) -> str:
    """What the library states about a game: its type, players, returns, parameters, a matrix's payoffs.

    For games outside the curated set, whose rules Arena has not written out (issue 47.3).
    """
    spiel: Any = game
    kind = spiel.get_type()
    lines = [
        f"What the library states: {spiel.num_players()} players; {_word(kind.dynamics)};"
        f" {_word(kind.chance_mode)}; {_word(kind.information)}; {_word(kind.utility)};"
        f" {_word(kind.reward_model)}; returns range from {spiel.min_utility():g} to {spiel.max_utility():g};"
        f" at most {spiel.max_game_length()} moves."
    ]
    parameters = spiel.get_parameters()
    if parameters:
        lines.append("Parameters: " + ", ".join(f"{k}={v}" for k, v in sorted(parameters.items())) + ".")
    if hasattr(spiel, "row_utility") and spiel.num_players() == 2:
        lines.append("Payoffs (both choose at once; first number yours, second the other player's):")
        for r in range(spiel.num_rows()):
            for c in range(spiel.num_cols()):
                you = spiel.row_action_name(r) if player == 0 else spiel.col_action_name(c)
                other = spiel.col_action_name(c) if player == 0 else spiel.row_action_name(r)
                own = spiel.row_utility(r, c) if player == 0 else spiel.col_utility(r, c)
                rival = spiel.col_utility(r, c) if player == 0 else spiel.row_utility(r, c)
                lines.append(f"- you {you}, they {other}: {own:g}, {rival:g}")
    return "\n".join(lines)


def rules_text(definition: OpenSpielDefinition, options: BaseModel, seat: str) -> str:
    """The rules as ``seat`` is told them, filled with the options."""
    values = options.model_dump()
    game = definition.facts(options).game
    player = definition.seats(options).index(seat)
    curated = definition.curated
    if curated:
        rules = curated.rules.format(**values)
    else:
        rules = (
            GENERIC_RULES.format(title=definition.title, player=player) + "\n" + library_facts(game, player)
        )
    return FRAME.format(
        seat=seat,
        player=player,
        players=game.num_players(),
        title=definition.title,
        game=str(game),
        package=library.PACKAGE,
        version=library.version(),
        rules=rules,
    )


HISTORY_CHAR_BUDGET = 6000
"""Characters of move history a prompt carries at most (the oldest moves are cut first, and the
prompt says how many): with the rules, view and legal moves it keeps a long game's prompt within
a 4,096-token context (laser_tag's history alone reached 24,632 characters)."""


def fitted_history(title: str, moves: list[str], budget: int = HISTORY_CHAR_BUDGET) -> tuple[str, str]:
    """The history's title and text, cut from the oldest move to fit ``budget`` characters."""
    text = ", ".join(moves)
    if len(text) <= budget:
        return title, text or "none yet"
    kept: list[str] = []
    size = 0
    for move in reversed(moves):
        size += len(move) + 2
        if size > budget:
            break
        kept.append(move)
    cut = len(moves) - len(kept)
    return f"{title} (the oldest {cut} of {len(moves)} not shown, to fit the prompt)", ", ".join(
        reversed(kept)
    )


def render(observation: OpenSpielObservation, rules: str) -> str:
    """The prompt for one seat's observation."""
    title = "Moves so far" if observation.moves_seen == "all" else "Your moves so far"
    title, moves = fitted_history(title, observation.moves)
    legal = ", ".join(json.dumps(name, ensure_ascii=False) for name in observation.legal_moves) or "none"
    return TEMPLATE.format(
        rules=rules,
        moves_title=title,
        moves=moves,
        view_kind=observation.view_kind.replace("_", " "),
        player=observation.player,
        view=observation.view.rstrip("\n") or "(empty)",
        legal=legal,
    )
