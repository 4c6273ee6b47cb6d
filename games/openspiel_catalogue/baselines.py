"""Reference opponents for any OpenSpiel game: uniform random, and the library's own MCTS.

Both read only the seat's observation. MCTS is offered for sequential perfect-information
games only: there the observation holds every move (all are public), so the bot rebuilds the
library's state from the game string and the move ids. On an imperfect-information game it
would search the true state and cheat, so it is not offered there.
"""

from __future__ import annotations

from arena.contract.baseline import Baseline
from arena.contract.player import DecisionRequest
from games.openspiel_catalogue import library
from games.openspiel_catalogue.models import OpenSpielMove, OpenSpielObservation

MCTS_SIMULATIONS = 200
MCTS_UCT_C = 2.0


class RandomMove(Baseline[OpenSpielObservation, OpenSpielMove]):
    """Plays a legal move chosen uniformly at random (seeded per seat)."""

    name = "random"

    def act(self, request: DecisionRequest) -> OpenSpielMove:
        observation = request.observation
        assert isinstance(observation, OpenSpielObservation)
        move = self.rng.choice(observation.legal_moves)
        chosen = request.action_model.model_validate({"move": move, "reason": "random legal move"})
        assert isinstance(chosen, OpenSpielMove)
        return chosen


class MctsMove(Baseline[OpenSpielObservation, OpenSpielMove]):
    """OpenSpiel's own MCTSBot: 200 simulations per move, each scored by one random rollout
    (UCT constant 2), seeded per move from the seat's generator."""

    name = "mcts"

    def act(self, request: DecisionRequest) -> OpenSpielMove:
        observation = request.observation
        assert isinstance(observation, OpenSpielObservation) and observation.moves_seen == "all"
        pyspiel = library.spiel()
        game = library.load_string(observation.game)
        state = game.new_initial_state()
        for action in observation.move_ids:
            if state.is_simultaneous_node():
                raise ValueError("MCTS plays sequential games only")
            state.apply_action(action)
        seed = self.rng.randrange(2**31)
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        bot = pyspiel.MCTSBot(game, evaluator, MCTS_UCT_C, MCTS_SIMULATIONS, 1000, False, seed, False)
        action = bot.step(state)
        name = state.action_to_string(state.current_player(), action)
        chosen = request.action_model.model_validate(
            {"move": name, "reason": f"MCTS, {MCTS_SIMULATIONS} simulations"}
        )
        assert isinstance(chosen, OpenSpielMove)
        return chosen
