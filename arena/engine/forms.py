"""Form fields derived from a game's pydantic action model (used by every human front end)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from arena.contract import labels


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One input of a human's action form: kind, choices, range and help."""

    name: str
    kind: str  # "number" | "integer" | "choice" | "text" | "boolean"
    description: str = ""
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    default: Any = None
    required: bool = True
    max_length: int | None = None
    when: tuple[tuple[str, str], ...] = ()
    """Asked only when each named field holds the given choice (``price`` only for an offer)."""

    @property
    def label(self) -> str:
        """The field's name as a person reads it (``colour_count`` is "colour count")."""
        return labels.label(self.name)

    def applies(self, values: dict[str, Any]) -> bool:
        """True when the choices made so far call for this field."""
        return all(str(values.get(name)) == choice for name, choice in self.when)

    def hint(self) -> str:
        """The allowed values, e.g. ``0.5 to 6.0`` or ``none / discount / bundle``."""
        if self.choices:
            return " / ".join(self.choices)
        if self.minimum is not None and self.maximum is not None:
            return f"{_fmt(self.minimum)} to {_fmt(self.maximum)}"
        if self.minimum is not None:
            return f"at least {_fmt(self.minimum)}"
        if self.maximum is not None:
            return f"at most {_fmt(self.maximum)}"
        return "optional text" if not self.required else "required text"

    def prompt(self) -> str:
        """A one-line label with hint and default."""
        default = f" [{self.default}]" if self.default not in (None, "") else ""
        return f"{self.label} ({self.hint()}){default}"


def _fmt(value: float) -> str:
    return f"{value:g}"


def form_fields(model: type[BaseModel]) -> list[FieldSpec]:
    """The form for ``model``: one :class:`FieldSpec` per property of its JSON schema."""
    schema = model.model_json_schema()
    # Kept out of the JSON schema (models are sent it): which fields only apply after a choice.
    form_when: dict[str, dict[str, str]] = getattr(model, "FORM_WHEN", {})
    # Fields the schema leaves optional (a model may leave them out) that a person must fill:
    # the game refuses a move without them, so the form says so and asks for them.
    required = set(schema.get("required", [])) | set(getattr(model, "FORM_REQUIRED", ()))
    fields = []
    for name, prop in schema.get("properties", {}).items():
        prop = _resolve(prop, schema)
        kind = {"number": "number", "integer": "integer", "boolean": "boolean"}.get(
            prop.get("type", ""), "text"
        )
        choices: tuple[str, ...] = ()
        if "enum" in prop:
            kind, choices = "choice", tuple(str(c) for c in prop["enum"])
        elif "const" in prop:
            kind, choices = "choice", (str(prop["const"]),)
        fields.append(
            FieldSpec(
                name=name,
                kind=kind,
                description=prop.get("description", ""),
                choices=choices,
                minimum=prop.get("minimum", prop.get("exclusiveMinimum")),
                maximum=prop.get("maximum", prop.get("exclusiveMaximum")),
                default=prop.get("default"),
                required=name in required,
                max_length=prop.get("maxLength"),
                when=tuple(form_when.get(name, {}).items()),
            )
        )
    return fields


def _resolve(prop: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in prop:
        name = prop["$ref"].rsplit("/", 1)[-1]
        return {**schema.get("$defs", {}).get(name, {}), **{k: v for k, v in prop.items() if k != "$ref"}}
    for key in ("anyOf", "oneOf"):
        options = [p for p in prop.get(key, []) if p.get("type") != "null"]
        if len(options) == 1:
            return {**_resolve(options[0], schema), **{k: v for k, v in prop.items() if k != key}}
    return prop


def parse_field(field: FieldSpec, text: str) -> Any:
    """Turn a person's entry into a value for ``field``; ValueError explains a bad entry."""
    entry = text.strip()
    if not entry:
        if field.default is not None:
            return field.default
        if not field.required:
            return "" if field.kind == "text" else None
        # a required text's hint says only that it is required
        allowed = "" if field.kind == "text" else f" ({field.hint()})"
        raise ValueError(f"{field.label} is required{allowed}")
    if field.kind == "choice":
        matches = [c for c in field.choices if c.lower() == entry.lower()]
        if not matches:
            matches = [c for c in field.choices if c.lower().startswith(entry.lower())]
        if len(matches) != 1:
            raise ValueError(f"{field.label} must be one of {field.hint()}, not {entry!r}")
        return matches[0]
    if field.kind in ("number", "integer"):
        try:
            value: float = int(entry) if field.kind == "integer" else float(entry)
        except ValueError:
            kind = "a whole number" if field.kind == "integer" else "a number"
            raise ValueError(f"{field.label} must be {kind}, not {entry!r}") from None
        if field.minimum is not None and value < field.minimum:
            raise ValueError(f"{field.label} must be at least {_fmt(field.minimum)}, not {entry}")
        if field.maximum is not None and value > field.maximum:
            raise ValueError(f"{field.label} must be at most {_fmt(field.maximum)}, not {entry}")
        return value
    if field.kind == "boolean":
        if entry.lower() in ("y", "yes", "true", "1"):
            return True
        if entry.lower() in ("n", "no", "false", "0"):
            return False
        raise ValueError(f"{field.label} must be yes or no, not {entry!r}")
    if field.max_length is not None and len(entry) > field.max_length:
        raise ValueError(f"{field.label} must be at most {field.max_length} characters")
    return entry
