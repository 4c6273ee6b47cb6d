"""What every Arena screen shares: typed access to the app."""

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

    @property
    def arena(self) -> ArenaApp:
        """The app, typed."""
        return arena_app(self.app)
