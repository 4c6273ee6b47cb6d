"""GBNF for bounded numbers, spliced into the grammar llama.cpp's binding builds from a schema.

The binding's JSON-schema converter (``constraints.response_format_to_grammar``) refuses
``minimum``/``maximum`` rather than ignoring them. So every numeric node that carries bounds
is swapped for a unique string constant before conversion, and the constant's literal in
the finished grammar is replaced by a rule written here that spells exactly the numbers in
range: integers digit by digit, decimals as an integer part and at most
:data:`DECIMAL_PLACES` fraction digits whose value stays within the bounds at both ends.
A reply outside the bounds then cannot be decoded at all. A node the rules here cannot
bound (a decimal with one open end) keeps no bounds; the game checks it as before.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Any

DECIMAL_PLACES = 2
"""Fraction digits a bounded decimal may have (more when a bound itself has more, up to 6)."""
_MARKER = "arena-bounded-number-{}"
_BOUND_KEYS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")


def digit_span(low: str, high: str) -> list[str]:
    """GBNF sequences matching exactly the digit strings of ``low``'s length from ``low`` to ``high``."""
    if not low:
        return [""]
    if low[0] == high[0]:
        return [_join(_digit(low[0]), rest) for rest in digit_span(low[1:], high[1:])]
    n = len(low) - 1
    out: list[str] = []
    first_low, first_high = int(low[0]), int(high[0])
    if low[1:] == "0" * n:
        middle_from = first_low
    else:
        out += [_join(_digit(low[0]), rest) for rest in digit_span(low[1:], "9" * n)]
        middle_from = first_low + 1
    if high[1:] == "9" * n:
        middle_to = first_high
        tail: list[str] = []
    else:
        middle_to = first_high - 1
        tail = [_join(_digit(high[0]), rest) for rest in digit_span("0" * n, high[1:])]
    if middle_from <= middle_to:
        out.append(_join(_digits(middle_from, middle_to), f"[0-9]{{{n}}}" if n else ""))
    return out + tail


def _digit(d: str) -> str:
    return f'"{d}"'


def _digits(low: int, high: int) -> str:
    return _digit(str(low)) if low == high else f"[{low}-{high}]"


def _join(*parts: str) -> str:
    return " ".join(p for p in parts if p)


def natural_span(low: int, high: int | None) -> list[str]:
    """Sequences for the whole numbers ``low..high`` (``high`` None: open), no sign, no leading zero."""
    out: list[str] = []
    length = len(str(low))
    top = high if high is not None else 10**length - 1
    while low <= top:
        end = min(top, 10**length - 1)
        out += digit_span(str(low), str(end))
        low, length = end + 1, length + 1
    if high is None:
        out.append(f"[1-9] [0-9]{{{length - 1},}}")
    return out


def integer_rule(low: int | None, high: int | None) -> str:
    """A GBNF expression for the JSON integers from ``low`` to ``high`` (None: open)."""
    if low is not None and high is not None and low > high:
        raise ValueError(f"empty integer range {low}..{high}")
    alternatives: list[str] = []
    if low is None or low < 0:
        negative_from = 1 if high is None or high >= 0 else -high
        for seq in natural_span(negative_from, None if low is None else -low):
            alternatives.append(_join('"-"', seq))
    if high is None or high >= 0:
        alternatives += natural_span(0 if low is None or low < 0 else low, high)
    return " | ".join(f"( {a} )" if " " in a else a for a in alternatives)


def decimal_rule(low: Decimal, high: Decimal, places: int = DECIMAL_PLACES) -> str:
    """A GBNF expression for JSON numbers from ``low`` to ``high`` with at most ``places`` fraction digits."""
    if low > high:
        raise ValueError(f"empty range {low}..{high}")
    alternatives: list[str] = []
    if low < 0:
        top = -low
        bottom = Decimal(0) if high >= 0 else -high
        alternatives += [_join('"-"', a) for a in _positive_decimals(bottom, top, places)]
        low = Decimal(0)
    if high >= 0:
        alternatives += _positive_decimals(low, high, places)
    return " | ".join(f"( {a} )" for a in alternatives)


def _positive_decimals(low: Decimal, high: Decimal, places: int) -> list[str]:
    """Sequences for ``low <= x <= high`` (both >= 0): an integer part, then a fraction kept in range."""
    scale = 10**places
    low_units = int((low * scale).to_integral_value(ROUND_CEILING))
    high_units = int((high * scale).to_integral_value(ROUND_FLOOR))
    if low_units > high_units:
        return []
    first, last = low_units // scale, high_units // scale
    out: list[str] = []
    # Whole parts strictly between the ends take any fraction.
    if first + 1 <= last - 1:
        for whole in natural_span(first + 1, last - 1):
            out.append(_join(whole, f'( "." [0-9]{{1,{places}}} )?'))
    ends = [first] if first == last else [first, last]
    for whole in ends:
        lo_frac = low_units - whole * scale if whole == first else 0
        hi_frac = high_units - whole * scale if whole == last else scale - 1
        fractions = _fraction_spans(lo_frac, hi_frac, places)
        head = " | ".join(f"( {f} )" for f in fractions)
        optional = "" if not fractions else f'( "." ( {head} ) )'
        integer = natural_span(whole, whole)[0]
        if lo_frac == 0:  # the whole number itself is in range
            out.append(_join(integer, f"{optional}?" if optional else ""))
        elif optional:
            out.append(_join(integer, optional))
    return out


def _fraction_spans(low: int, high: int, places: int) -> list[str]:
    """Fraction digit strings (1..places long) whose value, as ``places`` digits, lies in ``low..high``."""
    out: list[str] = []
    for k in range(1, places + 1):
        step = 10 ** (places - k)
        first = -(-low // step)
        last = high // step
        if first <= last:
            out += digit_span(str(first).zfill(k), str(last).zfill(k))
    return out


def _places(*values: Decimal) -> int:
    exponents = [-int(v.as_tuple().exponent) for v in values]
    return min(6, max([DECIMAL_PLACES, *exponents]))


def number_rule(node: dict[str, Any]) -> str | None:
    """The bounded rule for an integer or number schema node, or None when it cannot be bounded here."""
    kind = node.get("type")
    if kind == "integer":
        return integer_rule(*_integer_bounds(node))
    if kind != "number":
        return None
    given = [Decimal(str(node[k])) for k in _BOUND_KEYS if k in node]
    places = _places(*given)
    nudge = Decimal(1).scaleb(-places)  # an open end moves in by the smallest step the rule can spell
    lows = [_decimal(node, "minimum"), _decimal(node, "exclusiveMinimum", nudge)]
    highs = [_decimal(node, "maximum"), _decimal(node, "exclusiveMaximum", -nudge)]
    low = max((v for v in lows if v is not None), default=None)
    high = min((v for v in highs if v is not None), default=None)
    if low is None or high is None:
        return None
    return decimal_rule(low, high, places)


def _integer_bounds(node: dict[str, Any]) -> tuple[int | None, int | None]:
    lows, highs = [], []
    if "minimum" in node:
        lows.append(math.ceil(node["minimum"]))
    if "exclusiveMinimum" in node:
        lows.append(math.floor(node["exclusiveMinimum"]) + 1)
    if "maximum" in node:
        highs.append(math.floor(node["maximum"]))
    if "exclusiveMaximum" in node:
        highs.append(math.ceil(node["exclusiveMaximum"]) - 1)
    return max(lows, default=None), min(highs, default=None)


def _decimal(node: dict[str, Any], key: str, shift: Decimal = Decimal(0)) -> Decimal | None:
    return Decimal(str(node[key])) + shift if key in node else None


def bounded_grammar(schema: dict[str, Any], convert: Callable[[dict[str, Any]], str]) -> str:
    """``convert(schema)`` with every bounded integer or number constrained to its range.

    ``convert`` is the binding's schema-to-GBNF converter (which refuses bounds).
    """
    rules: list[str] = []

    def visit(node: Any) -> Any:
        if isinstance(node, list):
            return [visit(item) for item in node]
        if not isinstance(node, dict):
            return node
        if node.get("type") in ("integer", "number") and any(k in node for k in _BOUND_KEYS):
            rule = number_rule(node)
            if rule is not None:
                rules.append(rule)
                return {"const": _MARKER.format(len(rules) - 1)}
            return {k: v for k, v in node.items() if k not in _BOUND_KEYS}
        return {k: visit(v) for k, v in node.items()}

    grammar = convert(visit(schema))
    for index, rule in enumerate(rules):
        literal = '"' + json.dumps(_MARKER.format(index)).replace('"', '\\"') + '"'
        if literal not in grammar:
            raise ValueError(f"the converter did not keep bounded number {index} as a literal")
        grammar = grammar.replace(literal, f"( {rule} )")
    return grammar
