"""The TextArena games' reference opponent: a uniformly random legal move."""

from __future__ import annotations

from arena.contract.baseline import Baseline, baseline_table
from games.textarena_catalogue.observation import TextArenaAction, TextArenaObservation


class RandomMove(Baseline[TextArenaObservation, TextArenaAction]):
    """Plays a uniformly random move among those the environment accepts now; where a game's moves
    cannot be listed, a random one of its example moves (the environment judges it)."""

    name = "random"

    def choose(self, observation: TextArenaObservation) -> TextArenaAction:
        """One of the observation's legal moves (else example moves), drawn with the seat's own generator."""
        if observation.moves:
            return TextArenaAction(move=self.rng.choice(observation.moves), reason="random legal move")
        return TextArenaAction(move=self.rng.choice(observation.examples), reason="random example move")


BASELINES = baseline_table(RandomMove)
"""The definitions' ``baselines``."""
