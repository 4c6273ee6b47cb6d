"""A one-player TextArena puzzle raced: each seat plays its own copy of the same seeded puzzle.

Every seat's copy is the environment made and reset with the episode's seed (one player), so
all seats face the same puzzle, each with its own generator from that seed (a puzzle that
draws while it is played, 2048's new tiles, draws the same numbers for the same moves). The
seats move turn for turn: every seat whose copy is not over is asked at once, and each move
goes to that seat's copy only. A seat's score is its copy's reward from TextArena, less one
millionth per step it used, so the higher reward wins and equal rewards go to the racer who
used fewer steps; the metrics keep both apart (``reward``, ``steps``).
"""

from __future__ import annotations

import copy
import json
from typing import Any, Self

from pydantic import BaseModel

from arena.contract.game import GameDefinition, SeatResult
from games.textarena_catalogue.episode import Episode
from games.textarena_catalogue.messages import conversation
from games.textarena_catalogue.moves import listed_moves
from games.textarena_catalogue.observation import TextArenaAction, TextArenaMessage, TextArenaObservation
from games.textarena_catalogue.seats import player_id
from games.textarena_catalogue.state import TextArenaState

STEP_PENALTY = 1e-6
"""What a step costs in the score: small enough that it only orders equal rewards."""


class TextArenaRaceState(TextArenaState):
    """A raced puzzle: one :class:`Episode` (player 0) per seat, all from the same seed."""

    def __init__(
        self, definition: GameDefinition[BaseModel, TextArenaObservation, Any], seed: int, options: BaseModel
    ) -> None:
        super().__init__(definition, seed, options)
        self.steps: list[dict[str, str]] = []
        """Each step's moves, by seat (the seats whose copies were not over)."""
        self._copies: list[Episode] | None = None
        self._race_trials: dict[tuple[str, str], tuple[str | None, Episode]] = {}
        self._race_moves: dict[str, tuple[int, list[str]]] = {}

    # -- the copies -------------------------------------------------------------------
    @property
    def copies(self) -> list[Episode]:
        """Each seat's copy of the puzzle (made on first use)."""
        if self._copies is None:
            first = self.definition.start_episode(self.seed, self.options)
            self._copies = [first] + [first.copy() for _ in self.seats[1:]]
        return self._copies

    @property
    def episode(self) -> Episode:
        """The first seat's copy (what is common to all: the rules, the environment's facts)."""
        return self.copies[0]

    def _copy_of(self, seat: str) -> Episode:
        return self.copies[player_id(seat)]

    def _key(self) -> tuple[Any, ...]:
        return (self.definition.name, self.seed, self._options_json(), json.dumps(self.steps, sort_keys=True))

    def _register(self) -> None:  # races are replayed, never copied from a live state
        self._live_key = None

    # -- the contract -----------------------------------------------------------------
    def pending(self) -> list[str]:
        """Every seat whose copy is not over (all move at once, turn for turn)."""
        return [seat for seat in self.seats if not self._copy_of(seat).done]

    def legal_moves(self, seat: str) -> list[str]:
        """The moves ``seat``'s copy accepts now (empty once it is over or its moves are not listed)."""
        if seat not in self.pending():
            return []
        known = self._race_moves.get(seat)
        if known is None or known[0] != len(self.steps):
            found = listed_moves(self.definition.listing, self._copy_of(seat), 0)
            if self.definition.listing.filtered:  # the environment's own verdict, each on a copy
                found = [move for move in found if self._race_trial(seat, move)[0] is None]
            known = (len(self.steps), found)
            self._race_moves[seat] = known
        return list(known[1])

    def observation(self, seat: str) -> TextArenaObservation:
        """What ``seat``'s copy told its player, and its moves now."""
        pending = seat in self.pending()
        moves = self.legal_moves(seat)
        return TextArenaObservation(
            game=self.definition.listing.env_id,
            player=0,
            turn=len(self.steps),
            your_turn=pending,
            messages=[
                TextArenaMessage(sender=m.sender, text=m.text, kind=m.kind)
                for m in self._copy_of(seat).histories[0]
            ],
            moves=moves,
            examples=self.examples() if pending and not moves else [],
        )

    def conversation(self, seat: str) -> str:
        """``seat``'s copy's messages as TextArena's LLM wrapper writes them."""
        return conversation(self._copy_of(seat).histories[0])

    def library_rewards(self) -> dict[str, float]:
        """Each seat's copy's TextArena reward, by seat (a copy not over yet has none)."""
        return {
            seat: (self._copy_of(seat).rewards or {})[0] for seat in self.seats if self._copy_of(seat).rewards
        }

    def history(self, seat: str) -> list[Any]:
        """Every message ``seat``'s player received (its own copy's)."""
        return list(self._copy_of(seat).histories[0])

    def validate(self, seat: str, action: TextArenaAction) -> str | None:
        """TextArena's own verdict on ``seat``'s copy."""
        if action.move in self.legal_moves(seat):
            return None
        reason = self._race_trial(seat, action.move)[0]
        return None if reason is None else f"TextArena refused the move {action.move!r}: {reason}"

    def _race_trial(self, seat: str, move: str) -> tuple[str | None, Episode]:
        key = (seat, move)
        if key not in self._race_trials:
            self._race_trials[key] = self._copy_of(seat).trial(move)
        return self._race_trials[key]

    def apply(self, actions: dict[str, TextArenaAction]) -> None:
        """Each pending seat's move to its own copy."""
        if self._read_only:
            raise RuntimeError("a with_sentinel copy shares its environments and cannot be played")
        step = {seat: actions[seat].move for seat in self.pending()}
        copies = self.copies
        for seat, move in step.items():
            trial = self._race_trials.get((seat, move))
            if trial is not None:
                copies[player_id(seat)] = trial[1]
            else:
                copies[player_id(seat)].step(move)
        self.steps.append(step)
        self._race_trials.clear()
        self._race_moves.clear()

    def result(self) -> dict[str, SeatResult]:
        """Each copy's reward less a millionth per step used (0 until TextArena gives the reward)."""
        results = {}
        for seat in self.seats:
            episode = self._copy_of(seat)
            reward = float((episode.rewards or {}).get(0, 0.0))
            used = sum(1 for step in self.steps if seat in step)
            info = episode.game_info.get(0, {})
            metrics = {
                "reward": reward,
                "steps": used,
                "refused_moves": episode.invalid_moves[0],
                "lost_on_invalid_move": bool(info.get("invalid_move", False)),
            }
            results[seat] = SeatResult(score=round(reward - STEP_PENALTY * used, 9), metrics=metrics)
        return results

    def turn_state(self, seat: str) -> dict[str, Any]:
        """The step's news for ``seat``: its move and what its copy told it."""
        last = self.steps[-1] if self.steps else {}
        episode = self._copy_of(seat)
        return {
            "turn": len(self.steps),
            "move": last.get(seat),
            "new_messages": [{"sender": m.sender, "text": m.text, "kind": m.kind} for m in episode.latest[0]],
            "over": episode.done,
        }

    def to_json(self) -> dict[str, Any]:
        """The seed, options and every step's moves (the race is those replayed), and each seat's messages."""
        return {
            **self._json_head(),
            "race": True,
            "steps": [dict(step) for step in self.steps],
            "messages": {
                seat: [[m.sender, m.text, m.kind] for m in self._copy_of(seat).histories[0]]
                for seat in self.seats
            },
        }

    @classmethod
    def rebuild(
        cls,
        definition: GameDefinition[BaseModel, TextArenaObservation, Any],
        data: dict[str, Any],
        *,
        reuse: bool,
    ) -> Self:
        """The race of ``data``, replayed from the seed."""
        state = cls(definition, int(data["seed"]), definition.Options.model_validate(data["options"]))
        for step in data["steps"]:
            state.apply({seat: TextArenaAction(move=str(move)) for seat, move in step.items()})
        return state

    def with_sentinel(self, seat: str, sentinel: int) -> Self | None:
        """A read-only copy where ``seat``'s messages (its copy's, all private) read ``sentinel``."""
        twin = copy.copy(self)
        twin._copies = list(self.copies)
        mine = self._copy_of(seat).sharing_environment()
        history = mine.histories[0]
        for i, m in enumerate(history):
            history[i] = type(m)(m.sender_id, m.sender, f"{m.text} <{sentinel}>", m.kind)
        twin._copies[player_id(seat)] = mine
        twin._read_only = True
        twin._race_trials = {}
        twin._race_moves = {}
        return twin
