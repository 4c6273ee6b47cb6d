"""Players: scripted baselines, humans and language models."""
