"""Playing an episode: lineups, the runner, the recorder, run controls and exports."""
