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
from typing import Any

from arena.contract.player import Decision, DecisionRequest, Player, UserLeft
from arena.engine.forms import FieldSpec, form_fields, parse_field
from players.console_form import build, early_problem, limit_now, problem_with

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
            fields = form_fields(request.action_model)
            defaults = any(f.default not in (None, "") for f in fields)
            kept = " (blank keeps the value in brackets)" if defaults else ""
            self._write(f"== seat {request.seat}: your move; enter each field{kept} ==")
            entered: dict[str, str] = {}
            while True:
                values = self._ask_fields(request, fields, entered)
                problem = problem_with(request, fields, values)
                if problem is None:
                    action = build(request, fields, values)
                    assert not isinstance(action, str)
                    caution = request.caution(action) if request.caution else None
                    if caution is None or self._confirm(request.seat, caution):
                        return Decision(action=action, reason=str(values.get("reason", "")), raw=repr(values))
                    self._write("  not sent; change what you need (blank keeps your earlier entry)")
                    continue
                self._write(f"  {problem}; change what you need (blank keeps your earlier entry)")

    def _ask_fields(
        self, request: DecisionRequest, fields: list[FieldSpec], entered: dict[str, str]
    ) -> dict[str, Any]:
        """Ask each field that applies, checking it as it is entered; ``entered`` keeps the texts."""
        values: dict[str, Any] = {}
        index = 0
        while index < len(fields):
            field = fields[index]
            if not field.applies(values):
                index += 1
                continue
            limit = limit_now(request, fields, values, field)
            text = self._read(request.seat, _prompt(field, limit, entered.get(field.name)))
            if not text.strip() and field.name in entered:
                text = entered[field.name]
            try:
                value = parse_field(field, text)
            except ValueError as exc:
                self._write(f"  {exc}")
                continue
            if limit is not None and value is not None and value > limit:
                self._write(f"  {field.name} can be at most {limit} now, not {value}")
                continue
            values[field.name] = value
            problem = early_problem(request, fields, values, fields[index + 1 :])
            if problem:
                self._write(f"  {problem}")
                del values[field.name]
                continue
            entered[field.name] = text
            index += 1
        return values

    def _confirm(self, seat: str, caution: str) -> bool:
        """Ask ``caution; go ahead? y/N``; only yes goes ahead."""
        return self._read(seat, f"{caution}; go ahead? y/N").strip().lower() in ("y", "yes")

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


def _prompt(field: FieldSpec, limit: int | None, earlier: str | None) -> str:
    """``produce (0 to 27 now) [12]``: the range the game allows now, and what blank keeps."""
    hint = f"{field.minimum or 0:g} to {limit} now" if limit is not None else field.hint()
    if earlier is not None and earlier.strip():
        kept = f" [{earlier.strip()}]"
    elif field.default not in (None, ""):
        kept = f" [{field.default}]"
    else:
        kept = ""
    return f"{field.name} ({hint}){kept}"
