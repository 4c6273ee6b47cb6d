"""Pydantic models built from values that are already right, without validating them.

Used on hot paths where the values come from Arena's or a game's own typed code, never from
a player or a file: the runner's records (:meth:`arena.contract.records.Record.trusted`, turn records
in :mod:`arena.engine.turns`) and a game's observations and baseline decisions (lemonade). The
callers' tests compare what this builds with validated models.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

Model = TypeVar("Model", bound=BaseModel)
# BaseModel's own slot descriptors, bound once: setting through them skips both pydantic's
# __setattr__ (which a frozen model refuses) and object.__setattr__'s name lookup.
_slots = vars(BaseModel)
_set_dict = _slots["__dict__"].__set__
_set_fields_set = _slots["__pydantic_fields_set__"].__set__
_set_extra = _slots["__pydantic_extra__"].__set__
_set_private = _slots["__pydantic_private__"].__set__
_new = object.__new__


def unvalidated(cls: type[Model], values: dict[str, Any], field_names: set[str]) -> Model:
    """An instance of ``cls`` holding ``values`` (every field, in field order) as given.

    ``field_names`` becomes the instance's set of fields set. Callers of a frozen model share
    one set per class (frozen models never change it); a model that can be changed needs a set
    of its own.
    """
    model = _new(cls)
    _set_dict(model, values)
    _set_fields_set(model, field_names)
    _set_extra(model, None)
    _set_private(model, None)
    return model
