"""``check_game``: the conformance checker every game, built-in or third-party, must pass.

Call it from a game package's tests::

    from arena.testing import check_game
    check_game(DEFINITION)

It plays seeded random legal episodes and checks: the definition declares
``private_information``; the game ends within :data:`MAX_STEPS` steps and a whole episode
leaves the global ``random`` untouched; the contract holds at every step (pending seats,
JSON data, legal fallbacks and samples, results for every seat); the same seed and actions
give the same episode with the global ``random`` disturbed; the JSON round trip and
``clone`` give equal, independent states; replaying the actions stored by a real recorded
episode (a temporary SQLite file) rebuilds every stored observation and state; no seat's
secret (``GameState.with_sentinel``) shows in any other seat's observation, prompt or view,
and a sentinel is planted exactly when ``private_information`` is declared; and every
baseline plays a recorded episode under its own name, for every seat without raising and
with legal decisions only. The definition is used as given: the game
need not be installed. Failures raise :class:`GameCheckError`.
:func:`record_playthrough` and :func:`check_playthrough` keep a golden playthrough.
"""

from __future__ import annotations

import asyncio
import io
import json
import random
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from arena.contract.game import GameDefinition, GameState
from arena.contract.player import Decision, DecisionRequest, ErrorClass, Player
from arena.contract.records import CallbackObserver, TurnsRecorded
from arena.engine.recorder import Recorder
from arena.engine.runner import EpisodeRunner
from arena.store.database import Store

SENTINEL = 739_184_265
"""Written over a seat's secrets; must never reach another seat."""
MAX_STEPS = 100_000


class GameCheckError(AssertionError):
    """A game broke the contract; the message says where."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise GameCheckError(message)


def as_json(value: Any) -> Any:
    """``value`` as it reads back from JSON (raises if it is not JSON data)."""
    return json.loads(json.dumps(value))


def observed(state: GameState, seat: str) -> Any:
    """``seat``'s observation as JSON data."""
    observation = state.observation(seat)
    _require(isinstance(observation, BaseModel), f"observation({seat!r}) must be a pydantic model")
    return as_json(observation.model_dump(mode="json"))


def view_text(state: GameState, viewer: str | None) -> str:
    """The game's view of ``state`` for ``viewer`` as plain text (Rich renders it, text as it is)."""
    from rich.console import Console  # the checker renders like a front end does
    from rich.text import Text

    drawn = state.definition.view.render(state, viewer)
    buffer = io.StringIO()
    Console(file=buffer, width=160, color_system=None).print(Text(drawn) if isinstance(drawn, str) else drawn)
    return buffer.getvalue()


def check_step(state: GameState, actions: dict[str, BaseModel]) -> None:
    """The per-step contract before ``actions`` are applied."""
    definition = state.definition
    _require(set(state.pending()) <= set(state.seats), "pending seats must be seats of the game")
    observations = {}
    for seat in state.seats:
        observations[seat] = observed(state, seat)
        _require(isinstance(definition.rules(state.options, seat), str), "rules must be text")
    for seat, action in actions.items():
        model = state.action_model(seat)
        _require(isinstance(action, model), f"sample_action({seat!r}) is not a {model.__name__}")
        _require(state.validate(seat, action) is None, f"sample_action gave an illegal action: {action!r}")
        _require(state.validate(seat, state.fallback(seat)) is None, f"the fallback of {seat!r} is illegal")
        _require(bool(definition.prompt_for(state, seat)), f"empty prompt for {seat!r}")
        model.model_json_schema()
    # The state's JSON and observations are drawn once and compared with each copy's.
    before = as_json(state.to_json())
    twin = state.definition.state_from_json(as_json(state.to_json()))
    _require(as_json(twin.to_json()) == before, "from_json(to_json()) changes the state")
    for seat in state.seats:
        _require(observed(twin, seat) == observations[seat], f"round trip changes {seat!r}'s observation")
    clone = state.clone()
    _require(as_json(clone.to_json()) == before, "clone() differs from the state it copies")
    for seat in state.seats:
        _require(observed(clone, seat) == observations[seat], f"clone() changes {seat!r}'s observation")
    clone.apply(actions)
    _require(as_json(state.to_json()) == before, "applying actions to a clone changed the original")


def check_after(state: GameState, actions: dict[str, BaseModel]) -> None:
    """The per-step contract after ``actions`` were applied."""
    view = state.definition.view
    for seat, action in actions.items():
        as_json(state.turn_state(seat))
        _require(bool(view.describe_action(state, seat, action)), "describe_action must say something")
    _require(set(view.score_series(state)) <= set(state.seats), "score series are per seat")
    as_json(view.score_series(state))
    done, total = view.progress(state)
    _require(done >= 0 and (total == 0 or done <= total), f"progress {done}/{total} is out of range")


def check_end(state: GameState) -> None:
    """Results for every seat, as JSON."""
    results = state.result()
    _require(set(results) == set(state.seats), "result() must cover every seat")
    as_json({seat: {"score": r.score, "metrics": r.metrics} for seat, r in results.items()})
    _require(state.returns() == {seat: r.score for seat, r in results.items()}, "returns() != scores")
    for viewer in (None, *state.seats):
        _require(bool(view_text(state, viewer)), f"empty view for {viewer!r}")


def check_secrets(state: GameState) -> list[str]:
    """No seat's sentinel reaches another seat's observation, prompt or view; the seats planted."""
    mark = str(SENTINEL)
    planted: list[str] = []
    for owner in state.seats:
        twin = state.with_sentinel(owner, SENTINEL)
        if twin is None:
            continue
        planted.append(owner)
        _require(mark in json.dumps(twin.to_json()), f"with_sentinel({owner!r}) left the state unchanged")
        if not twin.over():  # the probe works: the owner itself sees its secret
            owned = json.dumps(observed(twin, owner))
            _require(mark in owned, f"with_sentinel({owner!r}) does not show in its own observation")
    for seat in state.seats:
        # One state with every other seat's secrets planted at once: a seat's texts are drawn
        # once per step, not once per other seat (Rich views cost milliseconds each). Only
        # when the mark shows are the owners tried one by one, to name whose secret leaked.
        others = [owner for owner in planted if owner != seat]
        if others and mark in "\n".join(_seat_texts(_planted(state, others), seat).values()):
            for owner in others:
                for where, text in _seat_texts(_planted(state, [owner]), seat).items():
                    _require(mark not in text, f"{owner!r}'s secret leaks into {seat!r}'s {where}")
            _require(False, f"the secrets of {', '.join(others)} together leak into {seat!r}'s texts")
    return planted


def _planted(state: GameState, owners: list[str]) -> GameState:
    """A copy of ``state`` with the sentinel in place of each of ``owners``' secrets."""
    twin = state
    for owner in owners:
        planted = twin.with_sentinel(owner, SENTINEL)
        if planted is None:
            raise GameCheckError(f"with_sentinel({owner!r}) gave nothing on a planted copy")
        twin = planted
    return twin


def _seat_texts(state: GameState, seat: str) -> dict[str, str]:
    """Everything ``seat`` is shown of ``state``: its observation, view, rules and prompt."""
    texts = {
        "observation": json.dumps(observed(state, seat)),
        "view": view_text(state, seat),
        "rules": state.definition.rules(state.options, seat),
    }
    if seat in state.pending():
        texts["prompt"] = state.definition.prompt_for(state, seat)
    return texts


def play(
    definition: GameDefinition,
    seed: int,
    options: dict[str, Any],
    rng: random.Random,
    *,
    checked: bool = True,
    disturb: Callable[[], object] | None = None,
    planted: set[str] | None = None,
) -> tuple[GameState, list[dict[str, BaseModel]]]:
    """One random legal episode; with ``checked`` every step is checked. Returns the end state
    and the actions of every step; ``planted`` collects the seats ``with_sentinel`` planted."""
    planted = set() if planted is None else planted
    state = definition.create(seed, options)
    steps: list[dict[str, BaseModel]] = []
    if checked:
        # Secrets are checked on every state a seat is shown: this first one, then each state
        # an apply makes. The state before a step is the one the previous step's check saw
        # (sampling must not change it, which the determinism check's replay would catch), so
        # it is not checked twice: the Rich views drawn for every seat cost most of the checker.
        planted.update(check_secrets(state))
    while not state.over():
        _require(len(steps) < MAX_STEPS, never_ends(seed))
        pending = state.pending()
        _require(bool(pending), "a game that is not over must have a seat to move")
        actions = {seat: state.sample_action(seat, rng) for seat in pending}
        if disturb is not None:
            disturb()
        if checked:
            check_step(state, actions)
        state.apply(actions)
        steps.append(actions)
        if checked:
            check_after(state, actions)
            planted.update(check_secrets(state))
    _require(state.pending() == [], "an episode that is over has no pending seats")
    if checked:
        check_end(state)
    return state, steps


def check_determinism(definition: GameDefinition, seed: int, options: dict[str, Any]) -> None:
    """Same seed and actions, same episode, whatever the global ``random`` does meanwhile."""
    random.seed(1)
    first, steps = play(definition, seed, options, random.Random(seed), checked=False, disturb=random.random)
    random.seed(987)
    second, _ = play(definition, seed, options, random.Random(seed), checked=False, disturb=random.random)
    _require(as_json(first.to_json()) == as_json(second.to_json()), "the same seed gave two episodes")
    replay = definition.create(seed, options)
    for actions in steps:
        replay.apply(actions)
    same = as_json(replay.to_json()) == as_json(first.to_json())
    _require(same, "replaying the actions gave another state")
    _require(replay.returns() == first.returns(), "replaying the actions gave other scores")


def never_ends(seed: int) -> str:
    """The message for a game still going after :data:`MAX_STEPS` steps of random legal play."""
    return (
        f"the game never ends: still not over() after {MAX_STEPS} steps of random legal play (seed {seed});"
        " over() must become true (or pending() empty) in every episode: cap its length with an option"
        " (rounds, a move cap)"
    )


GLOBAL_RANDOM = (
    "the global random state changed during a whole episode (seed {seed}): the game, its view or a"
    " baseline calls random.seed(), random.random(), random.choice() or another function of Python's"
    " global `random` module (or a library that does); draw from a generator it owns instead"
    " (self.rng = random.Random(seed)), so episodes replay whatever else runs in the process"
)


def check_global_random(definition: GameDefinition, seed: int, options: dict[str, Any]) -> None:
    """A whole episode, random legal play then one recorded by the runner, leaves the global
    ``random`` exactly as it found it (and ends within :data:`MAX_STEPS` steps)."""
    random.seed(f"arena-check-{seed}")
    before = random.getstate()
    play(definition, seed, options, random.Random(seed), checked=False)
    _require(random.getstate() == before, GLOBAL_RANDOM.format(seed=seed))


UNDECLARED = (
    "{name} does not declare private_information: set it on the definition, True when a seat holds"
    " something another must not see (GameState.with_sentinel then plants a sentinel over it), else False"
)


def check_private_information(definition: GameDefinition, planted: set[str]) -> None:
    """The definition's ``private_information`` agrees with what ``with_sentinel`` planted in play."""
    declared = definition.private_information
    _require(declared is not None, UNDECLARED.format(name=definition.name))
    if declared:
        _require(
            bool(planted),
            f"{definition.name} declares private_information = True but with_sentinel() planted no sentinel"
            " for any seat in any state played, so no leak can be found: override GameState.with_sentinel"
            " to write the sentinel over each seat's secrets (or declare False if every seat sees all)",
        )
    else:
        _require(
            not planted,
            f"{definition.name} declares private_information = False but with_sentinel() planted a secret for"
            f" {', '.join(sorted(planted))}: declare True (the seats hold secrets the leak check guards)",
        )


class _SamplePlayer(Player):
    """Plays the state's ``sample_action`` (any legal action)."""

    def __init__(self, seat: str, seed: int, state: GameState) -> None:
        self.spec = "check:sample"
        self.rng = random.Random(f"check:{seed}:{seat}")
        self.state = state

    async def decide(self, request: DecisionRequest) -> Decision:
        return Decision(action=self.state.sample_action(request.seat, self.rng), reason="sampled")


def check_stored_replay(definition: GameDefinition, seed: int, options: dict[str, Any]) -> int:
    """Record a random episode in a temporary SQLite file, rebuild it from the stored actions
    and compare every stored observation, state and score. Returns the number of turns."""
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "check.db")
        try:
            state = definition.create(seed, options)
            players = {seat: _SamplePlayer(seat, seed, state) for seat in state.seats}
            resolved = definition.resolve_options(options)
            runner = EpisodeRunner(state, dict(players), [], options=resolved, sink=Recorder(store))
            outcome = asyncio.run(runner.run())
            _require(outcome.episode_id is not None, "the episode was not recorded")
            assert outcome.episode_id is not None
            return _replay_rows(definition, store, outcome.episode_id)
        finally:
            store.close()


def check_baselines(definition: GameDefinition, seed: int, options: dict[str, Any]) -> None:
    """Every baseline has a name, plays as ``baseline:NAME`` and makes only legal decisions.

    Each plays every seat of one recorded episode (a temporary SQLite file), built the way
    ``--seat SEAT=baseline:NAME`` builds it; the stored player must be its spec.
    """
    from arena.engine.lineup import build_player

    for name, info in definition.baselines.items():
        _require(bool(name), f"a baseline of {definition.name} has no name: set `name` on its class")
        spec = f"baseline:{name}"
        made = info.factory(random.Random(seed))
        _require(
            made.spec == spec,
            f"baseline {name!r} plays as player {made.spec!r}, not {spec!r}: its episodes would be stored"
            f" under that name (a Baseline subclass takes its spec from its `name`)",
        )
        _require(made.kind == "baseline", f"baseline {name!r} has kind {made.kind!r}, not 'baseline'")
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "baselines.db")
        try:
            for name in definition.baselines:
                spec = f"baseline:{name}"
                state = definition.create(seed, options)
                players = {seat: build_player(spec, definition, seed=seed, seat=seat) for seat in state.seats}
                resolved = definition.resolve_options(options)
                crashes: list[str] = []
                watch = CallbackObserver(partial(_note_crashes, crashes), wants_steps=False)
                runner = EpisodeRunner(state, players, [watch], options=resolved, sink=Recorder(store))
                outcome = asyncio.run(runner.run())
                _require(
                    not crashes,
                    f"{spec} crashed {crashes[0] if crashes else ''}: a baseline must play every seat of"
                    " the game; this is a bug in the baseline (an exception), not an illegal decision",
                )
                _require(outcome.status == "finished", f"{spec} did not finish an episode: {outcome.message}")
                assert outcome.episode_id is not None
                stored = {row["player"] for row in store.seats(outcome.episode_id)}
                _require(stored == {spec}, f"{spec}'s episode is stored as player(s) {sorted(stored)}")
                for seat, result in outcome.results.items():
                    invalid = result.metrics["invalid_replies"]
                    _require(invalid == 0, f"{spec} made {invalid} illegal decision(s) as seat {seat!r}")
        finally:
            store.close()


def _note_crashes(crashes: list[str], event: object) -> None:
    """Add ``as seat S at step N: ERROR`` for each decision of ``event`` a player's exception spoiled."""
    if isinstance(event, TurnsRecorded):
        crashes += [
            f"as seat {turn.seat!r} at step {turn.step + 1}: {attempt.detail}"
            for turn in event.turns
            for attempt in turn.attempts
            if attempt.error == ErrorClass.PLAYER_CRASH
        ]


def _replay_rows(definition: GameDefinition, store: Store, episode_id: int) -> int:
    episode = store.episode(episode_id)
    _require(episode is not None and episode["status"] == "finished", "the recorded episode did not finish")
    assert episode is not None
    state = definition.create(episode["seed"], episode["options"])
    turns = store.turns(episode_id, definition)
    _require(bool(turns), "the episode stored no turns")
    by_step: dict[int, list[dict[str, Any]]] = {}
    for turn in turns:
        by_step.setdefault(turn["step"], []).append(turn)
    for step in sorted(by_step):
        rows = by_step[step]
        seats = sorted(r["seat"] for r in rows)
        _require(sorted(state.pending()) == seats, f"pending seats differ at step {step}")
        for row in rows:
            same = observed(state, row["seat"]) == row["observation"]
            _require(same, f"observation differs at step {step}")
        state.apply({r["seat"]: state.action_model(r["seat"]).model_validate(r["action"]) for r in rows})
        for row in rows:
            _require(as_json(state.turn_state(row["seat"])) == row["state"], f"state differs at step {step}")
    _require(state.over(), "the replayed episode did not end")
    stored = {seat["seat"]: seat["score"] for seat in store.seats(episode_id)}
    _require(stored == state.returns(), "replayed scores differ from the stored ones")
    return len(turns)


def check_game(
    definition: GameDefinition,
    *,
    seeds: tuple[int, ...] = (0, 1, 7),
    options: dict[str, Any] | None = None,
) -> None:
    """Run every conformance check on ``definition`` with ``options`` over ``seeds``.

    Raises :class:`GameCheckError` naming the first broken rule.
    """
    given = dict(options or {})
    _require(bool(definition.name and definition.version and definition.title), "name, version, title")
    _require(bool(definition.prompt_version), "a prompt version names the template")
    _require(bool(definition.baselines), "every game offers at least one baseline")
    seats = definition.seats_for(given)
    _require(1 <= len(seats) == len(set(seats)), "seats must be one or more distinct names")
    _require(definition.private_information is not None, UNDECLARED.format(name=definition.name))
    check_global_random(definition, seeds[0], given)  # first: a game that never ends is told so at once
    planted: set[str] = set()
    for seed in seeds:
        play(definition, seed, given, random.Random(seed), planted=planted)
    check_private_information(definition, planted)
    check_determinism(definition, seeds[0], given)
    before = random.getstate()
    _require(check_stored_replay(definition, seeds[-1], given) > 0, "no turns were stored")
    _require(random.getstate() == before, GLOBAL_RANDOM.format(seed=seeds[-1]))
    check_baselines(definition, seeds[0], given)
    _require(random.getstate() == before, GLOBAL_RANDOM.format(seed=seeds[0]))


def record_playthrough(
    definition: GameDefinition, seed: int, options: dict[str, Any] | None = None, rng_seed: int = 0
) -> dict[str, Any]:
    """A golden playthrough: seed, options, and per step the actions, every seat's
    observation and the turn states, then the final full state and scores."""
    given = dict(options or {})
    state = definition.create(seed, given)
    rng = random.Random(rng_seed)
    steps: list[dict[str, Any]] = []
    while not state.over():
        _require(len(steps) < MAX_STEPS, f"no end after {MAX_STEPS} steps")
        observations = {seat: observed(state, seat) for seat in state.seats}
        actions = {seat: state.sample_action(seat, rng) for seat in state.pending()}
        state.apply(actions)
        steps.append(
            {
                "observations": observations,
                "actions": {seat: as_json(a.model_dump(mode="json")) for seat, a in actions.items()},
                "states": {seat: as_json(state.turn_state(seat)) for seat in actions},
            }
        )
    return {
        "game": definition.name,
        "version": definition.version,
        "seed": seed,
        "options": given,
        "steps": steps,
        "final_state": as_json(state.to_json()),
        "returns": state.returns(),
    }


def check_playthrough(definition: GameDefinition, golden: dict[str, Any]) -> None:
    """Replay a golden playthrough's actions and compare every step.

    A golden file recorded under another game version is refused: record it again with
    the version bump that comes with any rule change.
    """
    _require(
        golden["version"] == definition.version,
        f"golden playthrough is for {definition.name} {golden['version']}, the game is "
        f"{definition.version}: record it again",
    )
    state = definition.create(golden["seed"], golden["options"])
    for index, step in enumerate(golden["steps"]):
        for seat, expected in step["observations"].items():
            _require(observed(state, seat) == expected, f"step {index}: {seat!r}'s observation differs")
        actions = {s: state.action_model(s).model_validate(a) for s, a in step["actions"].items()}
        _require(sorted(actions) == sorted(state.pending()), f"step {index}: pending seats differ")
        state.apply(actions)
        for seat, expected in step["states"].items():
            _require(as_json(state.turn_state(seat)) == expected, f"step {index}: {seat!r}'s state differs")
    _require(state.over(), "the golden playthrough ended but the game did not")
    _require(as_json(state.to_json()) == golden["final_state"], "the final state differs")
    _require(as_json(state.returns()) == golden["returns"], "the returns differ")
