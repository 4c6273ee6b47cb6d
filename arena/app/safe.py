"""Showing untrusted text literally: model replies and reasons, human input, player names.

Textual reads plain strings as markup, so nothing untrusted may reach a widget as a
``str``. Everything shown goes through :func:`safe_text`, which neutralises control
characters with :func:`arena.display.sanitize.plain_text` and wraps the result in a Rich
``Text`` (never parsed as markup). :class:`SafeRenderable` is the same defence for a
game's own rendering, which may quote free text from players.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from arena.app.table_lines import table_lines
from arena.display.sanitize import plain_text


def safe_text(
    value: object,
    style: str = "",
    *,
    limit: int | None = None,
    keep_newlines: bool = False,
) -> Text:
    """``value`` as a ``Text`` shown literally: no markup, no control sequences."""
    return Text(plain_text(str(value), limit=limit, keep_newlines=keep_newlines), style=style)


def safe_line(*parts: tuple[object, str] | object) -> Text:
    """A line built from pieces; a ``(value, style)`` pair styles its piece."""
    line = Text()
    for part in parts:
        if isinstance(part, tuple) and len(part) == 2 and isinstance(part[1], str):
            line.append_text(safe_text(part[0], part[1]))
        else:
            line.append_text(safe_text(part))
    return line


def one_line(text: str, limit: int = 120) -> str:
    """``text`` squeezed onto one line and cut to ``limit`` characters (still untrusted)."""
    return plain_text(" ".join(text.split()), limit=limit)


class SafeRenderable:
    """Wraps a game's renderable: drops control codes, click actions and links from its output."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from _clean(console.render(self.renderable, options))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.renderable)


MAX_BOARD_WIDTH = 600


def prerender(renderable: RenderableType, console: Console, width: int, *, fit: bool = False) -> Text:
    """Render ``renderable`` once into a plain ``Text`` (cleaned like :class:`SafeRenderable`).

    A game's rendering is often a wide table: it gets its natural width (at least
    ``width``, at most :data:`MAX_BOARD_WIDTH`) so the view can scroll sideways instead of
    squeezing every column. With ``fit`` it gets ``width`` itself: for renderables that
    fit themselves to it (the tournament tables split their columns, their prose wraps).
    A ``Text`` is also far cheaper for Textual to lay out and paint than a nested
    renderable, which keeps stepping through a replay quick.
    """
    options = console.options.update(highlight=False, markup=False)
    if isinstance(renderable, Text) or fit:
        target = max(1, width)
    elif width_free(renderable):
        # Its lines are the same at any width from its natural one up: measuring it first
        # (a third of the time of rendering a game's table) would not change them.
        target = MAX_BOARD_WIDTH
    else:
        natural = Measurement.get(console, options.update_width(MAX_BOARD_WIDTH), renderable).maximum
        target = max(1, min(MAX_BOARD_WIDTH, max(width, natural)))
    lines = quick_lines(renderable, console, options.update_width(target))
    if lines is None:
        lines = console.render_lines(SafeRenderable(renderable), options.update_width(target), pad=False)
    text = Text(no_wrap=True, overflow="ignore", end="")
    for index, line in enumerate(lines):
        if index:
            text.append("\n")
        for segment in line:
            if not segment.control:
                text.append(segment.text, segment.style)
    return text


def quick_lines(
    renderable: RenderableType, console: Console, options: ConsoleOptions
) -> list[list[Segment]] | None:
    """The lines of a group of plain tables and texts, as ``render_lines`` draws it (``pad=False``).

    Its tables are drawn from the cells drawn before (:func:`arena.app.table_lines.table_lines`);
    ``None`` for anything else, or a group without such a table, which Rich then draws whole.
    """
    parts = _parts(renderable)
    if parts is None or not any(type(part) is Table for part in parts):
        return None
    lines: list[list[Segment]] = []
    for part in parts:
        if type(part) is Table:
            drawn = table_lines(part, console, options)
            if drawn is None:
                return None
            lines += drawn
        else:
            lines += console.render_lines(SafeRenderable(part), options, pad=False)
    return lines


def _parts(renderable: RenderableType) -> list[RenderableType] | None:
    """A group's tables and texts in order, or ``None`` if it holds anything else.

    A text must end its line: one that does not runs on into the next part, which drawing
    the parts apart would not show.
    """
    if type(renderable) is Table or (type(renderable) is Text and renderable.end == "\n"):
        return [renderable]
    if type(renderable) is not Group:
        return None
    found: list[RenderableType] = []
    for part in renderable.renderables:
        inner = _parts(part)
        if inner is None:
            return None
        found += inner
    return found


def width_free(renderable: RenderableType) -> bool:
    """True if ``renderable`` renders the same lines at every width from its natural width up.

    So are texts that are neither padded to the width (left, centre, right or full
    justification) nor holding tabs (measured as one cell), tables that neither expand nor
    have a width of their own, and groups of those; anything else is measured.
    """
    if isinstance(renderable, Text):
        return renderable.justify in (None, "default") and "\t" not in renderable.plain
    if isinstance(renderable, Table):
        return not renderable.expand and renderable.width is None and renderable.min_width is None
    if isinstance(renderable, Group):
        return all(width_free(part) for part in renderable.renderables)
    return False


def _clean(segments: Iterable[Segment]) -> Iterable[Segment]:
    for text, style, control in segments:
        if control:
            continue
        if not text.isprintable():
            text = plain_text(text, keep_newlines=True)
        if style is not None and (style.link or style._meta):
            style = style.clear_meta_and_links()
        yield Segment(text, style)
