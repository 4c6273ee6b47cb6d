"""JSON-schema helpers: inline ``$ref``s, name a schema, and shape it for grammars.

Providers get the action model's schema as pydantic writes it (references inlined);
the local model gets a grammar-friendly variant, because llama.cpp's converter rejects
formats and references rather than ignoring them (numeric bounds are kept: Arena writes
their grammar rules itself, :mod:`players.models.grammar`).
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

_NUMBER_BOUNDS = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"})
_GRAMMAR_DROP = {
    "title",
    "description",
    "default",
    "examples",
    "format",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "$comment",
    "discriminator",
}
DEFAULT_GRAMMAR_STRING_CAP = 240


class SchemaError(ValueError):
    """A schema that cannot be used (for instance a recursive one)."""


def schema_name(model: type[BaseModel]) -> str:
    """A provider-safe name (``[A-Za-z0-9_-]{1,64}``) for an action model."""
    name = re.sub(r"[^A-Za-z0-9_-]+", "_", model.__name__).strip("_") or "action"
    return name[:64]


def standing_model(model: type[BaseModel]) -> type[BaseModel]:
    """The game's own action model that a moment's model narrows, else ``model`` itself.

    A game narrows its action model to the moment (a morning's affordable cups, the legal
    moves now) by a subclass that keeps its parent's name, so the schema reads the same. The
    system message is written from the model it narrows: the same bytes at every decision of
    a seat, which a provider's prompt cache (and the offline model's) needs and a disclosure
    can state once. The moment's bounds go in the structured-output schema, the offline
    model's grammar and the prompt's words.
    """
    while True:
        parent = next((base for base in model.__bases__ if issubclass(base, BaseModel)), None)
        if parent is None or parent is BaseModel or parent.__name__ != model.__name__:
            return model
        model = parent


def lists_new_choices(moment: type[BaseModel], standing: type[BaseModel]) -> bool:
    """Whether ``moment`` makes a field a choice (an enum: the legal moves) that ``standing`` leaves open."""

    def choices(model: type[BaseModel]) -> set[str]:
        properties = _inlined_schema(model).get("properties", {})  # read only: no copy per decision
        return {name for name, node in properties.items() if isinstance(node, dict) and "enum" in node}

    return bool(choices(moment) - choices(standing))


def action_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema with every local ``$ref`` inlined and ``$defs`` dropped.

    Built once per action model (schema generation costs about a millisecond) and
    copied per call so callers may change their copy.
    """
    return copy.deepcopy(_inlined_schema(model))


@functools.cache
def _inlined_schema(model: type[BaseModel]) -> dict[str, Any]:
    return inline_refs(model.model_json_schema())


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """Replace ``{"$ref": "#/$defs/X"}`` nodes by copies of their definitions."""
    defs = schema.get("$defs", {}) or schema.get("definitions", {})

    def visit(node: Any, depth: int) -> Any:
        if depth > 32:
            raise SchemaError("schema nests too deeply (recursive model?)")
        if isinstance(node, list):
            return [visit(item, depth + 1) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = ref.rsplit("/", 1)[-1]
            if name not in defs:
                raise SchemaError(f"unresolvable reference {ref!r}")
            merged = {**defs[name], **{k: v for k, v in node.items() if k != "$ref"}}
            return visit(merged, depth + 1)
        return {k: visit(v, depth + 1) for k, v in node.items() if k not in ("$defs", "definitions")}

    result = visit(schema, 0)
    assert isinstance(result, dict)
    return result


def closed_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy with ``additionalProperties: false`` on every object (strict providers)."""

    def close(node: dict[str, Any]) -> None:
        if node.get("type") == "object" or "properties" in node:
            node["additionalProperties"] = False

    return _edited_copy(schema, close)


def _edited_copy(schema: dict[str, Any], edit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """A deep copy of ``schema`` with ``edit`` applied to every object node, outermost first."""
    result = copy.deepcopy(schema)

    def visit(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                visit(item)
        elif isinstance(node, dict):
            edit(node)
            for value in node.values():
                visit(value)

    visit(result)
    return result


def grammar_schema(schema: dict[str, Any], *, string_cap: int = DEFAULT_GRAMMAR_STRING_CAP) -> dict[str, Any]:
    """A variant of an inlined schema that llama.cpp's JSON-schema grammar accepts.

    Drops annotations and format constraints (the runner still validates them), keeps the
    bounds of integers and numbers (:func:`players.models.grammar.bounded_grammar` turns
    them into rules), makes every property required (one fixed key order keeps the grammar small) and caps
    free strings at ``string_cap`` characters so a small model cannot ramble forever.
    """

    def visit(node: Any) -> Any:
        if isinstance(node, list):
            return [visit(item) for item in node]
        if not isinstance(node, dict):
            return node
        numeric = node.get("type") in ("integer", "number")
        out = {
            k: visit(v)
            for k, v in node.items()
            if (k not in _GRAMMAR_DROP or (numeric and k in _NUMBER_BOUNDS)) and k != "properties"
        }
        if "properties" in node:
            props = {name: visit(sub) for name, sub in node["properties"].items()}
            out["properties"] = props
            out["required"] = list(props)
            out["additionalProperties"] = False
        elif out.get("type") == "object":
            out.setdefault("additionalProperties", True)
        if out.get("type") == "string" and "enum" not in out and "const" not in out:
            out["maxLength"] = min(int(out.get("maxLength", string_cap)), string_cap)
            out.setdefault("minLength", 0)
        return out

    result = visit(inline_refs(schema))
    assert isinstance(result, dict)
    return result


def resolve_node(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """Follow a local ``$ref`` of ``node`` against ``schema``'s ``$defs`` (one level)."""
    ref = node.get("$ref")
    if not isinstance(ref, str):
        return node
    defs = schema.get("$defs", {}) or schema.get("definitions", {})
    target = defs.get(ref.rsplit("/", 1)[-1])
    return {**target, **{k: v for k, v in node.items() if k != "$ref"}} if isinstance(target, dict) else node


DEFAULT_STRING_CAP = 300
"""``maxLength`` put on every free string field of the schema sent to a provider."""
OUTPUT_CAP_RULE = "schema-estimate-v1"
"""Names the rule of :func:`estimate_output_tokens` (recorded in seat configurations)."""
_OPEN_OBJECT_TOKENS = 64
_OPEN_ARRAY_ITEMS = 16


def capped_schema(schema: dict[str, Any], *, string_cap: int = DEFAULT_STRING_CAP) -> dict[str, Any]:
    """A copy of ``schema`` whose free strings (no enum/const) carry ``maxLength <= string_cap``.

    Providers that enforce ``maxLength`` stop a rambling reason early; the others at least
    read it as an instruction. Replies are still parsed against the uncapped schema.
    """

    def cap(node: dict[str, Any]) -> None:
        if node.get("type") == "string" and "enum" not in node and "const" not in node:
            node["maxLength"] = min(int(node.get("maxLength", string_cap)), string_cap)

    return _edited_copy(schema, cap)


def estimate_output_tokens(schema: dict[str, Any]) -> int:
    """A generous output cap for one reply matching ``schema`` (rule ``schema-estimate-v1``).

    Per node: a string ``maxLength / 3 + 4`` tokens (``DEFAULT_STRING_CAP`` when unbounded;
    a third, not a quarter, leaves room for non-English text and escapes),
    a number, integer, boolean, null or enum 8, an object the sum of its properties plus 4
    per key (64 when it is open), an array ``maxItems`` (else 16) times its item, a union
    its largest branch. The reply gets 1.25 times the total plus 32, rounded up to a
    multiple of 64, and at least 256.
    """

    def size(node: Any, depth: int) -> int:
        if not isinstance(node, dict) or depth > 32:
            return 8
        branches = node.get("anyOf") or node.get("oneOf")
        if isinstance(branches, list) and branches:
            return max(size(branch, depth + 1) for branch in branches)
        if "enum" in node or "const" in node:
            return 8
        kind = node.get("type")
        if kind == "string":
            return int(node.get("maxLength", DEFAULT_STRING_CAP)) // 3 + 4
        if kind == "array":
            return int(node.get("maxItems", _OPEN_ARRAY_ITEMS)) * size(node.get("items", {}), depth + 1) + 4
        props = node.get("properties")
        if isinstance(props, dict) and props:
            return sum(4 + size(sub, depth + 1) for sub in props.values())
        if kind == "object" or "additionalProperties" in node:
            return _OPEN_OBJECT_TOKENS
        return 8

    total = size(schema, 0) * 5 // 4 + 32
    return max(256, -(-total // 64) * 64)


@functools.cache
def output_estimate(model: type[BaseModel]) -> int:
    """:func:`estimate_output_tokens` of the capped schema sent for ``model`` (cached per model)."""
    return estimate_output_tokens(capped_schema(action_schema(model)))
