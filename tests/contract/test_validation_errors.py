"""One formatter turns pydantic's ValidationError into the lines every caller shows."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from arena.contract.validation_errors import Problem, first_problem, one_line, problems


class Inner(BaseModel):
    size: int = Field(ge=1)


class Checked(BaseModel):
    model_config = ConfigDict(extra="forbid")

    count: int = Field(ge=0)
    label: str = ""
    inner: Inner | None = None

    @field_validator("label")
    @classmethod
    def _short(cls, value: str) -> str:
        if len(value) > 3:
            raise ValueError("at most 3 characters")
        return value

    @model_validator(mode="after")
    def _whole(self) -> Checked:
        if self.count == 13:
            raise ValueError("thirteen is unlucky")
        return self


def error_of(data: dict[str, Any]) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        Checked.model_validate(data)
    return caught.value


def test_problems_give_place_type_and_message_without_the_validator_prefix() -> None:
    exc = error_of({"count": -1, "label": "long", "inner": {"size": 0}, "extra": 1})
    assert problems(exc) == [
        Problem(("count",), "greater_than_equal", "Input should be greater than or equal to 0"),
        Problem(("label",), "value_error", "at most 3 characters"),
        Problem(("inner", "size"), "greater_than_equal", "Input should be greater than or equal to 1"),
        Problem(("extra",), "extra_forbidden", "not a known setting here (a typo?)"),
    ]
    assert [problem.where for problem in problems(exc, 3)] == ["count", "label", "inner.size"]
    assert first_problem(exc).where == "count"


def test_one_line_names_the_whole_input_when_no_field_is_to_blame() -> None:
    assert one_line(error_of({"count": 13}), whole="options") == "options: thirteen is unlucky"
    exc = error_of({"count": -1, "label": "long"})
    assert one_line(exc, whole="reply") == "count: Input should be greater than or equal to 0"
    assert one_line(exc, whole="reply", limit=5) == (
        "count: Input should be greater than or equal to 0; label: at most 3 characters"
    )
