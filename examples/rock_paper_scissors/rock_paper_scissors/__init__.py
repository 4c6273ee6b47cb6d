"""Rock-paper-scissors: the smallest example of a game that lives outside Arena."""

from rock_paper_scissors.game import DEFINITION, RpsDefinition, RpsObservation, RpsOptions, RpsState, Throw

__all__ = ["DEFINITION", "RpsDefinition", "RpsObservation", "RpsOptions", "RpsState", "Throw"]
