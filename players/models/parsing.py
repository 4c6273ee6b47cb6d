"""Defensive reading of model replies into an action mapping.

Models wrap JSON in code fences, talk around it, rename fields and quote numbers.
:func:`parse_reply` takes the last complete JSON object of a reply (a model that revises
itself, "I considered {...} ... final answer: {...}", plays its final answer; a reply
with several different action objects is marked ``revised``), maps field names onto the
schema's properties (case-insensitively, ignoring punctuation, with a few synonyms),
coerces numbers given as strings when the schema asks for numbers, and splits off the
stated reason. It never checks ranges or rules: the runner validates the result.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

from arena.contract.player import ErrorClass

from .schema import resolve_node

SYNONYMS: dict[str, tuple[str, ...]] = {
    "reason": (
        "reasoning",
        "rationale",
        "explanation",
        "justification",
        "why",
        "because",
        "thoughts",
        "thought",
        "thinking",
        "comment",
        "comments",
        "analysis",
        "notes",
        "note",
    ),
    "action": ("move", "choice", "decision"),
    "amount": ("value", "quantity", "qty"),
}
_WRAPPER_KEYS = {"action", "answer", "response", "result", "output", "decision", "json", "data", "move"}
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?:\D|$))")
_TRUE = {"true", "yes", "y", "1", "on"}
_FALSE = {"false", "no", "n", "0", "off"}


class ReplyParseError(ValueError):
    """No usable JSON object could be read from a reply."""

    error_class = ErrorClass.UNPARSABLE


@dataclass(slots=True)
class ParsedReply:
    """An action mapping read from a reply and the reason stated in it ('' if none)."""

    action: dict[str, Any]
    reason: str
    revised: bool = False
    """The reply held several different action objects (its last one is ``action``)."""


def parse_reply(text: str, schema: dict[str, Any]) -> ParsedReply:
    """Read the action in ``text`` against ``schema``; raises :class:`ReplyParseError`.

    The last complete JSON object is the answer; ``revised`` says the reply held more than
    one different object that names a field of the schema (an example or a restated
    observation that shares none of its fields is not a revision).
    """
    found = json_objects(text)
    obj = found[-1]
    revised = _revised(found, schema)
    obj = unwrap(obj, schema)
    obj = normalise_fields(obj, schema)
    obj = coerce_values(obj, schema)
    props = schema.get("properties", {})
    reason_value = obj.get("reason")
    if reason_value is None:
        reason = ""
    else:
        reason = reason_value if isinstance(reason_value, str) else json.dumps(reason_value)
    if "reason" in obj and "reason" not in props:
        obj = {k: v for k, v in obj.items() if k != "reason"}
    return ParsedReply(action=obj, reason=reason.strip(), revised=revised)


def extract_json_object(text: str) -> dict[str, Any]:
    """The last complete JSON object in ``text`` (see :func:`json_objects`)."""
    return json_objects(text)[-1]


def json_objects(text: str) -> list[dict[str, Any]]:
    """Every complete top-level JSON object in ``text``, in order (at least one).

    The whole reply when it is one object; else each balanced ``{...}`` that parses
    (inside code fences or prose alike), an object nested in one already found not
    counted again. Raises :class:`ReplyParseError` when there is none.
    """
    stripped = text.strip().lstrip("\ufeff")
    if not stripped:
        raise ReplyParseError("empty reply")
    whole = _loads_object(stripped)
    if whole is not None:
        return [whole]
    found: list[dict[str, Any]] = []
    after = 0
    for start in (i for i, ch in enumerate(stripped) if ch == "{"):
        if start < after:
            continue
        end = _balanced_end(stripped, start)
        if end is None:
            continue
        obj = _loads_object(stripped[start : end + 1])
        if obj is not None:
            found.append(obj)
            after = end + 1
    if found:
        return found
    if "{" in stripped and _balanced_end(stripped, stripped.index("{")) is None:
        raise ReplyParseError("JSON object is not closed (reply cut off?)")
    raise ReplyParseError("no JSON object found in the reply")


def _revised(found: list[dict[str, Any]], schema: dict[str, Any]) -> bool:
    """More than one different object in ``found`` that names a field of ``schema``."""
    if len(found) < 2:
        return False
    props = {canon(p) for p in schema.get("properties", {})}
    distinct = set()
    for obj in found:
        fields = {canon(key) for key in unwrap(obj, schema)}
        if not props or fields & props:
            distinct.add(json.dumps(obj, sort_keys=True, default=str))
    return len(distinct) > 1


def _loads_object(text: str) -> dict[str, Any] | None:
    for attempt in (text, _relax(text)):
        try:
            value = json.loads(attempt)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
        if isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
            return value[0]
    try:  # Python-style dicts: single quotes, True/False/None
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, dict) and all(isinstance(k, str) for k in value) else None


def _relax(text: str) -> str:
    """Drop trailing commas and ``//`` line comments outside strings."""
    out: list[str] = []
    in_string = escaped = False
    i = 0
    while i < len(text):
        ch = text[i]
        if in_string:
            out.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
            out.append(ch)
        elif ch == "/" and text.startswith("//", i):
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        elif ch in "}]":
            while out and out[-1].isspace():
                out.pop()
            if out and out[-1] == ",":
                out.pop()
            out.append(ch)
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _balanced_end(text: str, start: int) -> int | None:
    depth = 0
    in_string = escaped = False
    quote = ""
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                in_string = False
        elif ch in "\"'":
            in_string, quote = True, ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
    return None


def canon(name: str) -> str:
    """Lower-case ``name`` and drop everything but letters and digits."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def unwrap(obj: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """Unwrap ``{"action": {...}}``-style envelopes whose key is not a schema property."""
    props = {canon(p) for p in schema.get("properties", {})}
    title = canon(str(schema.get("title", "")))
    for _ in range(2):
        if len(obj) != 1:
            break
        ((key, value),) = obj.items()
        if not isinstance(value, dict) or canon(key) in props:
            break
        inner = {canon(k) for k in value}
        if canon(key) in _WRAPPER_KEYS or canon(key) == title or not props.isdisjoint(inner):
            obj = value
        else:
            break
    return obj


def normalise_fields(obj: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """Rename keys onto schema property names (exact, canonical, plural or synonym match)."""
    props = list(schema.get("properties", {}))
    by_canon = {canon(p): p for p in props}
    wanted = set(by_canon)
    if "reason" not in wanted:
        by_canon.setdefault("reason", "reason")
    result: dict[str, Any] = {}
    for key, value in obj.items():
        if key in props:
            result[key] = value
    for key, value in obj.items():
        if key in props:
            continue
        target = _match(canon(key), by_canon)
        if target is not None and target not in result:
            result[target] = value
        elif key not in result:
            result[key] = value
    return result


def _match(key: str, by_canon: dict[str, str]) -> str | None:
    if key in by_canon:
        return by_canon[key]
    for variant in (key.rstrip("s"), key + "s"):
        if variant in by_canon:
            return by_canon[variant]
    for word, synonyms in SYNONYMS.items():
        if key in synonyms and word in by_canon:
            return by_canon[word]
    return None


def coerce_values(obj: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """Coerce values whose schema type is number/integer/boolean or a string enum."""
    props = schema.get("properties", {})
    result = dict(obj)
    for key, node in props.items():
        if key in result and isinstance(node, dict):
            result[key] = coerce_value(result[key], resolve_node(schema, node), schema)
    return result


def coerce_value(value: Any, node: dict[str, Any], root: dict[str, Any]) -> Any:
    """Coerce one value towards ``node``'s type; returns it unchanged when unsure."""
    options = node.get("anyOf") or node.get("oneOf")
    if isinstance(options, list):
        if value is None:
            return value
        for option in options:
            if isinstance(option, dict) and option.get("type") != "null":
                coerced = coerce_value(value, resolve_node(root, option), root)
                if coerced is not value:
                    return coerced
        return value
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind in ("number", "integer"):
        return _coerce_number(value, integer=kind == "integer")
    if kind == "boolean" and isinstance(value, str):
        lowered = value.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
    if isinstance(node.get("enum"), list) and isinstance(value, str):
        for choice in node["enum"]:
            if isinstance(choice, str) and canon(choice) == canon(value):
                return choice
    if kind == "object" and isinstance(value, dict) and "properties" in node:
        return coerce_values(normalise_fields(value, node), node)
    return value


def _coerce_number(value: Any, *, integer: bool) -> Any:
    if isinstance(value, bool):
        return value
    number: float | int | None = None
    if isinstance(value, int | float):
        number = value
    elif isinstance(value, str):
        match = _NUMBER.search(_THOUSANDS.sub("", value))
        if match is None:
            return value
        text = match.group(0)
        number = float(text) if any(c in text for c in ".eE") else int(text)
    if number is None:
        return value
    if integer and isinstance(number, float) and number.is_integer():
        return int(number)
    return number
