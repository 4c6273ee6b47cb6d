"""What every Arena screen shares: typed access to the app, a change a key made painted at once."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual import events, on
from textual.app import App
from textual.screen import Screen
from textual.widget import Widget

if TYPE_CHECKING:
    from arena.app.app import ArenaApp


def arena_app(app: App[Any]) -> ArenaApp:
    """``app`` as the :class:`ArenaApp` it is (imported late: the app module imports screens)."""
    from arena.app.app import ArenaApp

    assert isinstance(app, ArenaApp)
    return app


class ArenaScreen(Screen[None]):
    """Base of the app's full screens."""

    _paint_when_idle: tuple[Widget, ...] = ()
    _paint_at_idle = False

    def paint_soon(self, widgets: Iterable[Widget]) -> None:
        """Paint the change ``widgets`` show as soon as the screen has gathered it, not at the next frame.

        Textual paints a screen's changes on a 60-a-second timer aligned to its last frame:
        a key answered within 16.7 ms of the previous frame (a key held down, stepping a
        replay) waited for the next tick, up to all of a step's budget. Once every one of
        ``widgets`` has told the screen it changed (each is its own message pump), this
        paints them, with a layout if one is due, as the timer's tick would
        (``Screen._on_timer_update``, the call Textual's own Pilot makes to paint at once).
        """
        self._paint_when_idle = tuple(widgets)

    def paint_when_idle(self) -> None:
        """Paint what has changed as soon as the screen is idle, not at Textual's next frame tick."""
        self._paint_at_idle = True

    @on(events.ScreenResume)
    def _paint_once_resumed(self) -> None:
        # Back on top (a box closed, the screen above popped): Textual redraws the whole
        # screen at its next frame tick, up to 16.7 ms after the key that closed the box.
        self.paint_when_idle()

    def on_idle(self) -> None:
        """Paint at once what :meth:`paint_soon` asked for, once all of it has reached the screen.

        A screen that has just come back on top, or that asked with :meth:`paint_when_idle`,
        is painted as soon as it is idle too.
        """
        if self._paint_at_idle and self.is_current:
            self._paint_at_idle = False
            if self._dirty_widgets or self._layout_required or self._repaint_required:
                self._on_timer_update()
        waiting = self._paint_when_idle
        if not waiting or not self.is_current:
            return
        # A widget still flagged has not yet posted its update (or layout) to this screen.
        if any(widget._repaint_required or widget._layout_required for widget in waiting):
            return
        self._paint_when_idle = ()
        if self._dirty_widgets or self._layout_required:
            self._on_timer_update()

    @property
    def arena(self) -> ArenaApp:
        """The app, typed."""
        return arena_app(self.app)
