"""What changed between two JSON values, as an RFC 6902 JSON Patch, and applying one.

Used where a step's change is shown or stored instead of the whole value: replay's
"changes" pane (a seat's view and the full state, one step to the next) and the bulk
export's ``observation_changes`` column (each seat's observation against its previous one,
so a history that grows is written once, not once per turn).

The patch is plain RFC 6902 (``add``, ``remove``, ``replace`` with JSON Pointer paths), so any
JSON Patch library applies it too. Lists are compared item by item over their common
length; items past it are added at the end or removed from the end (highest index first),
which makes an appended history one ``add`` per new item.
"""

from __future__ import annotations

import copy
from typing import Any

Patch = list[dict[str, Any]]


def diff(old: Any, new: Any) -> Patch:
    """The operations that turn ``old`` into ``new`` (``[]`` when they are equal)."""
    patch: Patch = []
    _diff(old, new, "", patch)
    return patch


def _diff(old: Any, new: Any, path: str, patch: Patch) -> None:
    if type(old) is type(new) and old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                patch.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in new.items():
            where = f"{path}/{_escape(key)}"
            if key in old:
                _diff(old[key], value, where, patch)
            else:
                patch.append({"op": "add", "path": where, "value": value})
        return
    if isinstance(old, list) and isinstance(new, list):
        common = min(len(old), len(new))
        for index in range(common):
            _diff(old[index], new[index], f"{path}/{index}", patch)
        for index in range(common, len(new)):
            patch.append({"op": "add", "path": f"{path}/{index}", "value": new[index]})
        for index in range(len(old) - 1, common - 1, -1):
            patch.append({"op": "remove", "path": f"{path}/{index}"})
        return
    # A changed scalar, or a value that changed type (1 -> 1.0 and True -> 1 count as changes).
    patch.append({"op": "replace", "path": path, "value": new})


def apply(document: Any, patch: Patch) -> Any:
    """``document`` with ``patch`` applied (a new value; ``document`` is left as it was)."""
    result = copy.deepcopy(document)
    for operation in patch:
        op, path = operation["op"], operation["path"]
        if path == "":
            if op == "remove":
                raise ValueError("cannot remove the whole document")
            result = copy.deepcopy(operation["value"])
            continue
        parts = [_unescape(part) for part in path.split("/")[1:]]
        parent = result
        for part in parts[:-1]:
            parent = parent[int(part)] if isinstance(parent, list) else parent[part]
        last = parts[-1]
        if isinstance(parent, list):
            index = len(parent) if last == "-" else int(last)
            if op == "add":
                parent.insert(index, copy.deepcopy(operation["value"]))
            elif op == "remove":
                del parent[index]
            else:
                parent[index] = copy.deepcopy(operation["value"])
        elif op == "remove":
            del parent[last]
        else:  # add and replace are one assignment on an object member
            parent[last] = copy.deepcopy(operation["value"])
    return result


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def describe(patch: Patch, *, limit: int = 200) -> list[str]:
    """One line per operation: ``~ /cash: 23.5``, ``+ /history/12: {...}``, ``- /offer`` (values as JSON).

    Values are untrusted (they may hold a model's text): callers show the lines as plain text.
    At most ``limit`` characters of a value are kept.
    """
    import orjson

    lines = []
    for operation in patch:
        mark = {"add": "+", "remove": "-", "replace": "~"}[operation["op"]]
        path = operation["path"] or "/"
        if operation["op"] == "remove":
            lines.append(f"{mark} {path}")
            continue
        value = orjson.dumps(operation["value"], default=str).decode()
        if len(value) > limit:
            value = value[: limit - 1] + "…"
        lines.append(f"{mark} {path}: {value}")
    return lines
