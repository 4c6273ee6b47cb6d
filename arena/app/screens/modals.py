"""Small modal screens: a text viewer (help, rules), a yes/no question, the jump box, the export box."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import ClassVar

from rich.cells import cell_len
from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Select, Static

from arena.display.sanitize import plain_text

GENERAL_HELP: tuple[tuple[str, str], ...] = (
    ("tab / shift+tab", "move between fields, lists and tables"),
    ("enter", "choose the highlighted item, submit a form"),
    ("ctrl+p", "command palette: new match or tournament, episodes, tournaments, replay, watch"),
    ("f1", "this help (also ? outside text fields)"),
    ("ctrl+q", "quit (asks first while a match is running)"),
)


class TextScreen(ModalScreen[None]):
    """A scrollable text in a box; any of escape, q or enter closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter", "dismiss_screen", "Close"),
    ]

    def __init__(self, title: str, body: RenderableType) -> None:
        super().__init__(classes="text-modal")
        self.box_title = title
        self.body = body

    def compose(self) -> ComposeResult:
        """Build the widgets."""
        with VerticalScroll(id="text-modal-box") as box:
            box.border_title = self.box_title
            box.border_subtitle = "escape to close"
            yield Static(self.body)

    def action_dismiss_screen(self) -> None:
        """Close the box."""
        self.dismiss(None)


SCREEN_GUIDES = {
    "home": (
        "To play: pick a game in the games list (up/down; enter moves on to its seats). Give each seat a"
        " player: tab to the seat's list, enter opens it, up/down and enter choose human (you), a"
        " baseline or a model. Tab on to the options, then ctrl+s starts the match; ctrl+r makes a"
        " tournament of the same players."
    ),
}
"""What to do on a screen, in words, above its keys (F1): where the keys alone do not say it."""


def help_body(
    screen_title: str,
    bindings: list[tuple[str, str]],
    database: Path | None = None,
    *,
    text_width: int | None = None,
) -> Text:
    """The keys of the current screen, then the keys that work everywhere, then where episodes are saved.

    One ``Text`` with the keys padded into a column, not Rich tables: Textual measures and
    draws a text in a fraction of the time two tables take, and the help key is pressed
    while a tournament plays on the same loop. With ``text_width`` (the box's inner width)
    a description too long for its line goes on under itself, not under the keys.
    """
    width = max(cell_len(key) for key, _ in (*bindings, *GENERAL_HELP))
    body = Text()
    guide = SCREEN_GUIDES.get(screen_title)
    if guide:
        body.append(f"{guide}\n\n")
    body.append(f"Keys on the {screen_title} screen\n", style="bold")
    for heading, rows in ((None, bindings), ("Everywhere", GENERAL_HELP)):
        if heading:
            body.append(f"\n{heading}\n", style="bold")
        for key, description in rows:
            body.append(key, style="bold cyan")
            body.append(" " * (width - cell_len(key) + 2))  # as far apart as two table columns
            room = (text_width - width - 2) if text_width else 0
            lines = textwrap.wrap(description, room) if room >= 20 else [description]
            body.append("\n".join([lines[0], *(" " * (width + 2) + line for line in lines[1:])]) + "\n")
    body.append("\nEverything also works with the mouse: click lists, buttons, tabs and rows.", style="dim")
    if database is not None:
        body.append("\nEpisodes are saved in ", style="dim")
        body.append(plain_text(str(database.absolute())))
        body.append(" (--db or $ARENA_DB choose another file).", style="dim")
    return body


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: y for yes, n or escape for no, Enter for the button with the cursor.

    ←/→ move the cursor between the two buttons, as the eye reads them side by side (Tab
    did; the arrows did nothing).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
        Binding("left", "move_cursor(-1)", "Previous button", show=False),
        Binding("right", "move_cursor(1)", "Next button", show=False),
    ]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__(classes="confirm-modal")
        self.question = question
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        """Build the widgets."""
        with Vertical(id="confirm-box"):
            yield Static(Text(self.question), id="confirm-question")
            with Horizontal(id="confirm-buttons"):
                yield Button(self.yes, id="confirm-yes", variant="error")
                yield Button(self.no, id="confirm-no", variant="primary")

    def on_mount(self) -> None:
        """Set up once the widgets exist."""
        self.query_one("#confirm-no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")

    def action_answer(self, value: bool) -> None:
        """Answer the question."""
        self.dismiss(value)

    def action_move_cursor(self, step: int) -> None:
        """←/→: the other button (the two are side by side; neither arrow wraps past the ends)."""
        buttons = [self.query_one("#confirm-yes", Button), self.query_one("#confirm-no", Button)]
        current = buttons.index(self.focused) if self.focused in buttons else 1
        buttons[max(0, min(len(buttons) - 1, current + step))].focus()


class JumpScreen(ModalScreen[int | None]):
    """Asks for a step number; escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, total: int) -> None:
        super().__init__(classes="confirm-modal")
        self.total = total

    def compose(self) -> ComposeResult:
        """Build the widgets."""
        with Vertical(id="confirm-box"):
            yield Static(Text(f"Jump to step (0 to {self.total}):"))
            yield Input(placeholder=f"0-{self.total}", id="jump-input", type="integer")
            yield Static(Text(""), id="jump-error")

    def on_mount(self) -> None:
        """Set up once the widgets exist."""
        self.query_one("#jump-input", Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        try:
            value = int(event.value.strip())
        except ValueError:
            self.query_one("#jump-error", Static).update(Text("type a whole number", style="red"))
            return
        if not 0 <= value <= self.total:
            self.query_one("#jump-error", Static).update(Text(f"between 0 and {self.total}", style="red"))
            return
        self.dismiss(value)

    def action_cancel(self) -> None:
        """Close without jumping."""
        self.dismiss(None)


class ExportScreen(ModalScreen[tuple[Path, str] | None]):
    """Asks for a folder and a file name in it, and which rows; the format follows the file's suffix.

    The file is written only inside the folder (a name that climbs out is refused, see
    :func:`arena.store.files.file_in_folder`), and an existing file is replaced only once the
    person says yes."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, what: str, folder: Path, default_name: str) -> None:
        super().__init__(classes="confirm-modal")
        self.what = what
        self.folder = folder
        self.default_name = default_name

    def compose(self) -> ComposeResult:
        """Build the widgets."""
        with Vertical(id="confirm-box"):
            yield Static(Text(f"Export {self.what} into the folder:"))
            yield Input(value=str(self.folder), id="export-folder")
            yield Static(Text("as the file (.jsonl, .csv or .parquet):"))
            yield Input(value=self.default_name, id="export-path")
            yield Select(
                [(Text("one row per turn"), "turns"), (Text("one row per seat of an episode"), "seats")],
                value="turns",
                allow_blank=False,
                id="export-rows",
            )
            yield Static(Text("enter writes the file · escape cancels", style="dim"), id="export-error")

    def on_mount(self) -> None:
        """Set up once the widgets exist."""
        self.query_one("#export-path", Input).focus()

    def _say(self, problem: str) -> None:
        self.query_one("#export-error", Static).update(Text(plain_text(problem), style="red"))

    @on(Input.Submitted)
    def _submitted(self, _event: Input.Submitted) -> None:
        from arena.store.files import OutsideFolder, file_in_folder

        folder = Path(self.query_one("#export-folder", Input).value.strip()).expanduser()
        if not folder.is_dir():
            self._say(f"no folder {folder}")
            return
        try:
            target = file_in_folder(folder, self.query_one("#export-path", Input).value)
        except OutsideFolder as exc:
            self._say(str(exc))
            return
        rows = str(self.query_one("#export-rows", Select).value)
        if not target.exists():
            self.dismiss((target, rows))
            return
        if not target.is_file():
            self._say(f"{target} is not a file")
            return

        def replace(yes: bool | None) -> None:
            if yes:
                self.dismiss((target, rows))
            else:
                self._say(f"{target.name} is kept: give another name")

        self.app.push_screen(ConfirmScreen(f"{target} exists. Replace it?", "Replace", "Keep it"), replace)

    def action_cancel(self) -> None:
        """Close without exporting."""
        self.dismiss(None)
