"""A footer that rebuilds its keys only when the keys it shows change.

Textual's :class:`~textual.widgets.Footer` recomposes (removes and mounts a widget per key,
then styles and lays them out again) every time its screen says its bindings changed. That
signal fires on every focus change, so opening a help box or a question over a screen, and
closing it, rebuilt the footer underneath twice although it shows the same keys: about half
of the time a key took to open the help box over the tournament screen. This footer keeps
Textual's rendering and compares what it would show first.

It also leaves out the keys that do not fit whole before the palette key: Textual's footer
ran on under it, so at 80 columns the replay's last key read "t Ne". F1 lists every key.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

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
        self.call_after_refresh(self.fit_keys)
        yield from super().compose()

    def on_resize(self) -> None:
        """Show the keys that fit the new width."""
        self.fit_keys()

    def fit_keys(self) -> None:
        """Show the keys, in order, while each fits whole beside the palette key; hide the rest."""
        keys = list(self.query(FooterKey))
        palette = [key for key in keys if key.has_class("-command-palette")]
        room = self.size.width - sum(_width(key) for key in palette)
        used = 0
        for key in keys:
            if key in palette:
                continue
            used += _width(key)
            key.display = used <= room

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Recompose as Textual does, unless the keys shown are the ones already there."""
        mine = self._bindings_ready and self.is_attached and screen is self.screen
        if mine and self.shown_keys() == self.composed_keys:
            return
        super().bindings_changed(screen)


def _width(key: FooterKey) -> int:
    """The columns ``key`` takes in the footer: its label, padding, border and margins."""
    return cell_len(key.render().plain) + key.styles.gutter.width + key.styles.margin.width
