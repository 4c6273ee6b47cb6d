"""A footer that rebuilds its keys only when the keys it shows change.

Textual's :class:`~textual.widgets.Footer` recomposes (removes and mounts a widget per key,
then styles and lays them out again) every time its screen says its bindings changed. That
signal fires on every focus change, so opening a help box or a question over a screen, and
closing it, rebuilt the footer underneath twice although it shows the same keys: about half
of the time a key took to open the help box over the tournament screen. This footer keeps
Textual's rendering and compares what it would show first.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer

FooterKeys = tuple[tuple[object, ...], ...]


class SteadyFooter(Footer):
    """:class:`~textual.widgets.Footer`, recomposed only when its keys or their state change."""

    def __init__(self) -> None:
        super().__init__()
        self.composed_keys: FooterKeys | None = None
        self.recomposed = 0
        """How many times the keys were rebuilt (read by tests)."""

    def shown_keys(self) -> FooterKeys:
        """Everything :meth:`Footer.compose` reads: each shown binding with its state, and the palette."""
        keys = [
            (
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                enabled,
                tooltip,
                binding.tooltip,
                binding.group,
            )
            for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
            if binding.show or binding.key == self.app.COMMAND_PALETTE_BINDING
        ]
        palette = self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE
        return (*keys, (palette, self.compact))

    def compose(self) -> ComposeResult:
        """Textual's keys, remembering what they showed."""
        if self._bindings_ready:
            self.composed_keys = self.shown_keys()
            self.recomposed += 1
        yield from super().compose()

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Recompose as Textual does, unless the keys shown are the ones already there."""
        mine = self._bindings_ready and self.is_attached and screen is self.screen
        if mine and self.shown_keys() == self.composed_keys:
            return
        super().bindings_changed(screen)
