"""A human at the terminal: a field-by-field form built from the game's action schema.

The people playing at one console share a :class:`ConsoleDesk`: one form at a time (so
two seats deciding at once never read each other's lines), the seat's board drawn just
before its form, and the knowledge that a prompt is waiting for its line, so whatever is
printed next after ^C starts on a new line. End of input (Ctrl-D) or a closed output at a
prompt is the person leaving: :class:`~arena.contract.player.UserLeft`, and the episode ends
``aborted``.

Each form is read on a daemon thread: a blocking ``input()`` cannot be cancelled, and
after ^C the process must not wait for a line nobody will type.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
from collections.abc import Callable

from arena.contract.labels import label
from arena.contract.player import Decision, DecisionRequest, Player, UserLeft
from arena.engine.action_form import ActionForm
from arena.engine.forms import FieldSpec

RULES_KEY = "?"
"""Typed at any prompt: the seat's rules printed again, and the same field asked."""
Reader = Callable[[str], str]
Writer = Callable[[str], None]


def fd_input(prompt: str) -> str:
    """``input()`` read from file descriptor 0 instead of ``sys.stdin``'s buffer.

    The form runs on a daemon thread that may still be waiting for a line when the
    process exits (after ^C). Blocked inside ``input()`` it would hold the stdin buffer's
    lock, and the interpreter aborts at shutdown when it cannot take that lock (exit -6
    instead of 130). A read on the descriptor holds no Python lock. One byte at a time, so
    nothing past the line is taken from the pipe or terminal. A replaced ``sys.stdin``
    (an embedding program, a test) is read with plain ``input()``.
    """
    if sys.stdin is not sys.__stdin__:
        return input(prompt)
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = bytearray()
    while True:
        byte = os.read(0, 1)
        if not byte:
            if not line:
                raise EOFError
            break
        if byte == b"\n":
            break
        line += byte
    return line.decode(errors="replace").removesuffix("\r")


class ConsoleDesk:
    """What the console seats of one episode share: a turn lock, the board, an open prompt."""

    def __init__(self, show_board: Callable[[str], None] | None = None) -> None:
        self.lock = threading.Lock()
        self.show_board = show_board
        self.at_prompt = False
        self.left: str | None = None
        """Why the person left, once they have: no further form opens."""

    def leave(self, why: str) -> UserLeft:
        """Record that the person left (no form opens after this) and the error that says so."""
        self.left = why
        return UserLeft(why)

    def end_line(self) -> None:
        """If a prompt waits for its line (the user pressed ^C there), move to a new line."""
        if self.at_prompt:
            self.at_prompt = False
            try:
                sys.stdout.write("\n")
                sys.stdout.flush()
            except (OSError, ValueError):  # the output is gone: nothing to tidy
                pass


class ConsoleHuman(Player):
    """Asks for each field on stdin; a wrong entry is explained and asked again."""

    kind = "human"

    def __init__(
        self, reader: Reader = fd_input, writer: Writer = print, *, desk: ConsoleDesk | None = None
    ) -> None:
        self.spec = "human"
        self.reader = reader
        self.writer = writer
        self.desk = desk or ConsoleDesk()
        self.told: set[str] = set()
        """The seats whose rules were printed (once each, at their first form; ``?`` again)."""

    async def decide(self, request: DecisionRequest) -> Decision:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Decision] = loop.create_future()

        def deliver(result: Decision | None, error: BaseException | None) -> None:
            if answer.done():  # cancelled meanwhile (^C)
                return
            if error is not None:
                answer.set_exception(error)
            else:
                assert result is not None
                answer.set_result(result)

        def work() -> None:
            result: Decision | None = None
            error: BaseException | None = None
            try:
                result = self._ask_form(request)
            except BaseException as exc:  # handed to the awaiting coroutine, never lost
                error = exc
            with contextlib.suppress(RuntimeError):  # the loop closed while this seat waited
                loop.call_soon_threadsafe(deliver, result, error)

        threading.Thread(target=work, name=f"console-seat-{request.seat}", daemon=True).start()
        return await answer

    def _ask_form(self, request: DecisionRequest) -> Decision:
        with self.desk.lock:
            if self.desk.left is not None:  # another seat's form already met the end of input
                raise UserLeft(self.desk.left)
            if self.desk.show_board is not None:
                self.desk.show_board(request.seat)
            form = ActionForm(request, preselect=False)
            if request.seat not in self.told and request.rules.strip():
                # the rules this seat is told, as a model's prompt carries them: once at the start
                self.told.add(request.seat)
                self._write_rules(request)
            defaults = any(f.default not in (None, "") for f in form.fields)
            kept = " (blank keeps the value in brackets)" if defaults else ""
            self._write(f"== seat {request.seat}: your move; enter each field{kept}; ? shows the rules ==")
            while True:
                self._ask_fields(request.seat, form)
                outcome = form.submit()
                if outcome.action is None:
                    self._write(f"  {outcome.message}; change what you need (blank keeps your earlier entry)")
                    continue
                if outcome.question is None or self._confirm(request.seat, outcome.question):
                    return Decision(action=outcome.action, reason=outcome.reason, raw=repr(outcome.values))
                self._write("  not sent; change what you need (blank keeps your earlier entry)")

    def _ask_fields(self, seat: str, form: ActionForm) -> None:
        """Ask each field that applies in turn, checking it as it is entered; the form keeps the texts.

        A blank answer keeps what the field holds (its default, or the earlier entry); the same
        answer refused twice for an earlier field's sake goes back to that field. The
        field's hint carries the game's line for a blank entry (your own cards), and an accepted
        entry is followed by the game's line on it (``= 70, price 60, 10 over``).
        """
        names = [f.name for f in form.fields]
        refused: dict[str, str] = {}
        """The last objection to each field's answer: the same one twice goes back to the field it names."""
        index = 0
        while index < len(form.fields):
            field = form.fields[index]
            if not form.applies(field):
                index += 1
                continue
            ahead = names[index + 1 :]
            earlier = form.entries.get(field.name, "")
            text = self._read(seat, _prompt(field, form.hint(field, ahead), earlier))
            if text.strip() == RULES_KEY:
                self._write_rules(form.request)
                continue
            if not text.strip():
                text = earlier
            text = _listed_choice(field, text)
            problem = form.entry_problem(field.name, text, ahead)
            if problem:
                self._write(f"  {problem}")
                named = form.field_named_in(problem)
                if problem == refused.get(field.name) and named is not None and named in names[:index]:
                    # The same answer refused again for an earlier one (produce 41, then the
                    # bundle's signs leave cash for 37): asking this field forever was a dead
                    # end, so the choice is kept and the field the rules name is asked again.
                    form.entries[field.name] = text
                    self._write(f"  back to {label(named)}; blank keeps what is in brackets")
                    index = names.index(named)
                    refused.clear()
                else:
                    refused[field.name] = problem
                continue
            form.entries[field.name] = text
            note = form.note(field.name) if text.strip() else None
            if note and note != form.note(field.name, ""):  # what the entry comes to (a running total)
                self._write(f"  {note}")
            index += 1

    def _write_rules(self, request: DecisionRequest) -> None:
        """The rules ``request``'s seat is told, framed so they read apart from the form."""
        self._write(f"-- the rules for seat {request.seat} --")
        for line in request.rules.strip().splitlines():
            self._write(f"  {line}")
        self._write("-- end of the rules --")

    def _confirm(self, seat: str, question: str) -> bool:
        """Ask ``<caution>; go ahead? y/N``; only yes goes ahead."""
        return self._read(seat, f"{question} y/N").strip().lower() in ("y", "yes")

    def _read(self, seat: str, prompt: str) -> str:
        self.desk.at_prompt = True
        try:
            text = self.reader(f"  {prompt}: ")
        except EOFError:
            self.desk.end_line()
            raise self.desk.leave(f"the input ended at seat {seat}'s move (end of file)") from None
        except OSError as exc:  # the prompt could not be written, or the terminal went away
            why = f"the console closed at seat {seat}'s move ({exc.strerror or exc})"
            raise self.desk.leave(why) from None
        self.desk.at_prompt = False
        return text

    def _write(self, text: str) -> None:
        try:
            self.writer(text)
        except OSError as exc:
            raise self.desk.leave(f"the output was closed ({exc.strerror or exc})") from None


def _listed_choice(field: FieldSpec, text: str) -> str:
    """A choice given by its number in the list (``2`` for the second), as its name.

    Only where no choice is itself that text (an OpenSpiel move named ``2`` stays itself).
    """
    entry = text.strip()
    if field.kind != "choice" or not entry.isdigit() or entry in field.choices:
        return text
    number = int(entry)
    return field.choices[number - 1] if 1 <= number <= len(field.choices) else text


def _prompt(field: FieldSpec, hint: str, kept: str) -> str:
    """``produce (0 to 27 now) [12]``: the allowed values, and what a blank answer keeps."""
    return f"{field.label} ({hint}) [{kept.strip()}]" if kept.strip() else f"{field.label} ({hint})"
