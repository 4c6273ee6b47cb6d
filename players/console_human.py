"""A human at the terminal: a field-by-field form built from the game's action schema.

The people playing at one console share a :class:`ConsoleDesk`: one form at a time (so
two seats deciding at once never read each other's lines), the seat's board drawn just
before its form, and the knowledge that a prompt is waiting for its line, so whatever is
printed next after ^C starts on a new line. End of input (Ctrl-D) or a closed output at a
prompt is the person leaving: :class:`~arena.player.UserLeft`, and the episode ends
``aborted``.

Each form is read on a daemon thread: a blocking ``input()`` cannot be cancelled, and
after ^C the process must not wait for a line nobody will type.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from arena.forms import FieldSpec, form_fields, parse_field
from arena.player import BasePlayer, Decision, DecisionRequest, UserLeft

Reader = Callable[[str], str]
Writer = Callable[[str], None]


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


class ConsoleHuman(BasePlayer):
    """Asks for each field on stdin; a wrong entry is explained and asked again."""

    kind = "human"

    def __init__(
        self, reader: Reader = input, writer: Writer = print, *, desk: ConsoleDesk | None = None
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
            self._write(f"== seat {request.seat}: your move (enter each field; blank keeps the default) ==")
            fields = form_fields(request.action_model)
            while True:
                values: dict[str, Any] = {}
                for field in fields:
                    values[field.name] = self._ask_field(request.seat, field)
                try:
                    action = request.action_model.model_validate(values)
                except ValidationError as exc:
                    self._write(f"  not accepted: {exc.errors()[0]['msg']}; please enter the move again")
                    continue
                problem = request.check(action) if request.check else None
                if problem:
                    self._write(f"  not allowed: {problem}; please enter the move again")
                    continue
                return Decision(action=action, reason=str(values.get("reason", "")), raw=repr(values))

    def _ask_field(self, seat: str, field: FieldSpec) -> Any:
        while True:
            self.desk.at_prompt = True
            try:
                text = self.reader(f"  {field.prompt()}: ")
            except EOFError:
                self.desk.end_line()
                raise self.desk.leave(f"the input ended at seat {seat}'s move (end of file)") from None
            except OSError as exc:  # the prompt could not be written, or the terminal went away
                raise self.desk.leave(
                    f"the console closed at seat {seat}'s move ({exc.strerror or exc})"
                ) from None
            self.desk.at_prompt = False
            try:
                return parse_field(field, text)
            except ValueError as exc:
                self._write(f"  {exc}")

    def _write(self, text: str) -> None:
        try:
            self.writer(text)
        except OSError as exc:
            raise self.desk.leave(f"the output was closed ({exc.strerror or exc})") from None
