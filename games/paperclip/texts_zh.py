"""Chinese operation texts in the seed's own wording (2.2, 4.1), one to one with the parameters.

Exported beside the English text (``text_zh``, ``question_zh``) so a Chinese prompt can
be built from the same puzzles; :func:`parse_text_zh` maps a text back to its operation.
"""

from __future__ import annotations

import re
from typing import Any

from games.paperclip.world import Operation

COLOUR_ZH = {
    "red": "红色",
    "silver": "银色",
    "black": "黑色",
    "blue": "蓝色",
    "green": "绿色",
    "gold": "金色",
}
_ZH_COLOUR = {zh: en for en, zh in COLOUR_ZH.items()}


def op_text_zh(op: Operation) -> str:
    """The operation in Chinese."""
    colour = COLOUR_ZH.get(op.colour or "", "")
    if op.op == "move":
        if op.colour is None:
            return f"把{op.src}盒中的所有回形针移动到{op.dst}盒。"
        if op.count is None:
            return f"把{op.src}盒中的{colour}回形针全部移动到{op.dst}盒。"
        return f"把{op.src}盒中的{op.count}枚{colour}回形针移动到{op.dst}盒。"
    if op.op == "merge":
        return f"把{op.src}盒并入{op.dst}盒（{op.src}盒清空）。"
    if op.op == "split":
        return f"从{op.src}盒中拆出{op.count}枚{colour}回形针，放入空的{op.dst}盒。"
    if op.op == "paint":
        target = COLOUR_ZH[op.to or ""]
        if op.count is None:
            return f"把{op.box}盒中的{colour}回形针全部染成{target}。"
        return f"把{op.box}盒中的{op.count}枚{colour}回形针染成{target}。"
    if op.op == "compare":
        return f"比较{op.src}盒和{op.dst}盒：哪个盒子里的回形针更多？"
    raise ValueError(f"unknown operation {op.op!r}")


def question_zh(box: str, colour: str) -> str:
    """The final question in Chinese."""
    return f"最终{box}盒里有多少枚回形针？其中{COLOUR_ZH[colour]}有几枚？"


_B = r"([A-D])"
_C = "(" + "|".join(COLOUR_ZH.values()) + ")"
_N = r"(\d+)"
_PATTERNS: tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...] = tuple(
    (re.compile(f"^{pattern}$"), kind, fields)
    for pattern, kind, fields in (
        (f"把{_B}盒中的所有回形针移动到{_B}盒。", "move", ("src", "dst")),
        (f"把{_B}盒中的{_C}回形针全部移动到{_B}盒。", "move", ("src", "colour", "dst")),
        (f"把{_B}盒中的{_N}枚{_C}回形针移动到{_B}盒。", "move", ("src", "count", "colour", "dst")),
        (f"把{_B}盒并入{_B}盒（[A-D]盒清空）。", "merge", ("src", "dst")),
        (f"从{_B}盒中拆出{_N}枚{_C}回形针，放入空的{_B}盒。", "split", ("src", "count", "colour", "dst")),
        (f"把{_B}盒中的{_C}回形针全部染成{_C}。", "paint", ("box", "colour", "to")),
        (f"把{_B}盒中的{_N}枚{_C}回形针染成{_C}。", "paint", ("box", "count", "colour", "to")),
        (f"比较{_B}盒和{_B}盒：哪个盒子里的回形针更多？", "compare", ("src", "dst")),
    )
)


def parse_text_zh(text: str) -> Operation:
    """The operation a Chinese text describes (the inverse of :func:`op_text_zh`)."""
    for pattern, kind, fields in _PATTERNS:
        match = pattern.match(text.strip())
        if match:
            values: dict[str, Any] = dict(zip(fields, match.groups(), strict=True))
            for key in ("colour", "to"):
                if key in values:
                    values[key] = _ZH_COLOUR[values[key]]
            if "count" in values:
                values["count"] = int(values["count"])
            return Operation(kind, **values)
    raise ValueError(f"not an operation text: {text!r}")
