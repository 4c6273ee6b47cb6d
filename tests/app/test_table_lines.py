"""Tables drawn from kept cells are Rich's own lines, or are left to Rich (``None``), never different."""

from __future__ import annotations

import random

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.segment import Segment
from rich.table import Table
from rich.text import Text
from textual.app import App

from arena.app.safe import SafeRenderable, quick_lines
from arena.app.table_lines import table_lines

WORDS = [
    "1",
    "42",
    "-3.50",
    "cloud",
    "sold/made",
    "a b",
    "",
    "trailing  ",
    "  leading",
    "[bold]not markup[/bold]",
    ":sun: and :smile:",
    "wide 漢字",
    "emoji 🍋",
    "a long message that goes on and on past the width of a narrow board",
]
AWKWARD = ["tab\there", "bell\x07", "esc\x1b[31mred", "two\nlines", "y" * 700]
"""Cells a table from kept cells leaves to Rich (cleaned, folded or on more lines than one)."""
STYLES = ["", "bold", "red", "dim italic", "magenta on white", "#ff8800 on #001122"]


def random_cell(rng: random.Random) -> RenderableType:
    word = rng.choice(AWKWARD if rng.random() < 0.01 else WORDS)
    if rng.random() < 0.5:
        return word
    link = rng.random() < 0.01
    text = Text(word, style="link https://example.com" if link else rng.choice(STYLES))
    if word and rng.random() < 0.5:
        cut = rng.randrange(len(word))
        text.stylize(rng.choice(STYLES), cut, len(word))
    if rng.random() < 0.1:
        text.justify = rng.choice(["left", "right", "center"])
    return text


def random_table(rng: random.Random) -> Table:
    table = Table(
        box=None,
        pad_edge=rng.random() < 0.3,
        header_style=rng.choice(STYLES),
        show_header=rng.random() < 0.8,
        padding=rng.choice([(0, 1), (0, 1), (0, 2), (0, 0), (1, 1)]),
        title="a title" if rng.random() < 0.05 else None,
        expand=rng.random() < 0.05,
    )
    for index in range(rng.randint(1, 6)):
        table.add_column(
            rng.choice([f"col {index}", "day", "a sold/made", ""]),
            justify=rng.choice(["left", "right", "center"]),
            style=rng.choice(STYLES) if rng.random() < 0.2 else None,
            header_style=rng.choice(STYLES) if rng.random() < 0.2 else None,
            no_wrap=rng.random() < 0.2,
        )
    for _ in range(rng.randint(0, 8)):
        table.add_row(*(random_cell(rng) for _ in table.columns))
    return table


def rich_lines(renderable: RenderableType, console: Console, options: ConsoleOptions) -> list[list[Segment]]:
    """What Rich draws, cleaned as the app cleans a board."""
    return console.render_lines(SafeRenderable(renderable), options, pad=False)


def test_a_random_table_is_drawn_as_rich_draws_it_or_left_to_rich() -> None:
    console = App[None]().console
    rng = random.Random(20261204)
    quick = 0
    for trial in range(600):
        table = random_table(rng)
        width = rng.choice([12, 40, 80, 600])
        options = console.options.update(highlight=False, markup=False).update_width(width)
        for _ in range(2):  # the second time from the kept cells
            drawn = table_lines(table, console, options)
            if drawn is not None:
                assert drawn == rich_lines(table, console, options), f"trial {trial}"
                quick += 1
    assert quick > 300, "most random tables are plain enough to be drawn from kept cells"


def test_a_group_of_tables_and_texts_is_drawn_as_rich_draws_it() -> None:
    console = App[None]().console
    options = console.options.update(highlight=False, markup=False).update_width(600)
    rng = random.Random(7)
    plain = Table(box=None, pad_edge=False, header_style="bold")
    plain.add_column("day", justify="right")
    plain.add_column("side")
    for day in range(1, 12):
        plain.add_row(str(day), Text(rng.choice(["seller", "buyer"]), style="red"))
    group = Group(Text("head", style="bold"), plain, Group(Text("inner"), plain), Text("foot"))
    drawn = quick_lines(group, console, options)
    assert drawn is not None and drawn == rich_lines(group, console, options)


def test_what_runs_on_or_is_not_a_plain_table_is_left_to_rich() -> None:
    console = App[None]().console
    options = console.options.update(highlight=False, markup=False).update_width(600)
    plain = Table(box=None)
    plain.add_column("x")
    plain.add_row("1")
    assert quick_lines(plain, console, options) is not None
    assert quick_lines(Group(Text("runs on ", end=""), plain), console, options) is None
    assert quick_lines(Group(Text("no table")), console, options) is None
    boxed = Table()
    boxed.add_column("x")
    boxed.add_row("1")
    assert table_lines(boxed, console, options) is None
    wide = Table(box=None)
    wide.add_column("x")
    wide.add_row("y" * 700)
    assert table_lines(wide, console, options) is None  # Rich would fold it to the width
    ragged = Table(box=None)
    ragged.add_column("a")
    ragged.add_row("1")
    ragged.add_column("b")  # a column added after the rows: Rich draws the header alone
    assert table_lines(ragged, console, options) is None
    assert table_lines(plain, console, options.update(height=4)) is None  # Rich would pad it to 4 lines

    class Loud(str):
        def __rich__(self) -> Text:
            return Text(self.upper(), style="bold")

    kept = Table(box=None)
    kept.add_column("x")
    kept.add_row("quiet")
    assert table_lines(kept, console, options) is not None
    loud = Table(box=None)
    loud.add_column("x")
    loud.add_row(Loud("quiet"))  # a string that draws itself is not the string kept before
    assert table_lines(loud, console, options) is None
