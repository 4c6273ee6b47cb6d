"""The choice controls of the human's form: ←/→ and typed letters choose at once, the choice shown.

Two looks, one way of choosing: :class:`ChoiceSet` shows a few choices side by side (the chosen
one marked ``●``), :class:`ChoiceList` shows one value of many in a drop-down list. In both the
arrow keys choose the next or previous option and typing an option's first letter (again: the
next option with that letter) chooses it, so the form's hint ``←/→: choose`` holds in every
choice field; what the control shows is what :attr:`chosen` holds, and what the form sends.
"""

from __future__ import annotations

from textual import events
from textual.widgets import RadioButton, RadioSet, Select

from arena.app.safe import safe_text

NEXT_KEYS = frozenset({"right"})
PREVIOUS_KEYS = frozenset({"left"})


def chosen_by_key(
    choices: tuple[str, ...], current: int, key: str, character: str | None, *, rows: bool = False
) -> int | None:
    """The option ``key`` chooses from option ``current`` (-1: none yet), or None for a key it ignores.

    → the next option, ← the previous (both wrapping round); a letter the next option that
    starts with it. A digit chooses only an option that starts with it: never the option of
    that number in the list, or a price typed while the cursor sat on the choice would change
    it. ``rows``: ↓/↑ choose as →/← do (a row of radio buttons; in a drop-down list they open it).
    """
    if not choices:
        return None
    if key in NEXT_KEYS or (rows and key == "down"):
        return (current + 1) % len(choices)
    if key in PREVIOUS_KEYS or (rows and key == "up"):
        return (max(current, 0) - 1) % len(choices)
    if character is None or not character.isprintable() or not character.strip():
        return None
    letter = character.lower()
    matches = [i for i, choice in enumerate(choices) if choice.lower().startswith(letter)]
    if not matches:
        return None
    later = [i for i in matches if i > current]
    return (later or matches)[0]


class ChoiceButton(RadioButton):
    """A radio button whose mark shows its state without colour: ``●`` chosen, ``○`` not."""

    BUTTON_INNER = "○"

    def on_mount(self) -> None:
        """Show the mark for the initial value."""
        self.BUTTON_INNER = "●" if self.value else "○"
        self.refresh()

    def watch_value(self) -> None:
        """Swap the mark when the button is turned on or off (and tell the set)."""
        self.BUTTON_INNER = "●" if self.value else "○"
        super().watch_value()


class ChoiceSet(RadioSet, inherit_bindings=False):
    """A row of choices where the arrow keys choose at once (no separate toggle step).

    Typing a choice's first letter chooses it too. Enter is left to the form (submit).
    Keys are handled as this widget takes them from its queue, not through bindings:
    Textual resolves a non-priority binding only after the key has bubbled back up to
    the app, against whatever has focus by then, so an arrow typed just before a Tab
    could otherwise move the cursor of the next field instead.
    """

    def __init__(self, choices: tuple[str, ...], chosen: str, *, id: str) -> None:
        buttons = [ChoiceButton(safe_text(choice), value=choice == chosen) for choice in choices]
        super().__init__(*buttons, id=id, compact=True)
        self.choices = choices
        self.chosen = chosen if chosen in choices else ""
        """The choice shown as chosen, updated at once (the set's own message comes later)."""

    def choose(self, index: int) -> None:
        """Choose option ``index`` (wrapping round)."""
        buttons = list(self.query(RadioButton))
        if buttons:
            index %= len(buttons)
            self._selected = index
            self.chosen = self.choices[index]
            buttons[index].value = True

    def _chosen_index(self) -> int:
        return self.choices.index(self.chosen) if self.chosen in self.choices else -1

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        """A click chose an option: remember it (the event goes on to the form)."""
        if 0 <= event.index < len(self.choices):
            self.chosen = self.choices[event.index]

    def on_key(self, event: events.Key) -> None:
        """Arrows choose the next or previous option; a letter the next option starting with it."""
        index = chosen_by_key(self.choices, self._chosen_index(), event.key, event.character, rows=True)
        if index is None:
            return
        self.choose(index)
        event.stop()
        event.prevent_default()


class ChoiceList(Select[str]):
    """A drop-down list of many choices that ←/→ and typed letters change without opening it.

    Enter, ↓ or space open the list to pick from it (↑/↓ there, Enter takes the option);
    while it is closed the keys act as in :class:`ChoiceSet`.
    """

    def __init__(self, choices: tuple[str, ...], chosen: str, *, id: str, required: bool) -> None:
        options = [(safe_text(choice), choice) for choice in choices]
        value = chosen if chosen in choices else Select.NULL
        super().__init__(options, value=value, id=id, allow_blank=not required, compact=True)
        self.choices = choices

    @property
    def chosen(self) -> str:
        """The choice the list shows ('' when none)."""
        value = self.value
        return "" if value is Select.NULL else str(value)

    def on_key(self, event: events.Key) -> None:
        """While the list is closed: arrows and letters choose at once."""
        if self.expanded:
            return
        current = self.choices.index(self.chosen) if self.chosen in self.choices else -1
        index = chosen_by_key(self.choices, current, event.key, event.character)
        if index is None:
            return
        self.value = self.choices[index]
        event.stop()
        event.prevent_default()
