"""Options given as text (``--option``, the app's fields) are read as their option's type."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from arena.contract.options import option_fields, resolve_options


class Flags(BaseModel):
    """A yes/no option and a number."""

    notes: bool = False
    rounds: int = 3


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("false", False),
        ("False", False),
        ("no", False),
        ("0", False),
        ("true", True),
        ("Yes", True),
        ("1", True),
    ],
)
def test_a_yes_no_option_is_read_by_its_word(text: str, value: bool) -> None:
    assert resolve_options("g", Flags, {"notes": text})["notes"] is value


def test_a_yes_no_option_refuses_other_words_and_keeps_real_booleans() -> None:
    with pytest.raises(ValueError, match="option notes wants a yes or no, got 'maybe'"):
        resolve_options("g", Flags, {"notes": "maybe"})
    assert resolve_options("g", Flags, {"notes": True, "rounds": "5"}) == {"notes": True, "rounds": 5}
    assert [option.name for option in option_fields(Flags)] == ["notes", "rounds"]
