"""Frozen pydantic models built from values that are already right, without validating them.

Used on hot paths where the values come from Arena's or a game's own typed code, never from
a player or a file: the runner's records (:meth:`arena.records.Record.trusted`) and a game's
observations (lemonade). The callers' tests compare what this builds with validated models.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

Model = TypeVar("Model", bound=BaseModel)
_set = object.__setattr__


def unvalidated(cls: type[Model], values: dict[str, Any], field_names: set[str]) -> Model:
    """An instance of ``cls`` holding ``values`` (every field, in field order) as given.

    ``field_names`` becomes the instance's set of fields set; callers share one set per class,
    which is safe because frozen models never change it.
    """
    model = object.__new__(cls)
    _set(model, "__dict__", values)
    _set(model, "__pydantic_fields_set__", field_names)
    _set(model, "__pydantic_extra__", None)
    _set(model, "__pydantic_private__", None)
    return model
