"""Texts updated in place: unchanged ones skipped, a layout only when a size can change."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from arena.app.widgets.in_place import TextUpdates, text_shape


class Boxes(App[None]):
    """One fixed-width text and one as wide as its text."""

    CSS = "#fixed { width: 30; height: auto; } #own { width: auto; height: auto; }"

    def compose(self) -> ComposeResult:
        yield Static(Text(""), id="fixed")
        yield Static(Text(""), id="own")


def test_a_shape_counts_lines_and_says_when_one_wraps() -> None:
    assert text_shape(Text("ab\ncd"), 10, own_width=False) == (2, 0, 10)
    assert text_shape(Text("ab\ncdef"), 10, own_width=True) == (2, 4, 10)
    assert text_shape(Text("x" * 11), 10, own_width=False) is None, "a line that wraps: no shape"
    assert text_shape(Text("x" * 11, no_wrap=True), 10, own_width=False) == (1, 0, 10)


async def test_updates_are_skipped_or_laid_out_only_when_the_size_can_change() -> None:
    app = Boxes()
    async with app.run_test(size=(80, 20)) as pilot:
        fixed, own = app.query_one("#fixed", Static), app.query_one("#own", Static)
        updates = TextUpdates()
        updates.update(fixed, Text("one\ntwo"))
        updates.update(own, Text("abc"))
        await pilot.pause()
        assert updates.layouts == 2, "the first text of each is laid out"
        updates.update(fixed, Text("one\ntwo"))
        assert updates.skipped == 1 and updates.layouts == 2, "the same text is not drawn again"
        updates.update(fixed, Text("uno\ndos"))
        updates.update(own, Text("xyz"))
        assert updates.layouts == 2, "same lines, same width: drawn without a layout"
        assert fixed.content == Text("uno\ndos")
        updates.update(fixed, Text("uno\ndos\ntres"))
        updates.update(own, Text("wider"))
        assert updates.layouts == 4, "a line more, a wider text of its own width: laid out"
        await pilot.pause()
        assert (fixed.size.height, own.size.width) == (3, 5)
        updates.update(fixed, Text("y" * 40 + "\nz"))
        assert updates.layouts == 4, "lines that wrap to the same height: measured, not laid out"
        updates.update(fixed, Text("y" * 100))
        assert updates.layouts == 5, "wrapped to another height: laid out"
        await pilot.pause()
        assert fixed.size.height == 4
