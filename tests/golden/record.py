"""Write the golden files: ``python -m tests.golden.record`` (only with a game version bump)."""

from __future__ import annotations

import json
from pathlib import Path

from arena.plugins.games import get_game
from arena.testing import record_playthrough
from tests.golden.golden import (
    CONTRACT_PLAYTHROUGHS,
    PLAYTHROUGHS,
    RESULT_SETS,
    contract_path,
    play_results,
    play_through,
    playthrough_path,
    results_path,
)


def write(path: Path, value: dict[str, object]) -> None:
    """Write ``value`` as stable JSON, one row or step per line (diff-friendly, small)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    for key, item in sorted(value.items()):
        if isinstance(item, list):
            rows = ",\n  ".join(_dump(row) for row in item)
            lines.append(f"{json.dumps(key)}: [\n  {rows}\n ]")
        else:
            lines.append(f"{json.dumps(key)}: {_dump(item)}")
    path.write_text("{\n " + ",\n ".join(lines) + "\n}\n")


def _dump(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def main() -> None:
    """Record every result set and playthrough."""
    for game, (seed, options) in CONTRACT_PLAYTHROUGHS.items():
        write(contract_path(game), record_playthrough(get_game(game), seed, options, rng_seed=seed))
        print("wrote", contract_path(game))
    for name, (game, options) in RESULT_SETS.items():
        write(results_path(name), {"game": game, "options": options, "rows": play_results(game, options)})
        print("wrote", results_path(name))
    for name in PLAYTHROUGHS:
        write(playthrough_path(name), play_through(name))
        print("wrote", playthrough_path(name))


if __name__ == "__main__":
    main()
