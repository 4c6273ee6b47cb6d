"""One OpenSpiel episode as an Arena state: the library's state plus the episode's own chance RNG.

Chance nodes never reach a seat: each is drawn at once from ``random.Random(seed)`` by the
game's own outcome probabilities (``rng.choices(outcomes, probabilities)``), so an episode is
a function of its seed and the seats' moves, and anyone can redo it in OpenSpiel. A
simultaneous node asks every seat with a legal move at once (one Arena step). The JSON state
is the seed, the options and the history (``(player, action id)``, chance included);
``from_json`` replays it, redrawing chance, and refuses a history that does not replay.
"""

from __future__ import annotations

import copy
import random
from typing import TYPE_CHECKING, Any, Self

from pydantic import BaseModel

from arena.contract.game import GameDefinition, GameState, SeatResult
from games.openspiel_catalogue.library import CHANCE
from games.openspiel_catalogue.models import OpenSpielMove, OpenSpielObservation, move_model

if TYPE_CHECKING:
    from games.openspiel_catalogue.definition import OpenSpielDefinition

Definition = GameDefinition[BaseModel, OpenSpielObservation, Any]


class OpenSpielState(GameState[BaseModel, OpenSpielObservation, OpenSpielMove]):
    """An OpenSpiel game in play: ``spiel`` is the library's state, ``history`` every entry with its name."""

    def __init__(self, definition: Definition, seed: int, options: BaseModel) -> None:
        super().__init__(definition, seed, options)
        self.spiel_definition: OpenSpielDefinition = definition  # type: ignore[assignment]
        facts = self.spiel_definition.facts(options)
        self.game: Any = self.spiel_definition.game_for(seed, options)
        self.perfect = facts.perfect
        self.view_kind = facts.view_kind
        self.move_cap: int = getattr(options, "move_cap", 0)
        self.spiel: Any = self.game.new_initial_state()
        self.chance = random.Random(seed)
        self.history: list[tuple[int, int, str]] = []
        """(player, action id, action name) in the order applied; chance is player -1."""
        self.steps = 0
        self.step_start = 0
        """Where the last step's entries begin in ``history`` (its moves, then the chance drawn after it)."""
        self._legal: dict[int, tuple[list[int], tuple[str, ...]]] = {}
        self._pending: list[str] | None = None
        self._texts: list[str] = []
        """``SEAT NAME`` of each history entry (what observations show), made once."""
        self._marks: dict[int, str] = {}
        """A sentinel per player written after that player's string and moves (:meth:`with_sentinel`)."""
        self._draw_chance()

    # -- the library --------------------------------------------------------------------
    def _draw_chance(self) -> None:
        spiel = self.spiel
        while spiel.is_chance_node():
            outcomes = spiel.chance_outcomes()
            action = self.chance.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            self._record(CHANCE, action)
            spiel.apply_action(action)

    def legal(self, player: int) -> tuple[list[int], tuple[str, ...]]:
        """The legal action ids of ``player`` now and their names (computed once per position)."""
        found = self._legal.get(player)
        if found is None:
            ids = list(self.spiel.legal_actions(player))
            found = (ids, tuple(self.spiel.action_to_string(player, a) for a in ids))
            self._legal[player] = found
        return found

    def apply_ids(self, ids: dict[int, int]) -> None:
        """Apply one step given as action ids by player (every acting player at a simultaneous node)."""
        start = len(self.history)
        spiel = self.spiel
        if spiel.is_simultaneous_node():
            joint = [ids[p] for p in range(self.game.num_players())]
            for player, action in enumerate(joint):
                self._record(player, action)
            spiel.apply_actions(joint)
        else:
            ((player, action),) = ids.items()
            self._record(player, action)
            spiel.apply_action(action)
        self.steps += 1
        self._legal = {}
        self._pending = None
        self._draw_chance()
        self.step_start = start

    def _record(self, player: int, action: int) -> None:
        name = self.spiel.action_to_string(player, action)
        self.history.append((player, action, name))
        self._texts.append(f"{self.seat_of(player)} {name}")

    def player(self, seat: str) -> int:
        """The library's player number of ``seat``."""
        return self.seats.index(seat)

    @property
    def capped(self) -> bool:
        """True once Arena's move cap stopped a game the library had not ended."""
        return bool(self.move_cap) and self.steps >= self.move_cap and not self.spiel.is_terminal()

    # -- contract -----------------------------------------------------------------------
    def over(self) -> bool:
        return bool(self.spiel.is_terminal()) or self.capped

    def pending(self) -> list[str]:
        if self._pending is None:  # asked many times a step: once per position
            if self.over():
                self._pending = []
            elif self.spiel.is_simultaneous_node():
                self._pending = [seat for p, seat in enumerate(self.seats) if self.legal(p)[0]]
            else:
                self._pending = [self.seats[self.spiel.current_player()]]
        return list(self._pending)

    def observation(self, seat: str) -> OpenSpielObservation:
        player = self.player(seat)
        spiel = self.spiel
        if self.view_kind == "information_state_string":
            view = spiel.information_state_string(player)
        else:
            view = spiel.observation_string(player)
        marks = self._marks
        if self.perfect:
            texts, ids = list(self._texts), [action for _, action, _ in self.history]
        else:
            own = [index for index, entry in enumerate(self.history) if entry[0] == player]
            texts, ids = [self._texts[i] for i in own], [self.history[i][1] for i in own]
            if marks:  # each entry carries its own player's mark: shown to another seat, it is a leak
                view += marks.get(player, "")
                texts = [self._texts[i] + marks.get(self.history[i][0], "") for i in own]
        return OpenSpielObservation(
            game=str(self.game),
            seat=seat,
            player=player,
            view_kind=self.view_kind,
            view=view,
            legal_moves=list(self.legal(player)[1]) if seat in self.pending() else [],
            moves_seen="all" if self.perfect else "own",
            moves=texts,
            move_ids=ids,
            move_number=self.steps,
            over=self.over(),
        )

    def seat_of(self, player: int) -> str:
        """The seat of a library player number (``chance`` for -1)."""
        return "chance" if player == CHANCE else self.seats[player]

    def action_model(self, seat: str) -> type[OpenSpielMove]:
        if seat not in self.pending():
            return OpenSpielMove
        return move_model(self.legal(self.player(seat))[1])

    def validate(self, seat: str, action: OpenSpielMove) -> str | None:
        if seat not in self.pending():
            return f"it is not {seat}'s turn"
        names = self.legal(self.player(seat))[1]
        if action.move not in names:
            return f"{action.move!r} is not a legal move now (legal: {', '.join(names)})"
        return None

    def fallback(self, seat: str) -> OpenSpielMove:
        """The first legal move in the library's order (the lowest action id)."""
        names = self.legal(self.player(seat))[1]
        return move_model(names)(move=names[0], reason="fallback: the first legal move")

    def sample_action(self, seat: str, rng: random.Random) -> OpenSpielMove:
        names = self.legal(self.player(seat))[1]
        return move_model(names)(move=rng.choice(names), reason="random legal move")

    def apply(self, actions: dict[str, OpenSpielMove]) -> None:
        pending = self.pending()
        if sorted(actions) != sorted(pending):
            raise ValueError(f"expected moves from {pending}, got {sorted(actions)}")
        ids = {}
        for seat, action in actions.items():
            problem = self.validate(seat, action)
            if problem:
                raise ValueError(problem)
            player = self.player(seat)
            legal_ids, names = self.legal(player)
            ids[player] = legal_ids[names.index(action.move)]
        self.apply_ids(ids)

    def result(self) -> dict[str, SeatResult]:
        returns = self.spiel.returns()
        capped = self.capped
        return {
            seat: SeatResult(score=float(returns[p]), metrics={"capped": capped, "moves": self.steps})
            for p, seat in enumerate(self.seats)
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "game": str(self.game),
            "seed": self.seed,
            "options": self.options.model_dump(mode="json"),
            "history": [[player, action] for player, action, _ in self.history],
            "steps": self.steps,
            **({"sentinels": {str(p): mark for p, mark in self._marks.items()}} if self._marks else {}),
        }

    @classmethod
    def from_json(cls, definition: Definition, data: dict[str, Any]) -> Self:
        state = cls(definition, data["seed"], definition.Options.model_validate(data["options"]))
        entries = [(int(p), int(a)) for p, a in data["history"]]
        index = len(state.history)  # the chance drawn before the first move
        while index < len(entries):
            player, action = entries[index]
            if player == CHANCE:
                raise ValueError(f"stored chance outcome {action} (entry {index}) is not what the seed draws")
            if state.spiel.is_simultaneous_node():
                width = state.game.num_players()
                state.apply_ids(dict(entries[index : index + width]))
            else:
                state.apply_ids({player: action})
            index = len(state.history)
        if [(p, a) for p, a, _ in state.history] != entries or state.steps != data["steps"]:
            raise ValueError("the stored history does not replay from its seed")
        return state

    def clone(self) -> Self:
        twin = copy.copy(self)
        twin.spiel = self.spiel.clone()
        twin.chance = random.Random()
        twin.chance.setstate(self.chance.getstate())
        twin.history = list(self.history)
        twin._texts = list(self._texts)
        twin._legal = {}
        twin._pending = None
        return twin

    def with_sentinel(self, seat: str, sentinel: int) -> Self | None:
        """In a game of hidden information, a copy whose ``seat`` has ``sentinel`` written after its
        library string and its own moves (what only it may know); ``None`` in a perfect-information game."""
        if self.perfect:
            return None
        twin = self.clone()
        twin._marks = {**self._marks, self.player(seat): f" <{sentinel}>"}
        return twin

    def turn_state(self, seat: str) -> dict[str, Any]:
        """The step's entries by id and name (moves, then the chance drawn after), the library's state."""
        return {
            "step": self.steps,
            "entries": [[p, a, n] for p, a, n in self.history[self.step_start :]],
            "state": str(self.spiel),
            "returns": list(self.spiel.returns()) if self.over() else None,
        }
