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


class LazyMove(Baseline[TextArenaObservation, TextArenaAction]):
    """Half the time the first move the environment accepts now (the fallback's choice), otherwise a
    uniformly random one; where moves cannot be listed, the same over the example moves. A second
    reference player for tournaments: a fixed move alone could repeat forever (HighSociety's tied
    bids), a coin keeps every game ending as the random player's do."""

    name = "lazy"

    def choose(self, observation: TextArenaObservation) -> TextArenaAction:
        """The first of the moves (else example moves) on heads, a random one on tails."""
        moves = observation.moves or observation.examples
        if self.rng.random() < 0.5:
            return TextArenaAction(move=moves[0], reason="the first move")
        return TextArenaAction(move=self.rng.choice(moves), reason="a random move")


BASELINES = baseline_table(RandomMove, LazyMove)
