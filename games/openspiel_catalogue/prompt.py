"""The OpenSpiel prompt: who the seat is, the game's rules, the library's own view and the legal moves.

One template for every game and seat. The rules part names the library, its version and the
game string, so a model (and the disclosure report) knows exactly which game is played.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

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
{{"move": one of your legal moves exactly as written, "reason": one sentence}}"""


def rules_text(definition: OpenSpielDefinition, options: BaseModel, seat: str) -> str:
    """The rules as ``seat`` is told them, filled with the options."""
    values = options.model_dump()
    game = definition.facts(options).game
    player = definition.seats(options).index(seat)
    curated = definition.curated
    if curated:
        rules = curated.rules.format(**values)
    else:
        rules = GENERIC_RULES.format(title=definition.title, player=player)
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


def render(observation: OpenSpielObservation, rules: str) -> str:
    """The prompt for one seat's observation."""
    moves = ", ".join(observation.moves) or "none yet"
    title = "Moves so far" if observation.moves_seen == "all" else "Your moves so far"
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
