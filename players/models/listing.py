"""Which model a server's ``GET /models`` listing serves for the model id a player asks for.

Servers list what they serve in their own way (each shape as the server's own code writes it):

* vLLM lists each ``--served-model-name`` (default: the ``--model`` argument) with
  ``owned_by: "vllm"`` and answers only to those ids (404 for any other).
* Ollama lists ``llama3.2:latest`` (``owned_by: "library"``) and answers to ``llama3.2`` too.
* LiteLLM lists each ``model_name`` of its config (``owned_by`` the provider, ``created``
  1677610602) and answers only to those (400 "Invalid model name").
* llama.cpp's ``llama-server -m FILE.gguf`` lists its one model (``owned_by: "llamacpp"``)
  under the GGUF's path as given to ``-m`` (newer builds: its file name), or under
  ``--alias``, and answers to any model name; in router mode (``--models-dir``) each entry
  carries a ``status`` and a request must name one of them.

So an id is served when it is listed (or ``ID:latest`` is); and a single-model llama-server
also serves an id that is its file name or stem, and any other id (it has only the one
model). Every other server keeps the strict check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PureWindowsPath
from typing import Any

LLAMA_SERVER_OWNER = "llamacpp"
GGUF_SUFFIX = ".gguf"


@dataclass(frozen=True)
class ListedModel:
    """One entry of a ``GET /models`` reply: its id and what tells the server apart."""

    id: str
    owned_by: str | None = None
    aliases: tuple[str, ...] = ()
    """Other names llama-server answers to for it (newer builds list ``--alias`` values here)."""
    router: bool = False
    """A llama-server router-mode entry (it has a ``status``): the request must name it."""

    @classmethod
    def from_entry(cls, entry: Any) -> ListedModel:
        """The facts of one SDK ``Model`` (extra fields the server sent included)."""
        extra: dict[str, Any] = getattr(entry, "model_extra", None) or {}
        aliases = extra.get("aliases")
        names = tuple(a for a in aliases if isinstance(a, str)) if isinstance(aliases, list) else ()
        owner = getattr(entry, "owned_by", None)
        return cls(
            id=entry.id,
            owned_by=owner if isinstance(owner, str) else None,
            aliases=names,
            router="status" in extra,
        )

    @property
    def single_llama_server(self) -> bool:
        """True for the entry of a llama-server running one model (it answers to any name)."""
        return self.owned_by == LLAMA_SERVER_OWNER and not self.router


@dataclass(frozen=True)
class Served:
    """The listed id that serves the asked one, and why (empty when it is listed as asked)."""

    id: str
    note: str = ""


def served_model(model: str, listed: Sequence[ListedModel]) -> Served | None:
    """The listed model that serves ``model``, or ``None`` when the server does not serve it."""
    for entry in listed:
        # Ollama lists "llama3.2:latest" and answers to "llama3.2".
        if entry.id in (model, f"{model}:latest"):
            return Served(entry.id)
    llama = [entry for entry in listed if entry.single_llama_server]
    for entry in llama:
        if model in entry.aliases:
            return Served(entry.id, f"llama-server's alias {model!r} of {entry.id!r}")
        if ({model} | file_names(model)) & file_names(entry.id):
            return Served(entry.id, f"llama-server lists it by its file, {entry.id!r}")
    if len(listed) == 1 and llama:
        only = llama[0].id
        return Served(only, f"llama-server serves its one model, {only!r}, under any name")
    return None


def file_names(model_id: str) -> set[str]:
    """The file name of a path or ``.gguf`` id and that name without ``.gguf`` (``set()``: neither).

    Both separators count: llama-server on Windows lists ``C:\\models\\x.gguf``.
    """
    name = PureWindowsPath(model_id).name
    gguf = name.lower().endswith(GGUF_SUFFIX)
    path = "/" in model_id or "\\" in model_id
    if not name or not (path or gguf):
        return set()  # a bare id such as "gemma": only a listing as asked or the one-model rule serves it
    return {name, name[: -len(GGUF_SUFFIX)]} if gguf else {name}
