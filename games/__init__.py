"""Arena's games: one package per game, pure rules plus the game object, baselines and renderer."""
