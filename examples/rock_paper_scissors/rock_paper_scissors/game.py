"""Rock-paper-scissors over a few rounds: options, observation, action, rules, prompt and baselines.

It overrides only the required hooks and shows itself through the default view.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar, Literal, Self

from pydantic import BaseModel, Field

from arena.contract.baseline import Baseline, BaselineInfo, baseline_table
from arena.contract.game import GameDefinition, GameState, SeatResult
from arena.contract.templates import template_version

SEATS = ("a", "b")
THROWS: tuple[Literal["rock", "paper", "scissors"], ...] = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}

RULES = """\
Two players play {rounds} rounds of rock-paper-scissors. Each round both throw at once:
rock beats scissors, scissors beats paper, paper beats rock. A win scores one point."""

TEMPLATE = """\
{rules}

Round {round} of {rounds}. Score: you {you}, them {them}. Past rounds (you/them): {history}

Reply with only a JSON object: {{"throw": "rock" | "paper" | "scissors", "reason": one sentence}}"""


class RpsOptions(BaseModel):
    """How many rounds are played."""

    rounds: int = Field(5, ge=1, le=50, description="rounds played")


class Throw(BaseModel):
    """One throw."""

    throw: Literal["rock", "paper", "scissors"]
    reason: str = Field("", description="one sentence on why")


class RpsObservation(BaseModel):
    """What a seat knows: the round, both scores and every past round."""

    round: int
    rounds: int
    your_score: int
    their_score: int
    history: list[tuple[str, str]] = Field(description="past rounds as (your throw, their throw)")


class RpsState(GameState[RpsOptions, RpsObservation, Throw]):
    """Both seats throw at once; a win scores one point."""

    def __init__(self, definition: GameDefinition, seed: int, options: RpsOptions) -> None:
        super().__init__(definition, seed, options)
        self.rounds: list[dict[str, str]] = []

    def pending(self) -> list[str]:
        return list(SEATS) if len(self.rounds) < self.options.rounds else []

    def points(self, seat: str) -> int:
        other = SEATS[1 - SEATS.index(seat)]
        return sum(BEATS[played[seat]] == played[other] for played in self.rounds)

    def observation(self, seat: str) -> RpsObservation:
        other = SEATS[1 - SEATS.index(seat)]
        return RpsObservation(
            round=len(self.rounds) + 1,
            rounds=self.options.rounds,
            your_score=self.points(seat),
            their_score=self.points(other),
            history=[(played[seat], played[other]) for played in self.rounds],
        )

    def action_model(self, seat: str) -> type[Throw]:
        return Throw

    def fallback(self, seat: str) -> Throw:
        return Throw(throw="rock", reason="fallback: rock")

    def sample_action(self, seat: str, rng: random.Random) -> Throw:
        return Throw(throw=rng.choice(THROWS), reason="random throw")

    def apply(self, actions: dict[str, Throw]) -> None:
        self.rounds.append({seat: action.throw for seat, action in actions.items()})

    def result(self) -> dict[str, SeatResult]:
        return {seat: SeatResult(score=float(self.points(seat))) for seat in SEATS}

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "options": self.options.model_dump(), "rounds": self.rounds}

    @classmethod
    def from_json(cls, definition: GameDefinition, data: dict[str, Any]) -> Self:
        state = cls(definition, data["seed"], RpsOptions.model_validate(data["options"]))
        state.rounds = [dict(played) for played in data["rounds"]]
        return state


class Cycler(Baseline[RpsObservation, Throw]):
    """Throws rock, paper, scissors in turn."""

    name = "cycle"

    def choose(self, observation: RpsObservation) -> Throw:
        return Throw(throw=THROWS[(observation.round - 1) % 3], reason="next in the cycle")


class Beater(Baseline[RpsObservation, Throw]):
    """Throws what beats the other side's last throw (rock in the first round)."""

    name = "beat-last"

    def choose(self, observation: RpsObservation) -> Throw:
        if not observation.history:
            return Throw(throw="rock", reason="nothing to go on yet")
        last = observation.history[-1][1]
        throw = next(t for t in THROWS if BEATS[t] == last)
        return Throw(throw=throw, reason=f"{throw} beats their last {last}")


class RandomThrower(Baseline[RpsObservation, Throw]):
    """Throws at random."""

    name = "random"

    def choose(self, observation: RpsObservation) -> Throw:
        return Throw(throw=self.rng.choice(THROWS), reason="random throw")


class RpsDefinition(GameDefinition[RpsOptions, RpsObservation, RpsState]):
    """Rock-paper-scissors over a few rounds."""

    name: ClassVar[str] = "rock_paper_scissors"
    private_information: ClassVar[bool] = False  # both throws are shown once both are made
    version: ClassVar[str] = "0.1"
    title: ClassVar[str] = "Rock-paper-scissors"
    description: ClassVar[str] = "Two players throw rock, paper or scissors at once, for a few rounds."
    prompt_version: ClassVar[str] = template_version(RULES, TEMPLATE)
    Options = RpsOptions

    def seats(self, options: RpsOptions) -> tuple[str, ...]:
        return SEATS

    def state_class(self) -> type[RpsState]:
        return RpsState

    @property
    def baselines(self) -> Mapping[str, BaselineInfo]:
        return baseline_table(Cycler, Beater, RandomThrower)

    def rules(self, options: RpsOptions, seat: str) -> str:
        return RULES.format(rounds=options.rounds)

    def prompt(self, observation: RpsObservation, rules: str) -> str:
        history = ", ".join(f"{mine}/{theirs}" for mine, theirs in observation.history) or "none yet"
        return TEMPLATE.format(
            rules=rules,
            round=observation.round,
            rounds=observation.rounds,
            you=observation.your_score,
            them=observation.their_score,
            history=history,
        )


DEFINITION = RpsDefinition()
