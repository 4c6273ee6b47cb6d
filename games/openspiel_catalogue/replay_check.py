"""Whether an OpenSpiel game plays here, and plays again the same from its seed: checked by playing it.

A game whose library draws chance itself (hanabi's ``random_start_player``, the sampled
stochastic games) would give one seed different episodes. Arena hands the episode's seed to
the library where the game takes one (:data:`SEED_PARAMETERS`); whether that is enough, and
whether any other game draws behind Arena's back, is read off the game, not a list: two
replays of the same seeded moves, step by step (the library's state string, every seat's
view, the legal moves, the returns, the history), the second playing the first one's moves
by id as a resume or an export does. Any difference, or any library error on the way (a game
with action structs only, options the library refuses when the game starts), is one line: the
reason the configuration is refused before anything is stored. The check runs once per
configuration per process and its replays are short (:data:`REPLAY_STEPS`), so it costs
milliseconds for most games; a draw a game makes only later than that goes unseen here (the
stored episode's own replay still refuses a history that does not replay).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from games.openspiel_catalogue import library

if TYPE_CHECKING:
    from pydantic import BaseModel

    from games.openspiel_catalogue.definition import OpenSpielDefinition
    from games.openspiel_catalogue.state import OpenSpielState

SEED_PARAMETERS = ("rng_seed", "seed")
"""The library parameters that seed a game's own generator: Arena sets them from the episode's seed."""
LIBRARY_SEED_RANGE = 2**31 - 1
"""The library's seeds are C++ ``int`` (``-1`` often means "a random one"): seeds map into 0 .. this."""
REPLAY_STEPS = 24
"""Steps each replay plays (fewer if the game ends first)."""
CHECK_SEED = 20261208
"""The episode seed the check plays (any fixed seed: the check is of the configuration)."""


def seed_parameter(parameters: dict[str, Any]) -> str | None:
    """The game's parameter that seeds its own generator (``rng_seed``, ``seed``), or ``None``."""
    return next((name for name in SEED_PARAMETERS if name in parameters), None)


def library_seed(seed: int) -> int:
    """The library's seed for an episode seed (a non-negative C++ ``int``: Python's ``%`` is not negative)."""
    return seed % LIBRARY_SEED_RANGE


def library_message(error: BaseException) -> str:
    """A library error in one line, without the C++ source location it starts with."""
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    if not lines:
        return type(error).__name__
    head, *rest = lines
    where, _, said = head.partition(" ")
    if ".cc:" in where or ".h:" in where:
        head = said
    return f"{head} ({'; '.join(rest[:2])})" if rest else head


def refusal_of_play(definition: OpenSpielDefinition, options: BaseModel) -> str | None:
    """Why Arena refuses to play ``options`` of this game (one line), or ``None``: checked once each."""
    key = (definition.name, tuple(sorted(definition.library_parameters(options).items())))
    if key not in _CHECKED:
        _CHECKED[key] = _checked(definition, options)
    return _CHECKED[key]


_CHECKED: dict[tuple[str, tuple[tuple[str, Any], ...]], str | None] = {}
"""Each configuration's refusal (or ``None``) by game and library parameters: checked once per process."""


def start_problem(definition: OpenSpielDefinition, options: BaseModel) -> str | None:
    """Why the game cannot even start with ``options`` (one line), or ``None``: built once, no replay.

    What loading a game checks with its defaults: cheap where the replays are not (the end of a
    ``bridge_uncontested_bidding`` auction solves its deals double dummy, about 0.5 s each).
    """

    def start() -> None:
        _snapshot(definition.new_state(CHECK_SEED, options))

    return _library_problem(definition, start)


def _checked(definition: OpenSpielDefinition, options: BaseModel) -> str | None:
    return _library_problem(definition, lambda: _replays_differ(definition, options))


def _library_problem(definition: OpenSpielDefinition, check: Callable[[], str | None]) -> str | None:
    pyspiel = library.spiel()
    try:
        with library.quiet_stderr():  # the library prints each error itself before raising it
            return check()
    except pyspiel.SpielError as exc:
        said = library_message(exc)
        if "action structs" in said:
            return "it takes its moves as action structs only (the library gives no list of legal moves)"
        return f"OpenSpiel cannot play {definition.short_name} with these parameters: {said}"


def _replays_differ(definition: OpenSpielDefinition, options: BaseModel) -> str | None:
    first, moves = _replay(definition, options, None)
    second, _ = _replay(definition, options, moves)
    for index, (one, two) in enumerate(zip(first, second, strict=False)):
        if one != two:
            return _difference(definition, options, index)
    if len(first) != len(second):
        return _difference(definition, options, min(len(first), len(second)))
    return None


def _replay(
    definition: OpenSpielDefinition, options: BaseModel, moves: list[dict[int, int]] | None
) -> tuple[list[tuple[Any, ...]], list[dict[int, int]]]:
    """One replay's snapshot per step and its moves: random legal ones from a fixed seed, or ``moves`` again.

    The second replay plays the first one's action ids as they are, as a resume or an export
    does (``from_json`` applies the stored ids the same way).
    """
    state: OpenSpielState = definition.new_state(CHECK_SEED, options)
    draw = random.Random(CHECK_SEED)
    snapshots = [_snapshot(state)]
    played: list[dict[int, int]] = []
    for step in range(REPLAY_STEPS if moves is None else len(moves)):
        if state.over():
            break
        if moves is not None:
            ids = moves[step]
            if sorted(ids) != [state.player(seat) for seat in state.pending()]:
                break  # another player to move: the snapshots already differ
        else:
            ids = {state.player(s): draw.choice(state.legal(state.player(s))[0]) for s in state.pending()}
        state.apply_ids(ids)
        played.append(ids)
        snapshots.append(_snapshot(state))
    return snapshots, played


def _snapshot(state: OpenSpielState) -> tuple[Any, ...]:
    """What a seat, the store and a replay can see of the position: any difference is a different episode."""
    spiel = state.spiel
    views = []
    for player in range(state.game.num_players()):
        if state.view_kind == "information_state_string":
            views.append(spiel.information_state_string(player))
        else:
            views.append(spiel.observation_string(player))
    pending = state.pending()
    legal = tuple(state.legal(state.player(seat))[1] for seat in pending)
    returns = tuple(spiel.returns()) if state.over() else ()
    history = tuple((player, action) for player, action, _ in state.history)
    return (str(spiel), tuple(views), tuple(pending), legal, returns, history)


def _difference(definition: OpenSpielDefinition, options: BaseModel, step: int) -> str:
    changed = ", ".join(f"{name}={value}" for name, value in definition.library_parameters(options).items())
    settings = f" with {changed}" if changed else ""
    return (
        f"{definition.name}{settings} draws chance inside the library that the episode's seed does not"
        f" decide (two replays of one seed differ at step {step}), so its episodes would not replay"
    )
