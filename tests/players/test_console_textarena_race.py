"""A person races a baseline on one seeded TextArena puzzle at the console (Tower of Hanoi).

The real runner, store, live output and console human, wired as ``arena play`` wires them: both
seats are asked at once, each move goes to the seat's own copy of the same puzzle, and the
person, typing the seven-move solution, finishes first with the full reward; the stored turns
are what the person typed and the scores are the rewards less a millionth per step.
"""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from arena.cli.output import LiveOutput
from arena.engine.match import MatchConfig, prepare_runner, run_to_end
from arena.store.database import Store
from players.console_human import ConsoleDesk, ConsoleHuman
from tests.support.episodes import stored_turns
from tests.support.optional import needs

pytestmark = needs("textarena")

SOLUTION = ["[A C]", "[A B]", "[C B]", "[A C]", "[B A]", "[B C]", "[A C]"]


class Solver:
    """Types the solution, one move a question, and keeps what it saw."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.typed: list[str] = []

    def write(self, text: str) -> None:
        self.log.append(text)

    def read(self, prompt: str) -> str:
        self.log.append(prompt)
        if prompt.strip().startswith("reason"):
            return "the known solution"
        move = SOLUTION[len(self.typed)]
        self.typed.append(move)
        return move


async def test_a_person_races_a_baseline_on_the_same_puzzle(tmp_path: Path) -> None:
    person = Solver()
    store = Store(tmp_path / "arena.db")
    desk = ConsoleDesk()
    live = LiveOutput(Console(file=io.StringIO(), width=100, color_system=None), before_output=desk.end_line)
    desk.show_board = live.show_board
    config = MatchConfig(
        game="textarena:TowerOfHanoi-v0", seats={"p0": "human", "p1": "baseline:random"}, seed=5
    )
    runner = prepare_runner(
        config, store, [live], human_factory=lambda seat: ConsoleHuman(person.read, person.write, desk=desk)
    )
    live.game = runner.game
    outcome = await run_to_end(runner)
    try:
        assert outcome.status == "finished", outcome.message
        assert outcome.episode_id is not None
        turns = stored_turns(store, outcome.episode_id)
        mine = [t for t in turns if t["seat"] == "p0"]
        assert [t["action"]["move"] for t in mine] == person.typed == SOLUTION
        # both racers saw the same puzzle first
        first = {t["seat"]: t["observation"]["messages"] for t in turns if t["observation"]["turn"] == 0}
        assert first["p0"] == first["p1"]
        results = outcome.results
        assert results["p0"].metrics["reward"] == 1.0 and results["p0"].metrics["steps"] == 7
        assert results["p0"].score == 1.0 - 7e-6
        assert results["p0"].score >= results["p1"].score
    finally:
        store.close()
