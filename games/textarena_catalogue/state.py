"""An Arena state over one TextArena episode: seats ``p0``, ``p1``, ... for TextArena's players 0, 1, ...

The state is its seed, its options and the actions so far: ``to_json`` writes those and
``from_json`` rebuilds the environment by replaying the actions from the seed (isolated, so the
library draws the same numbers again). A state this process still holds at that point is
copied instead of replayed (``_LIVE``), which keeps the conformance checker's round trip at
every step from replaying whole episodes.

An action is checked by TextArena itself before it counts: :meth:`validate` steps a copy of
the environment, and a move it refuses comes back as the refusal's reason, which Arena's
runner treats as an illegal answer (it asks again with that reason, then plays the
fallback). The move lists of :mod:`.moves` let known-legal moves skip that copy.
"""

from __future__ import annotations

import copy
import json
import random
import weakref
from typing import TYPE_CHECKING, Any, Self

from pydantic import BaseModel

from arena.contract.game import GameDefinition, GameState, SeatResult
from games.textarena_catalogue.episode import Episode
from games.textarena_catalogue.messages import conversation
from games.textarena_catalogue.moves import listed_moves
from games.textarena_catalogue.observation import (
    TextArenaAction,
    TextArenaMessage,
    TextArenaObservation,
    listed_move_action,
)
from games.textarena_catalogue.seats import player_id, seat_name

if TYPE_CHECKING:
    from games.textarena_catalogue.definition import TextArenaDefinition

_LIVE: weakref.WeakValueDictionary[tuple[Any, ...], TextArenaState] = weakref.WeakValueDictionary()
"""Live states by (game, seed, options, actions so far): ``from_json`` copies one instead of replaying."""


class TextArenaState(GameState[BaseModel, TextArenaObservation, TextArenaAction]):
    """One TextArena episode as an Arena state."""

    definition: TextArenaDefinition

    def __init__(
        self, definition: GameDefinition[BaseModel, TextArenaObservation, Any], seed: int, options: BaseModel
    ) -> None:
        super().__init__(definition, seed, options)
        self.actions: list[str] = []
        self._episode: Episode | None = None
        self._trials: dict[str, tuple[str | None, Episode]] = {}
        self._moves: tuple[int, list[str]] | None = None
        self._live_key: tuple[Any, ...] | None = None
        self._read_only = False
        self._options_text: str | None = None
        self._pending: list[str] | None = None
        self._message_models: dict[int, list[TextArenaMessage]] = {}
        """Each player's messages as observation models, made once each (histories only grow)."""

    # -- the episode ------------------------------------------------------------------
    @property
    def episode(self) -> Episode:
        """The environment's episode (made on first use)."""
        if self._episode is None:
            self._episode = self.definition.start_episode(self.seed, self.options)
            self._register()
        return self._episode

    def _key(self) -> tuple[Any, ...]:
        return (self.definition.name, self.seed, self._options_json(), tuple(self.actions))

    def _options_json(self) -> str:
        if self._options_text is None:  # the options never change: written once
            self._options_text = json.dumps(self.options.model_dump(mode="json"), sort_keys=True)
        return self._options_text

    def _register(self) -> None:
        self._live_key = self._key()
        _LIVE[self._live_key] = self

    def _step(self, text: str) -> None:
        if self._read_only:
            raise RuntimeError("a with_sentinel copy shares its environment and cannot be played")
        trial = self._trials.get(text)
        if trial is not None:
            self._episode = trial[1]  # the copy that already took this step
        else:
            self.episode.step(text)
        self.actions.append(text)
        self._trials.clear()
        self._moves = None
        self._pending = None
        self._register()

    # -- the contract -----------------------------------------------------------------
    def pending(self) -> list[str]:
        """The seat TextArena expects the next action from (none once it says the game is over)."""
        if self._pending is None:  # asked many times a step; it changes only with a step
            episode = self.episode
            self._pending = [] if episode.done else [seat_name(episode.current_player)]
        return list(self._pending)

    def legal_moves(self, seat: str) -> list[str]:
        """The moves the environment accepts from ``seat`` now (:mod:`.moves`), empty when not its turn."""
        if seat not in self.pending():
            return []
        if self._moves is None or self._moves[0] != len(self.actions):
            episode = self.episode
            found = listed_moves(self.definition.listing, episode, episode.current_player)
            if self.definition.listing.filtered:  # the environment's own verdict, each on a copy
                found = [move for move in found if self._trial(move)[0] is None]
            self._moves = (len(self.actions), found)
        return list(self._moves[1])

    def _trial(self, move: str) -> tuple[str | None, Episode]:
        trial = self._trials.get(move)
        if trial is None:
            trial = self.episode.trial(move)
            self._trials[move] = trial
        return trial

    def observation(self, seat: str) -> TextArenaObservation:
        """Every message TextArena sent ``seat``'s player, and its moves now."""
        player = player_id(seat)
        moves = self.legal_moves(seat)
        pending = seat in self.pending()
        return TextArenaObservation(
            game=self.definition.listing.env_id,
            player=player,
            turn=len(self.actions),
            your_turn=pending,
            messages=self._messages(player),
            moves=moves,
            examples=self.examples() if pending and not moves else [],
        )

    def _messages(self, player: int) -> list[TextArenaMessage]:
        made = self._message_models.setdefault(player, [])
        history = self.episode.histories[player]
        made += [TextArenaMessage(sender=m.sender, text=m.text, kind=m.kind) for m in history[len(made) :]]
        return list(made)

    def library_rewards(self) -> dict[str, float]:
        """TextArena's rewards by its player id (empty until the game is over)."""
        return {str(k): v for k, v in (self.episode.rewards or {}).items()}

    def history(self, seat: str) -> list[Any]:
        """Every message ``seat``'s player received, in order."""
        return list(self.episode.histories[player_id(seat)])

    def conversation(self, seat: str) -> str:
        """``seat``'s messages as TextArena's LLM wrapper writes them (the string ``ta.make(id)`` gives)."""
        return conversation(self.episode.histories[player_id(seat)])

    def action_model(self, seat: str) -> type[TextArenaAction]:
        """One of the legal moves where the environment's are listed now, else free text in its format."""
        moves = self.legal_moves(seat)
        return listed_move_action(tuple(moves)) if moves else TextArenaAction

    def validate(self, seat: str, action: TextArenaAction) -> str | None:
        """TextArena's own verdict: a move it would refuse comes back as its reason."""
        if action.move in self.legal_moves(seat):
            return None
        reason = self._trial(action.move)[0]
        return None if reason is None else f"TextArena refused the move {action.move!r}: {reason}"

    def fallback(self, seat: str) -> TextArenaAction:
        """The first legal move in the environment's order (a deterministic, legal move); for a free-move
        game its first example move, which the environment judges (its invalid-move rule decides)."""
        moves = self.legal_moves(seat)
        if moves:
            return self.action_model(seat)(move=moves[0], reason="fallback: the first legal move")
        return TextArenaAction(move=self.examples()[0], reason="fallback: the game's first example move")

    def examples(self) -> list[str]:
        """The stand-in moves where none are listed now (the environment judges them): a free-move
        game's example moves, or ``[pass]`` where the environment accepts no move at all (IndianPoker
        once a player's chips are below zero; its invalid-move rule then ends the game)."""
        return list(self.definition.listing.examples) or ["[pass]"]

    def sample_action(self, seat: str, rng: random.Random) -> TextArenaAction:
        """A uniformly random legal move (a random example move where moves are not listed)."""
        moves = self.legal_moves(seat)
        if moves:
            return self.action_model(seat)(move=rng.choice(moves), reason="random legal move")
        return TextArenaAction(move=rng.choice(self.examples()), reason="random example move")

    def apply(self, actions: dict[str, TextArenaAction]) -> None:
        """Forward the pending seat's move to TextArena."""
        for seat in self.pending():
            self._step(actions[seat].move)

    def result(self) -> dict[str, SeatResult]:
        """TextArena's rewards as scores (0 until it gives them), with its end-of-game facts."""
        episode = self.episode
        rewards = episode.rewards or {}
        results = {}
        for seat in self.seats:
            player = player_id(seat)
            info = episode.game_info.get(player, {})
            metrics = {
                "refused_moves": episode.invalid_moves[player],
                "lost_on_invalid_move": bool(info.get("invalid_move", False)),
                "turns": int(info.get("turn_count", 0)),
            }
            results[seat] = SeatResult(score=float(rewards.get(player, 0.0)), metrics=metrics)
        return results

    def turn_state(self, seat: str) -> dict[str, Any]:
        """The turn's news for ``seat`` (the messages this step brought it), not its whole history."""
        return {
            "turn": len(self.actions),
            "move": self.actions[-1] if self.actions else None,
            "new_messages": [
                {"sender": m.sender, "text": m.text, "kind": m.kind}
                for m in self.episode.latest[player_id(seat)]
            ],
            "over": self.episode.done,
        }

    def _json_head(self) -> dict[str, Any]:
        """What every stored state starts with: the environment, the library, the seed, the options."""
        return {
            "env": self.definition.listing.env_id,
            "library_version": self.definition.library_version,
            "seed": self.seed,
            "options": self.options.model_dump(mode="json"),
        }

    def to_json(self) -> dict[str, Any]:
        """The seed, options and actions (the episode is those replayed), and every seat's messages."""
        return {
            **self._json_head(),
            "actions": list(self.actions),
            "messages": {
                seat_name(player): [[m.sender, m.text, m.kind] for m in history]
                for player, history in enumerate(self.episode.histories)
            },
        }

    @classmethod
    def from_json(
        cls, definition: GameDefinition[BaseModel, TextArenaObservation, Any], data: dict[str, Any]
    ) -> Self:
        """The state ``to_json`` wrote: copied from a live one at that point, else replayed from the seed."""
        return cls.rebuild(definition, data, reuse=True)

    @classmethod
    def rebuild(
        cls,
        definition: GameDefinition[BaseModel, TextArenaObservation, Any],
        data: dict[str, Any],
        *,
        reuse: bool,
    ) -> Self:
        """The state of ``data``; ``reuse=False`` always replays the actions (what another process does)."""
        state = cls(definition, int(data["seed"]), definition.Options.model_validate(data["options"]))
        actions = [str(a) for a in data["actions"]]
        live = (
            _LIVE.get((definition.name, state.seed, state._options_json(), tuple(actions))) if reuse else None
        )
        if live is not None and live._episode is not None and live._live_key == live._key():
            state._episode = live._episode.copy()
            state.actions = actions
            state._register()
            return state
        for text in actions:
            state._step(text)
        return state

    def with_sentinel(self, seat: str, sentinel: int) -> Self | None:
        """A read-only copy where the messages only ``seat``'s player received read ``sentinel``.

        A message is private when another player did not receive it too (TextArena sends
        broadcasts to every player's queue). The copy shares the environment (it is never stepped:
        :meth:`apply` refuses), so the leak check costs no environment copy per seat and step.
        """
        episode = self.episode
        player = player_id(seat)
        others = {m for other, history in enumerate(episode.histories) if other != player for m in history}
        private = [i for i, m in enumerate(episode.histories[player]) if m not in others]
        if not private:
            return None
        twin = copy.copy(self)
        twin._episode = episode.sharing_environment()
        twin._live_key = None  # never copied for a round trip: its messages are not the episode's
        twin._read_only = True
        twin._message_models = {}  # its messages differ from this state's
        twin._trials = {}  # a copy tried from its marked messages must never be played by this state
        history = twin.episode.histories[player]
        for i in private:
            m = history[i]
            history[i] = type(m)(m.sender_id, m.sender, f"{m.text} <{sentinel}>", m.kind)
        return twin
