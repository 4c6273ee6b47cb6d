"""A human at the terminal: a field-by-field form built from the game's action schema."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from arena.forms import FieldSpec, form_fields, parse_field
from arena.player import BasePlayer, Decision, DecisionRequest, FatalPlayerError

Reader = Callable[[str], str]


class ConsoleHuman(BasePlayer):
    """Asks for each field on stdin; a wrong entry is explained and asked again."""

    kind = "human"

    def __init__(self, reader: Reader = input, writer: Callable[[str], None] = print) -> None:
        self.spec = "human"
        self.reader = reader
        self.writer = writer

    async def decide(self, request: DecisionRequest) -> Decision:
        return await asyncio.to_thread(self._ask_form, request)

    def _ask_form(self, request: DecisionRequest) -> Decision:
        self.writer(f"== seat {request.seat}: your move (enter each field; blank keeps the default) ==")
        fields = form_fields(request.action_model)
        while True:
            values: dict[str, Any] = {}
            for field in fields:
                values[field.name] = self._ask_field(field)
            try:
                action = request.action_model.model_validate(values)
            except ValidationError as exc:
                self.writer(f"  not accepted: {exc.errors()[0]['msg']}; please enter the move again")
                continue
            problem = request.check(action) if request.check else None
            if problem:
                self.writer(f"  not allowed: {problem}; please enter the move again")
                continue
            return Decision(action=action, reason=str(values.get("reason", "")), raw=repr(values))

    def _ask_field(self, field: FieldSpec) -> Any:
        while True:
            try:
                text = self.reader(f"  {field.prompt()}: ")
            except EOFError:
                raise FatalPlayerError("the human seat's input ended (end of file)") from None
            try:
                return parse_field(field, text)
            except ValueError as exc:
                self.writer(f"  {exc}")
