"""JSON-mode dumps of a seat's observations that reuse what earlier turns already dumped.

A turn record holds its observation as ``model_dump(mode="json")``, and an observation often
repeats frozen models from earlier steps (lemonade's last seven days): dumping those again
is most of what recording a turn costs. :class:`ObservationDumper` dumps each such item
once per episode and otherwise lets pydantic dump the observation, so the result is the
very dict ``model_dump(mode="json")`` gives (same keys, same order, same values). An
observation whose class it cannot vouch for is simply dumped by pydantic.

The item dicts are shared between the records of an episode, which never change them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, get_args, get_origin

from pydantic import BaseModel

_IMMUTABLE = frozenset({int, float, str, bool, type(None)})
"""Field value types whose dump cannot change once taken."""


@dataclass(frozen=True, slots=True)
class _Plan:
    """How to dump one observation class: which list fields hold frozen items, and field order."""

    items: dict[str, type[BaseModel]]
    exclude: set[str]
    """The item lists' names (a set: pydantic takes a frozenset more slowly); never changed."""
    order: tuple[str, ...]
    trailing: bool
    """The item lists are the last fields: appending them keeps pydantic's key order."""


@functools.cache
def _plan(cls: type[BaseModel]) -> _Plan | None:
    """The plan for ``cls``, or ``None`` when pydantic must dump it whole (anything custom)."""
    decorators = cls.__pydantic_decorators__
    config = cls.model_config
    if (
        cls.model_dump is not BaseModel.model_dump
        or decorators.model_serializers
        or decorators.field_serializers
        or cls.__pydantic_computed_fields__
        or config.get("extra") == "allow"
    ):
        return None
    items: dict[str, type[BaseModel]] = {}
    for name, info in cls.model_fields.items():
        args = get_args(info.annotation)
        if get_origin(info.annotation) is not list or len(args) != 1:
            continue
        item = args[0]
        custom = info.metadata or info.alias or info.serialization_alias or info.exclude is not None
        if (
            isinstance(item, type)
            and issubclass(item, BaseModel)
            and item.model_config.get("frozen")
            and not custom
            and getattr(info, "exclude_if", None) is None
        ):
            items[name] = item
    if not items:
        return None
    order = tuple(cls.model_fields)
    return _Plan(items, set(items), order, trailing=order[-len(items) :] == tuple(items))


class ObservationDumper:
    """``model_dump(mode="json")`` of observations, each frozen list item dumped once per dumper.

    Make one per episode: it keeps every item it dumped (the game keeps them anyway).
    """

    def __init__(self) -> None:
        self._done: dict[int, tuple[BaseModel, dict[str, Any]]] = {}
        """``id(item)`` -> the item (held, so its id stays its own) and its dump."""

    def dump(self, observation: BaseModel) -> dict[str, Any]:
        """``observation.model_dump(mode="json")``, with frozen list items dumped once."""
        plan = _plan(type(observation))
        if plan is None:
            return observation.model_dump(mode="json")
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

    def _items(self, items: Any, item_type: type[BaseModel]) -> list[dict[str, Any]] | None:
        """The dumps of ``items``, or ``None`` unless it is a list of exactly ``item_type``."""
        if type(items) is not list:
            return None
        done = self._done
        dumped = []
        for item in items:
            known = done.get(id(item))
            if known is None:
                if type(item) is not item_type:  # a subclass item: how it dumps is up to pydantic
                    return None
                known = (item, item_type.__pydantic_serializer__.to_python(item, mode="json"))
                if _IMMUTABLE.issuperset(map(type, item.__dict__.values())):
                    done[id(item)] = known
            dumped.append(known[1])
        return dumped
