"""A Select whose option list is built after it is first painted, not with it.

A Textual ``Select`` is its current value (a line with an arrow) and a hidden overlay: an
option list holding every option. Building that overlay is most of a Select's cost: on the
home screen the three lists of the first game's set-up took about 100 ms of the 250 ms
between the first frame and the set-up painted. :class:`LazySelect` is drawn exactly as a
Select (the overlay is hidden until opened) but composes only its current value; the
overlay is mounted by :meth:`LazySelect.complete`, which the screen calls once the set-up
is painted, or at the latest when the list is opened.

This reads Textual's Select internals (``_options``, ``_setup_options_renderables``, the
``value`` and ``prompt`` watchers), so textual is pinned below 9 (pyproject.toml).
"""

from __future__ import annotations

from typing import Generic, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.css.query import NoMatches
from textual.widgets import Select
from textual.widgets._select import NoSelection, SelectCurrent, SelectOverlay

T = TypeVar("T")


class LazySelect(Select[T], Generic[T]):
    """A ``Select`` that mounts its option list once :meth:`complete` is called or it is opened."""

    @property
    def completed(self) -> bool:
        """True once the option list is mounted."""
        return bool(self.query_children(SelectOverlay))

    def compose(self) -> ComposeResult:
        """Only the current value: the option list comes with :meth:`complete`."""
        yield SelectCurrent(self.prompt)

    async def complete(self) -> None:
        """Mount the option list (once) and fill it with the options."""
        if self.completed or not self.is_attached:
            return
        overlay = SelectOverlay(type_to_search=self._type_to_search)
        overlay.compact = self.compact  # Select binds it; a list mounted later is given it (it never changes)
        await self.mount(overlay)
        super()._setup_options_renderables()
        self._show_value(self.value, highlight=True)

    def _setup_options_renderables(self) -> None:
        # Without the option list there is nothing to fill yet: complete() fills it.
        if self.completed:
            super()._setup_options_renderables()

    def _show_value(self, value: T | NoSelection, *, highlight: bool) -> None:
        try:
            current = self.query_one(SelectCurrent)
        except NoMatches:  # not composed yet: the mount shows the value
            return
        if value == self.NULL:
            current.update(self.NULL)
            return
        for index, (prompt, option) in enumerate(self._options):
            if option == value:
                if highlight and self.completed:
                    self.query_one(SelectOverlay).highlighted = index
                current.update(prompt)
                return

    def _watch_value(self, value: T | NoSelection) -> None:
        if self.completed:
            super()._watch_value(value)
            return
        self._value = value
        if self.query_children(SelectCurrent):
            self._show_value(value, highlight=False)
            self.post_message(self.Changed(self, value))

    def _watch_expanded(self, expanded: bool) -> None:
        if self.completed:
            super()._watch_expanded(expanded)

    def _watch_prompt(self, prompt: str) -> None:
        if self.completed:
            super()._watch_prompt(prompt)

    def action_show_overlay(self) -> None:
        """Open the list (mounting it first if the screen has not yet)."""
        if self.completed:
            super().action_show_overlay()
        else:
            self.call_later(self._open_once_complete)

    async def _open_once_complete(self) -> None:
        await self.complete()
        super().action_show_overlay()

    @on(SelectCurrent.Toggle)
    async def _toggle_once_complete(self, event: SelectCurrent.Toggle) -> None:
        # A click on the current value: Select's own handler (prevented) would open a list not there yet.
        event.stop()
        event.prevent_default()
        await self.complete()
        self.expanded = not self.expanded
