"""Golden results and playthroughs: what today's seeds give, recorded once and replayed by tests.

``results`` plays every baseline line-up of a game over fixed seeds and keeps each seat's
score and metrics. ``playthrough`` plays one seeded episode and keeps, per step, every
pending seat's observation, a hash of its prompt, its action and its stored turn state,
and the final full state. Run ``python -m tests.golden.record`` to (re)write the files;
only do that with a game version bump.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
from pathlib import Path
from typing import Any

from arena.contract.game import GameState
from arena.contract.records import Event, Observer, StepStarted, TurnsRecorded
from arena.engine.match import MatchConfig, play_match, prepare_runner, run_to_end

GOLDEN_DIR = Path(__file__).parent
SEEDS = range(20)

LEMONADE_BASELINES = ("cost-plus", "weather", "profit-max", "random")
BARGAIN_BASELINES = ("honest", "bluffing", "pushover", "tit-for-tat", "random")
PAPERCLIP_BASELINES = ("oracle", "sloppy", "random")
CATTLE_BASELINES = ("tracker", "set-racer", "cautious", "random")


def lineups(game: str, options: dict[str, Any]) -> list[tuple[str, ...]]:
    """Every baseline pairing recorded for ``game`` with ``options``.

    Two seats: every ordered pair. Three stands: every multiset of baselines (the stands are
    symmetric in the rules, so order adds nothing but size).
    """
    if game == "bargain":
        return list(itertools.product(BARGAIN_BASELINES, repeat=2))
    if game == "paperclip":
        return list(itertools.product(PAPERCLIP_BASELINES, repeat=options.get("seats", 2)))
    if game == "cattle":  # each baseline once, in every seat by rotation
        return [CATTLE_BASELINES[k:] + CATTLE_BASELINES[:k] for k in range(len(CATTLE_BASELINES))]
    if options["stands"] == 2:
        return list(itertools.product(LEMONADE_BASELINES, repeat=2))
    return list(itertools.combinations_with_replacement(LEMONADE_BASELINES, options["stands"]))


RESULT_SETS: dict[str, tuple[str, dict[str, Any]]] = {
    "lemonade_identical_2": ("lemonade", {"market": "identical", "stands": 2}),
    "lemonade_shared_2": ("lemonade", {"market": "shared", "stands": 2}),
    "lemonade_identical_3": ("lemonade", {"market": "identical", "stands": 3}),
    "lemonade_shared_3": ("lemonade", {"market": "shared", "stands": 3}),
    "bargain": ("bargain", {}),
    "paperclip_batch": ("paperclip", {"puzzles": 4}),
    "paperclip_stepwise": ("paperclip", {"puzzles": 3, "mode": "stepwise", "reporting": "touched"}),
    "cattle_4": ("cattle", {}),
}

PLAYTHROUGHS: dict[str, tuple[str, dict[str, Any], int, dict[str, str]]] = {
    "lemonade_identical": (
        "lemonade",
        {"days": 30},
        3,
        {"a": "baseline:weather", "b": "baseline:random"},
    ),
    "lemonade_shared_3": (
        "lemonade",
        {"days": 12, "stands": 3, "market": "shared"},
        8,
        {"a": "baseline:profit-max", "b": "baseline:random", "c": "baseline:cost-plus"},
    ),
    "paperclip_stepwise": (
        "paperclip",
        {"puzzles": 3, "mode": "stepwise", "tier": "hard"},
        4,
        {"a": "baseline:sloppy", "b": "baseline:random"},
    ),
    "paperclip_batch_1": ("paperclip", {"puzzles": 5, "seats": 1}, 9, {"a": "baseline:sloppy"}),
    "bargain_bluff": ("bargain", {}, 5, {"seller": "baseline:bluffing", "buyer": "baseline:random"}),
    # Cattle Trade's observations carry the whole public history, so a whole game's playthrough
    # would hold it once per step (megabytes): these stop at a turn cap.
    "cattle_4_canonical": (
        "cattle",
        {"turn_cap": 10},
        6,
        {
            "p1": "baseline:tracker",
            "p2": "baseline:set-racer",
            "p3": "baseline:cautious",
            "p4": "baseline:random",
        },
    ),
    "cattle_3_sealed": (
        "cattle",
        {"players": 3, "auction": "sealed", "turn_cap": 12},
        7,
        {"p1": "baseline:random", "p2": "baseline:tracker", "p3": "baseline:set-racer"},
    ),
    "cattle_5_sequential_notes": (
        "cattle",
        {"players": 5, "auction": "sequential", "notes": True, "turn_cap": 10},
        8,
        {
            seat: f"baseline:{name}"
            for seat, name in zip(
                ("p1", "p2", "p3", "p4", "p5"),
                ("cautious", "random", "tracker", "random", "set-racer"),
                strict=True,
            )
        },
    ),
    "bargain_honest": (
        "bargain",
        {"rounds": 12},
        17,
        {"seller": "baseline:honest", "buyer": "baseline:tit-for-tat"},
    ),
}


def seat_names(game: str, options: dict[str, Any]) -> tuple[str, ...]:
    """Seats of the recorded configurations (written out: goldens must not ask the code under test)."""
    if game == "bargain":
        return ("seller", "buyer")
    if game == "paperclip":
        return tuple("abcd"[: options.get("seats", 2)])
    if game == "cattle":
        return ("p1", "p2", "p3", "p4", "p5")[: options.get("players", 4)]
    return tuple("abcdefgh"[: options.get("stands", 2)])


def play_results(game: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Score and metrics per seat for every line-up and seed of one result set."""
    seats = seat_names(game, options)
    rows = []
    for lineup in lineups(game, options):
        for seed in SEEDS:
            assignment = {seat: f"baseline:{name}" for seat, name in zip(seats, lineup, strict=True)}
            config = MatchConfig(game=game, seats=assignment, seed=seed, options=options)
            outcome = asyncio.run(play_match(config, None))
            rows.append(
                {
                    "seed": seed,
                    "seats": assignment,
                    "status": outcome.status,
                    "scores": {seat: result.score for seat, result in outcome.results.items()},
                    "metrics": {seat: result.metrics for seat, result in outcome.results.items()},
                }
            )
    return rows


def prompt_hash(text: str) -> str:
    """A short hash of a prompt (full prompts are kept for the first step only)."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class _Tape(Observer):
    """Observer writing down every step of one episode."""

    def __init__(self) -> None:
        self.steps: list[dict[str, Any]] = []
        self.final: dict[str, Any] = {}
        self.game: GameState | None = None
        """The runner's state (events carry none)."""

    def __call__(self, event: Event) -> None:
        game = self.game
        assert game is not None
        if isinstance(event, StepStarted):
            step: dict[str, Any] = {"pending": list(event.seats), "seats": {}}
            for seat in event.seats:
                prompt = game.definition.prompt_for(game, seat)
                entry: dict[str, Any] = {
                    "observation": event.observations[seat].model_dump(mode="json"),
                    "prompt_hash": prompt_hash(prompt),
                }
                if not self.steps:
                    entry["prompt"] = prompt
                step["seats"][seat] = entry
            self.steps.append(step)
        elif isinstance(event, TurnsRecorded):
            step = self.steps[-1]
            for turn in event.turns:
                entry = step["seats"][turn.seat]
                entry["action"] = turn.action
                entry["action_text"] = turn.action_text
                entry["state"] = turn.state
            self.final = final_state(game)


def final_state(game: GameState) -> dict[str, Any]:
    """The full state a playthrough ends with, as the golden files hold it.

    Paperclip's ``to_json`` also carries the answers given (its ``from_json`` replays them);
    the golden files, recorded through the old ``snapshot()``, hold the state without them
    (the steps hold every answer).
    """
    state = game.to_json()
    if game.name == "paperclip":
        del state["answers"]
    return state


def play_through(name: str) -> dict[str, Any]:
    """One recorded playthrough: configuration, per-step seats and the final full state."""
    game, options, seed, seats = PLAYTHROUGHS[name]
    tape = _Tape()
    config = MatchConfig(game=game, seats=seats, seed=seed, options=options)
    runner = prepare_runner(config, None, [tape])
    tape.game = runner.game
    outcome = asyncio.run(run_to_end(runner))
    return {
        "game": game,
        "options": options,
        "seed": seed,
        "players": seats,
        "steps": tape.steps,
        "final_state": tape.final,
        "scores": {seat: result.score for seat, result in outcome.results.items()},
    }


CONTRACT_PLAYTHROUGHS: dict[str, tuple[int, dict[str, Any]]] = {
    "lemonade": (5, {"days": 8, "stands": 3, "market": "shared"}),
    "bargain": (5, {}),
    "paperclip": (5, {"puzzles": 3, "mode": "stepwise", "seats": 3}),
    "cattle": (5, {"players": 3, "turn_cap": 10}),
}
"""Per game: seed and options of the sampled playthrough checked by ``arena.testing``."""


def contract_path(game: str) -> Path:
    """Where ``game``'s sampled playthrough (``arena.testing.record_playthrough``) is stored."""
    return GOLDEN_DIR / "games" / f"{game}.json"


def normal(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


def results_path(name: str) -> Path:
    """Where result set ``name`` is stored."""
    return GOLDEN_DIR / "results" / f"{name}.json"


def playthrough_path(name: str) -> Path:
    """Where playthrough ``name`` is stored."""
    return GOLDEN_DIR / "playthroughs" / f"{name}.json"


def load(path: Path) -> Any:
    """A golden file's content."""
    return json.loads(path.read_text())
