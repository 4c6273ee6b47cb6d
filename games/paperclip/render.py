"""Rich rendering: boxes as coloured counts, the step being answered, graded answers vs truth.

The current puzzle shows its start and its operations, with the step now being answered
marked (stepwise) and, in the full view only, the true boxes after each step. The last
graded puzzle is shown as a side-by-side of each seat's reports against the truth, the
first error marked and every wrong step's tags listed. A seat's view shows only that
seat's own answers. Reports are parsed data (box letters, alphabetic colour names and
numbers), still shown as plain ``Text``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from arena.display.sanitize import plain_text
from games.paperclip.answers import normalise
from games.paperclip.generator import Puzzle
from games.paperclip.grading import Grade, scope
from games.paperclip.world import State

if TYPE_CHECKING:
    from games.paperclip.game import PaperclipState

COLOUR_STYLE = {
    "red": "bold red",
    "silver": "bold grey82",
    "black": "bold grey42",
    "blue": "bold blue",
    "green": "bold green",
    "gold": "bold yellow",
}
GRADE_STYLE = {"full": "bold green", "core": "bold yellow", "wrong": "bold red", "invalid": "bold magenta"}


def box_text(colours: dict[str, int]) -> Text:
    """One box as coloured counts: ``● 3 red  ● 2 silver`` (or ``empty``)."""
    text = Text()
    for colour, count in colours.items():
        if not count:
            continue
        if text:
            text.append("  ")
        text.append("●", style=COLOUR_STYLE.get(colour, "bold"))
        text.append(f" {count} {plain_text(colour, limit=20)}")
    return text or Text("empty", style="dim")


def state_text(state: State | None, boxes: tuple[str, ...]) -> Text:
    """Several boxes on one line: ``A ● 3 red │ B empty``."""
    if state is None:
        return Text("(no answer)", style="magenta")
    text = Text()
    for i, box in enumerate(boxes):
        if i:
            text.append(" │ ", style="dim")
        text.append(f"{box} ", style="bold")
        text.append_text(box_text(state.get(box, {})))
    return text


def _header(game: PaperclipState) -> Text:
    puzzle = game.puzzle
    where = "all puzzles answered" if game.over() else f"puzzle {game.index + 1}/{len(game.puzzles)}"
    if game.mode == "stepwise" and not game.over():
        where += f", step {game.step}/{puzzle.steps}"
    return Text(
        f"Paperclip  {where}   {puzzle.tier} · {puzzle.dimensions} · "
        f"{puzzle.distractors} distractor{'' if puzzle.distractors == 1 else 's'}   {game.mode},"
        f" {game.reporting} reporting",
        style="bold",
    )


def _current(game: PaperclipState, viewer: str | None) -> RenderableType:
    puzzle = game.puzzle
    table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
    table.add_column("step", justify="right")
    table.add_column("operation")
    if viewer is None:
        table.add_column("truth after it")
    table.add_row("start", "", *([state_text(puzzle.initial, puzzle.boxes)] if viewer is None else []))
    shown = puzzle.steps if game.mode == "batch" else game.step
    for k, op in enumerate(puzzle.operations[:shown], start=1):
        now = game.mode == "batch" or k == game.step
        mark = Text(f"▶ {k}" if now and game.mode == "stepwise" else str(k), style="bold cyan" if now else "")
        row: list[RenderableType] = [mark, Text(op.text)]
        if viewer is None:
            row.append(state_text(puzzle.states[k - 1], puzzle.boxes))
        table.add_row(*row)
    parts: list[RenderableType] = [Text("Start", style="bold")]
    parts += [Text.assemble(f"  {box}  ", box_text(puzzle.initial[box])) for box in puzzle.boxes]
    answering = "every step" if game.mode == "batch" else f"step {game.step}"
    parts += [Text(f"Answering {answering}", style="bold cyan"), table]
    if game.mode == "batch" or game.step == puzzle.steps:
        parts.append(Text(f"Question: {puzzle.question}"))
    return Group(*parts)


def _cell(puzzle: Puzzle, k: int, grade: Grade, reporting: str) -> Text:
    boxes = scope(puzzle, puzzle.operations[k - 1], reporting)
    report = grade.reported[k - 1] if k - 1 < len(grade.reported) else None
    text = state_text(normalise(report, boxes) if report is not None else None, boxes)
    if grade.grade == "invalid" or not grade.steps:
        return text
    check = grade.steps[k - 1]
    if check.correct:
        return Text.assemble(("✓ ", "green"), text)
    first = " ◀ first error" if grade.first_error == k else ""
    return Text.assemble(("✗ ", "bold red"), text, (f"{first}  [{', '.join(check.tags)}]", "red"))


def graded_table(game: PaperclipState, number: int, viewer: str | None) -> RenderableType:
    """Puzzle ``number`` (1-based): every seat's answer beside the truth, first error marked."""
    puzzle = game.puzzles[number - 1]
    seats = [s for s in game.seats if viewer in (None, s) and len(game.grades[s]) >= number]
    table = Table(title=f"Puzzle {number} graded", title_justify="left", header_style="bold", expand=False)
    table.add_column("step", justify="right")
    table.add_column("operation")
    table.add_column("truth")
    for seat in seats:
        table.add_column(f"seat {seat}")
    table.add_row("start", "", state_text(puzzle.initial, puzzle.boxes), *["" for _ in seats])
    for k, op in enumerate(puzzle.operations, start=1):
        truth = normalise(puzzle.states[k - 1], scope(puzzle, op, game.reporting))
        cells = [_cell(puzzle, k, game.grades[s][number - 1], game.reporting) for s in seats]
        table.add_row(str(k), Text(op.text), state_text(truth, tuple(truth)), *cells)
    answers = []
    for seat in seats:
        grade = game.grades[seat][number - 1]
        given = f"{grade.finals[0]} / {grade.finals[1]}"
        style = "green" if grade.final_correct else "red"
        answers.append(Text.assemble((given, style), "   ", (grade.grade, GRADE_STYLE[grade.grade])))
    right = f"{puzzle.answer[0]} / {puzzle.answer[1]}"
    table.add_row("Q", Text(puzzle.question), Text(right, style="bold"), *answers)
    return table


def _scores(game: PaperclipState, viewer: str | None) -> Text:
    text = Text()
    for seat in game.seats:
        if viewer not in (None, seat):
            continue
        grades = game.grades[seat]
        if text:
            text.append("    ")
        if not grades:  # no score yet: 0.00 would read as a seat that got everything wrong
            text.append(f"seat {seat}", style="bold")
            text.append(": no puzzle graded yet")
            continue
        counts = {name: sum(g.grade == name for g in grades) for name in GRADE_STYLE}
        score = sum(g.score for g in grades) / len(grades)
        text.append(f"seat {seat} {score:.2f}", style="bold")
        text.append(" (" + ", ".join(f"{n} {name}" for name, n in counts.items() if n) + ")")
    return text


def render_paperclip(game: PaperclipState, viewer: str | None) -> RenderableType:
    """Header, scores, the last graded puzzle and the puzzle being answered."""
    parts: list[RenderableType] = [_header(game), _scores(game, viewer)]
    graded = min(len(game.grades[s]) for s in game.seats)
    if graded:
        parts.append(graded_table(game, graded, viewer))
    if not game.over():
        parts.append(_current(game, viewer))
    return Group(*parts)
