"""A person plays TextArena's tic-tac-toe at the console against a random baseline.

The real runner, store, live output and :class:`~players.console_human.ConsoleHuman`, wired as
``arena play`` wires them. The move is one of the legal moves TextArena lists, in its own
format (``[4]``): the person first types a taken cell after their first move, which the form
refuses naming the moves there are and asks again, then always the first cell listed.
"""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from arena.cli.output import LiveOutput
from arena.engine.match import MatchConfig, prepare_runner, run_to_end
from arena.engine.runner import EpisodeRunner
from arena.store.database import Store
from players.console_human import ConsoleDesk, ConsoleHuman
from tests.support.episodes import stored_turns


class TicTacToePerson:
    """Answers the console's prompts from what the seat may know, and keeps every line it saw."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.typed: list[str] = []
        self.runner: EpisodeRunner | None = None
        self.refused: str | None = None

    def write(self, text: str) -> None:
        self.log.append(text)

    def read(self, prompt: str) -> str:
        self.log.append(prompt)
        if prompt.strip().startswith("reason"):
            return "the first open cell"
        from games.textarena_catalogue.state import TextArenaState

        assert self.runner is not None and isinstance(self.runner.game, TextArenaState)
        moves = self.runner.game.observation("p0").moves
        if self.typed and self.refused is None:
            self.refused = self.typed[0]  # the cell taken on the first move
            return self.refused
        self.typed.append(moves[0])
        return moves[0]


async def test_a_person_plays_textarena_tic_tac_toe_at_the_console(tmp_path: Path) -> None:
    person = TicTacToePerson()
    store = Store(tmp_path / "arena.db")
    buffer = io.StringIO()
    desk = ConsoleDesk()
    live = LiveOutput(Console(file=buffer, width=100, color_system=None), before_output=desk.end_line)
    desk.show_board = live.show_board
    config = MatchConfig(
        game="textarena:TicTacToe-v0", seats={"p0": "human", "p1": "baseline:random"}, seed=3
    )
    runner = prepare_runner(
        config, store, [live], human_factory=lambda seat: ConsoleHuman(person.read, person.write, desk=desk)
    )
    person.runner = runner
    live.game = runner.game
    outcome = await run_to_end(runner)
    try:
        assert outcome.status == "finished", outcome.message
        assert outcome.episode_id is not None
        turns = [t for t in stored_turns(store, outcome.episode_id) if t["seat"] == "p0"]
        assert [t["action"]["move"] for t in turns] == person.typed and len(turns) >= 2
        assert person.refused is not None, "the person tried a taken cell once"
        # the form offers the legal moves only (issue 45): a taken cell is refused before it is
        # sent, naming the moves there are, then the question again
        refusal = next(line for line in person.log if f"not {person.refused!r}" in line)
        assert (
            refusal.strip().startswith("move must be one of ") and person.refused not in refusal.split(",")[0]
        )
        assert person.log[person.log.index(refusal) + 1].strip().startswith("move (")
        # before each form the person sees TextArena's latest message to their player and the moves
        shown = buffer.getvalue()
        for turn in turns:
            latest = turn["observation"]["messages"][-1]["text"]
            assert latest.strip().splitlines()[-1] in shown
            assert "Moves: " + ", ".join(turn["observation"]["moves"]) in shown
        for turn in turns:  # the question offers exactly the moves there are (issue 45: legal choices only)
            assert f"  move ({' / '.join(turn['observation']['moves'])}): " in person.log
        scores = {seat: result.score for seat, result in outcome.results.items()}
        assert set(scores) == {"p0", "p1"} and sorted(scores.values()) in ([-1.0, 1.0], [0.0, 0.0])
    finally:
        store.close()
