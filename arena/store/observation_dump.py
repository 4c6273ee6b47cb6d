"""JSON-mode dumps of a seat's observations that reuse what earlier turns already dumped.

A turn record holds its observation as ``model_dump(mode="json")``, and an observation often
repeats frozen models from earlier steps (lemonade's last seven days, today's forecast):
dumping those again is most of what recording a turn costs. :class:`ObservationDumper`
dumps each such model once per episode. An observation whose fields are all plain values
(numbers, text, flags), frozen models and lists of frozen models is assembled field by field
in Python; one with other fields is dumped by pydantic except for its lists of frozen items.
Either way the result is the very dict ``model_dump(mode="json")`` gives (same keys, same
order, same values); an observation whose class or values it cannot vouch for (anything
custom, a subclass value, a non-finite float) is simply dumped by pydantic.

The dumped dicts are shared between the records of an episode, which never change them.
"""

from __future__ import annotations

import functools
import itertools
import math
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel

_PLAIN_TYPES = frozenset({int, float, str, bool, type(None)})
"""Immutable value types (a dump of them cannot change once taken), and the annotations whose
values JSON mode leaves as they are when a value is of exactly that type (an int held in a
float field is dumped as a float, say: then pydantic dumps it)."""
_MAX_SIGNATURES = 64

PLAIN, MODEL, ITEMS = "plain", "model", "items"
"""How a field is dumped: as it is, as one cached frozen model, as a list of them."""


@dataclass(frozen=True, slots=True)
class _Plan:
    """How to dump one observation class."""

    items: dict[str, type[BaseModel]]
    """The fields holding lists of frozen items."""
    exclude: set[str]
    """The item lists' names (a set: pydantic takes a frozenset more slowly); never changed."""
    order: tuple[str, ...]
    trailing: bool
    """The item lists are the last fields: appending them keeps pydantic's key order."""
    fields: tuple[tuple[str, str, Target], ...] | None
    """Every field as (name, PLAIN/MODEL/ITEMS, target), when every field is one of them."""


def _customized(cls: type[BaseModel]) -> bool:
    """Whether ``cls`` dumps in any way but field by field, as declared."""
    decorators = cls.__pydantic_decorators__
    config = cls.model_config
    return bool(
        cls.model_dump is not BaseModel.model_dump
        or decorators.model_serializers
        or decorators.field_serializers
        or cls.__pydantic_computed_fields__
        or config.get("extra") == "allow"
        or config.get("alias_generator")
        or config.get("ser_json_inf_nan", "null") != "null"
    )


def _frozen_model(annotation: Any) -> type[BaseModel] | None:
    """``annotation`` if it is a frozen, uncustomized model class."""
    if (
        isinstance(annotation, type)
        and issubclass(annotation, BaseModel)
        and annotation.model_config.get("frozen")
        and not _customized(annotation)
    ):
        return annotation
    return None


Target = type[BaseModel] | frozenset[type]
"""A field's model type (MODEL, ITEMS), or the exact value types it may hold (PLAIN)."""


def _kind(annotation: Any) -> tuple[str, Target] | None:
    """How a field of this annotation is dumped by the field-by-field path, if it can be."""
    origin, args = get_origin(annotation), get_args(annotation)
    if annotation in _PLAIN_TYPES:
        return PLAIN, frozenset({annotation})
    if origin is Literal and all(type(arg) in _PLAIN_TYPES for arg in args):
        return PLAIN, frozenset(type(arg) for arg in args)
    if origin in (typing.Union, types.UnionType):
        kinds = [kind for kind in map(_kind, args) if kind is not None]
        if len(kinds) < len(args):
            return None
        plain = [target for kind, target in kinds if kind == PLAIN and isinstance(target, frozenset)]
        if len(plain) == len(kinds):
            return PLAIN, frozenset().union(*plain)
        models = [kind for kind in kinds if kind[0] != PLAIN]
        if type(None) in args and len(args) == 2 and len(models) == 1 and models[0][0] == MODEL:
            return models[0]
        return None
    if origin is list and len(args) == 1 and _frozen_model(args[0]):
        return ITEMS, args[0]
    model = _frozen_model(annotation)
    return (MODEL, model) if model else None


@functools.cache
def _plan(cls: type[BaseModel]) -> _Plan | None:
    """The plan for ``cls``, or ``None`` when pydantic must dump it whole (anything custom)."""
    if _customized(cls):
        return None
    items: dict[str, type[BaseModel]] = {}
    fields: list[tuple[str, str, Target]] | None = []
    for name, info in cls.model_fields.items():
        custom = info.metadata or info.alias or info.serialization_alias or info.exclude is not None
        custom = custom or getattr(info, "exclude_if", None) is not None
        kind = None if custom else _kind(info.annotation)
        if kind is not None and kind[0] == ITEMS:
            items[name] = kind[1]  # type: ignore[assignment]
        if kind is None or fields is None:
            fields = None
        else:
            fields.append((name, *kind))
    if not items and fields is None:
        return None
    order = tuple(cls.model_fields)
    trailing = bool(items) and order[-len(items) :] == tuple(items)
    return _Plan(items, set(items), order, trailing, tuple(fields) if fields is not None else None)


@functools.cache
def _plain_signatures(cls: type[BaseModel]) -> frozenset[tuple[type, ...]]:
    """The value types (in field order) with which every field of ``cls`` is a plain value that
    JSON mode leaves as it is; empty unless every field is plain (and few combinations)."""
    plan = _plan(cls)
    if plan is None or plan.fields is None or any(kind is not PLAIN for _, kind, _ in plan.fields):
        return frozenset()
    allowed = [target for _, _, target in plan.fields if isinstance(target, frozenset)]
    if math.prod(len(types) for types in allowed) > _MAX_SIGNATURES:
        return frozenset()
    return frozenset(itertools.product(*allowed))


def _json_mode_keeps_non_finite_floats() -> bool:
    class Probe(BaseModel):
        value: float

    dumped = Probe(value=math.inf).model_dump(mode="json")["value"]
    return isinstance(dumped, float) and math.isinf(dumped)


_NON_FINITE_KEPT = _json_mode_keeps_non_finite_floats()
"""pydantic 2.x's JSON mode leaves inf and nan as floats; checked, not assumed."""


def _kept_as_is(values: dict[str, Any]) -> bool:
    """Whether JSON mode leaves these plain values as they are (a non-finite float may not be)."""
    return _NON_FINITE_KEPT or all(math.isfinite(v) for v in values.values() if type(v) is float)


class ObservationDumper:
    """``model_dump(mode="json")`` of observations, each frozen model dumped once per dumper.

    Make one per episode: it keeps every model it dumped (the game keeps them anyway).
    """

    def __init__(self) -> None:
        self._done: dict[int, tuple[BaseModel, dict[str, Any]]] = {}
        """``id(model)`` -> the model (held, so its id stays its own) and its dump."""

    def dump(self, observation: BaseModel) -> dict[str, Any]:
        """``observation.model_dump(mode="json")``, with frozen models dumped once."""
        plan = _plan(type(observation))
        if plan is None:
            return observation.model_dump(mode="json")
        if plan.fields is not None:
            assembled = self._assemble(observation.__dict__, plan.fields)
            return assembled if assembled is not None else observation.model_dump(mode="json")
        values = observation.__dict__
        lists: dict[str, list[dict[str, Any]]] = {}
        for name, item_type in plan.items.items():
            dumped = self._items(values[name], item_type)
            if dumped is None:
                return observation.model_dump(mode="json")
            lists[name] = dumped
        data: dict[str, Any] = observation.__pydantic_serializer__.to_python(
            observation, mode="json", exclude=plan.exclude
        )
        data.update(lists)
        return data if plan.trailing else {name: data[name] for name in plan.order}

    def _assemble(
        self, values: dict[str, Any], fields: tuple[tuple[str, str, Target], ...]
    ) -> dict[str, Any] | None:
        """The dump built field by field, or ``None`` for a value it cannot vouch for."""
        data: dict[str, Any] = {}
        for name, kind, target in fields:
            value = values[name]
            if kind is PLAIN:
                kind_of_value = type(value)
                if kind_of_value not in target:  # type: ignore[operator]
                    return None
                if kind_of_value is float and not (_NON_FINITE_KEPT or math.isfinite(value)):
                    return None
                data[name] = value
            elif kind is MODEL:
                if value is None:
                    data[name] = None
                    continue
                if type(value) is not target:
                    return None
                data[name] = self._model(value, target)
            else:
                dumped = self._items(value, target)  # type: ignore[arg-type]
                if dumped is None:
                    return None
                data[name] = dumped
        return data

    def _model(self, item: BaseModel, item_type: type[BaseModel]) -> dict[str, Any]:
        """The dump of one frozen model of exactly ``item_type``, taken once when it can be."""
        known = self._done.get(id(item))
        if known is None:
            values = item.__dict__
            value_types = tuple(map(type, values.values()))
            immutable = _PLAIN_TYPES.issuperset(value_types)
            # (pydantic dumps fields in __dict__ order, so the types line up with the fields)
            if value_types in _plain_signatures(item_type) and _kept_as_is(values):
                dumped = dict(values)  # what JSON mode makes of plain values: the values themselves
            else:
                dumped = item_type.__pydantic_serializer__.to_python(item, mode="json")
            known = (item, dumped)
            if immutable:
                self._done[id(item)] = known
        return known[1]

    def _items(self, items: Any, item_type: type[BaseModel]) -> list[dict[str, Any]] | None:
        """The dumps of ``items``, or ``None`` unless it is a list of exactly ``item_type``."""
        if type(items) is not list:
            return None
        done = self._done
        dumped = []
        for item in items:
            if type(item) is not item_type:  # a subclass item: how it dumps is up to pydantic
                return None
            known = done.get(id(item))
            dumped.append(known[1] if known is not None else self._model(item, item_type))
        return dumped
