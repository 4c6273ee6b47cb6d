"""An input whose placeholder is worded for the room it has."""

from __future__ import annotations

from collections.abc import Sequence

from textual.widgets import Input


class FittedPlaceholderInput(Input):
    """An input whose placeholder is the longest of its wordings that fits its width.

    A placeholder wider than its input is cut where the input ends (the home screen's
    "or type SEAT=SPEC, e.g." at 80 columns, the example lost); a shorter wording reads
    whole instead. ``wordings`` go from the fullest to the shortest.
    """

    def __init__(self, wordings: Sequence[str], *, id: str, compact: bool = False) -> None:
        super().__init__(placeholder=wordings[0], id=id, compact=compact)
        self.wordings = tuple(wordings)

    def on_resize(self) -> None:
        """Pick the wording for the new width (one cell stays free for the cursor)."""
        room = self.content_size.width - 1
        self.placeholder = next((w for w in self.wordings if len(w) <= room), self.wordings[-1])
