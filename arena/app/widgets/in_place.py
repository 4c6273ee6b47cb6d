"""Updating a screen's texts in place: only what changed, and without a layout when no size changes.

``Static.update`` lays the whole screen out again (13 ms a step on the replay screen, for a
board that kept its size). :class:`TextUpdates` skips an update whose text is the one shown
and asks for a layout only when the new text can take another size than the old one:
another number of lines, or (for a widget as wide as its text) another widest line. A
text whose lines wrap in a widget of its own width is measured as the layout would
measure it, and laid out only if its height changes.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import RenderableType
from rich.text import Text
from textual.widget import Widget
from textual.widgets import Static

Shape = tuple[int, int, int]


def text_shape(text: Text, width: int, *, own_width: bool) -> Shape | None:
    """``(lines, widest, width)`` of ``text`` if no line of it wraps at ``width``, else ``None``.

    ``widest`` counts only for a widget whose width is its text's (``own_width``): another
    widget keeps its width whatever the text. ``width`` is part of the shape, so a text
    shown before the terminal was resized never passes for one of the same size.
    """
    lines = text.plain.split("\n")
    widest = max(map(cell_len, lines))
    if widest > width and not text.no_wrap:
        return None
    return len(lines), widest if own_width else 0, width


class TextUpdates:
    """What each ``Static`` of a screen shows, to update it only as much as needed."""

    def __init__(self) -> None:
        self._shown: dict[int, tuple[RenderableType, Shape | None]] = {}
        self.layouts = 0
        """Updates that needed a layout (read by tests)."""
        self.skipped = 0
        """Updates skipped because the text was already shown."""
        self.changed: list[Static] = []
        """The widgets updated since the caller last cleared this (to paint them at once)."""
        self.hidden: set[Static] = set()
        """Widgets updated while not displayed, not laid out since (:meth:`lay_out_shown`)."""

    def lay_out_shown(self) -> None:
        """Lay out the widgets updated while hidden that are displayed now (a tab was opened).

        Showing a pane lays its container out but keeps the height its text was last
        measured at: a changes tab stepped past while hidden kept the one line of the start.
        """
        for static in [static for static in self.hidden if not _hidden(static)]:
            self.hidden.discard(static)
            static.clear_cached_dimensions()
            static.refresh(layout=True)
            self.layouts += 1

    def forget(self, static: Static) -> None:
        """``static`` was updated by other means: its next update here is drawn and laid out."""
        self._shown.pop(id(static), None)

    def update(self, static: Static, content: RenderableType) -> None:
        """Show ``content`` in ``static``: nothing if shown already, no layout if its size holds."""
        key = id(static)
        before = self._shown.get(key)
        if before is not None and isinstance(content, Text) and before[0] == content:
            self.skipped += 1
            return
        if _hidden(static):
            # In a tab not shown (the replay's changes, prompt...): a layout now changes
            # nothing on the screen; :meth:`lay_out_shown` lays it out once the tab opens.
            static.update(content, layout=False)
            self._shown[key] = (content, None)  # no shape: its next update shown lays it out
            self.hidden.add(static)
            return
        shape = None
        if isinstance(content, Text):
            width_rule = static.styles.width  # none set: as wide as its container, not as its text
            own_width = width_rule is not None and width_rule.is_auto
            # A widget as wide as its text can grow to its container's width; another wraps at its own.
            room = static.parent if own_width and isinstance(static.parent, Widget) else static
            width = room.scrollable_content_region.width or static.app.size.width
            shape = text_shape(content, width, own_width=own_width)
            floor = static.styles.min_width
            if shape is not None and own_width and floor is not None:
                # at least its minimum wide (the board: its box): a narrower text keeps that width
                least = int(floor.resolve(room.scrollable_content_region.size, static.app.size))
                shape = (shape[0], max(shape[1], least), shape[2])
        layout = before is None or shape is None or before[1] != shape
        self.hidden.discard(static)
        self._shown[key] = (content, shape)
        self.changed.append(static)
        if layout and before is not None and isinstance(content, Text) and not own_width:
            # Lines that wrap: measure the wrapped height as the layout would, and lay out
            # only if it differs from the height the widget has.
            static.update(content, layout=False)
            static.clear_cached_dimensions()  # the height cached for the old text
            width, height = static.content_region.size
            wrapped = static.get_content_height(static.container_size, static.app.size, width)
            layout = not width or wrapped != height
            if layout:
                static.refresh(layout=True)
            self.layouts += layout
            return
        self.layouts += layout
        static.update(content, layout=layout)


def _hidden(widget: Widget) -> bool:
    """Whether ``widget`` or a container of it is not displayed (an inactive tab's pane)."""
    return not all(node.display for node in widget.ancestors_with_self if isinstance(node, Widget))
