"""What every Arena screen shares: typed access to the app, a change a key made painted at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.screen import Screen

if TYPE_CHECKING:
    from arena.app.app import ArenaApp


def arena_app(app: App[Any]) -> ArenaApp:
    """``app`` as the :class:`ArenaApp` it is (imported late: the app module imports screens)."""
    from arena.app.app import ArenaApp

    assert isinstance(app, ArenaApp)
    return app


class ArenaScreen(Screen[None]):
    """Base of the app's full screens."""

    _paint_when_idle = False

    def paint_soon(self) -> None:
        """Paint what changes now as soon as the screen has gathered it, not at the next frame.

        Textual paints a screen's changes on a 60-a-second timer aligned to its last frame:
        a key answered within 16.7 ms of the previous frame (a key held down, stepping a
        replay) waited for the next tick, up to all of a step's budget. Once the changed
        widgets have told the screen (its queue is empty), this paints them, with a layout
        if one is due, as the timer's tick would (``Screen._on_timer_update``, the call
        Textual's own Pilot makes to paint at once).
        """
        self._paint_when_idle = True

    def on_idle(self) -> None:
        """Paint at once what :meth:`paint_soon` asked for, once something is there to paint."""
        if self._paint_when_idle and self.is_current and (self._dirty_widgets or self._layout_required):
            self._paint_when_idle = False
            self._on_timer_update()

    @property
    def arena(self) -> ArenaApp:
        """The app, typed."""
        return arena_app(self.app)
