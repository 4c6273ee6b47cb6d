"""A row of choices for the human's form: arrows choose at once, the chosen one is marked."""

from __future__ import annotations

from textual import events
from textual.widgets import RadioButton, RadioSet

from arena.app.safe import safe_text


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

    NEXT_KEYS = frozenset({"right", "down"})
    PREVIOUS_KEYS = frozenset({"left", "up"})

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
        """Arrows choose the next or previous option; a letter the first option starting with it."""
        if event.key in self.NEXT_KEYS:
            self.choose(self._chosen_index() + 1)
        elif event.key in self.PREVIOUS_KEYS:
            self.choose(max(self._chosen_index(), 0) - 1)
        elif event.is_printable and event.character and event.character.strip():
            letter = event.character.lower()
            matches = [i for i, choice in enumerate(self.choices) if choice.lower().startswith(letter)]
            if not matches:
                return
            self.choose(matches[0])
        else:
            return
        event.stop()
        event.prevent_default()
