"""``GET /v1/models`` replies shaped as real servers send them, for the wire server's ``models_reply``.

Each shape follows the server's own code or documentation:

* llama.cpp ``llama-server`` (``tools/server/README.md``, "GET /v1/models"): one entry,
  ``owned_by: "llamacpp"``, ``id`` the path given to ``-m`` unless ``--alias`` names it, and a
  ``meta`` of the GGUF. Newer builds (``server-context.cpp``) list the file name instead,
  add ``aliases`` and ``tags``, and put an Ollama-style ``models`` list beside ``data``. In
  router mode each entry has ``path``, ``in_cache`` and a ``status``.
* vLLM (``vllm/entrypoints/openai`` ``ModelCard``): ``owned_by: "vllm"``, ``root``, ``parent``,
  ``max_model_len`` and a ``permission`` list.
* Ollama (``openai/openai.go`` ``ToListCompletion``): ``id`` ``NAME:TAG``, ``created`` the file's
  modification time, ``owned_by`` the name's namespace (``library``).
* LiteLLM proxy (``create_model_info_response``): each ``model_name`` of its config,
  ``created`` 1677610602, ``owned_by`` the provider.
"""

from __future__ import annotations

from pathlib import PureWindowsPath
from typing import Any

GGUF_PATH = "/home/me/models/gemma-3-270m-it-Q8_0.gguf"
"""The GGUF a user starts llama-server with (``llama-server -m GGUF_PATH``)."""

_GGUF_META = {
    "vocab_type": 1,
    "n_vocab": 262144,
    "n_ctx_train": 32768,
    "n_embd": 640,
    "n_params": 268098176,
    "size": 291373056,
}


def llama_server(model: str = GGUF_PATH) -> dict[str, Any]:
    """``llama-server -m FILE`` (or ``--alias NAME``): its one model under the path (or alias)."""
    entry = {"id": model, "object": "model", "created": 1764637200, "owned_by": "llamacpp"}
    entry["meta"] = _GGUF_META
    return {"object": "list", "data": [entry]}


def llama_server_newer(model_path: str = GGUF_PATH, aliases: tuple[str, ...] = ()) -> dict[str, Any]:
    """A newer llama-server: the file name (or first alias) as id, ``aliases``, an Ollama-style list."""
    name = aliases[0] if aliases else PureWindowsPath(model_path).name
    entry = {
        "id": name,
        "aliases": list(aliases),
        "tags": [],
        "object": "model",
        "created": 1764637200,
        "owned_by": "llamacpp",
        "meta": {**_GGUF_META, "n_ctx": 4096},
    }
    ollama_style = {
        "name": name,
        "model": name,
        "modified_at": "",
        "size": "",
        "digest": "",
        "type": "model",
        "description": "",
        "tags": [""],
        "capabilities": ["completion"],
        "parameters": "",
        "details": {"parent_model": "", "format": "gguf", "family": "", "families": [""]},
    }
    return {"models": [ollama_style], "object": "list", "data": [entry]}


def llama_server_router(*names: str) -> dict[str, Any]:
    """llama-server in router mode (``--models-dir``): requests must name one of its models."""
    data = [
        {
            "id": name,
            "object": "model",
            "owned_by": "llamacpp",
            "created": 1764637200,
            "in_cache": False,
            "path": f"/home/me/models/{name}.gguf",
            "status": {"value": "unloaded", "args": []},
        }
        for name in names
    ]
    return {"data": data, "object": "list"}


def vllm(model: str) -> dict[str, Any]:
    """``vllm serve MODEL``: one card with ``owned_by: "vllm"``."""
    card = {
        "id": model,
        "object": "model",
        "created": 1764637200,
        "owned_by": "vllm",
        "root": model,
        "parent": None,
        "max_model_len": 32768,
        "permission": [
            {
                "id": "modelperm-7f0c2e1d",
                "object": "model_permission",
                "created": 1764637200,
                "allow_create_engine": False,
                "allow_sampling": True,
                "allow_logprobs": True,
                "allow_search_indices": False,
                "allow_view": True,
                "allow_fine_tuning": False,
                "organization": "*",
                "group": None,
                "is_blocking": False,
            }
        ],
    }
    return {"object": "list", "data": [card]}


def ollama(*names: str) -> dict[str, Any]:
    """Ollama's OpenAI-compatible listing of pulled models (``NAME:TAG``)."""
    data = [{"id": name, "object": "model", "created": 1764550800, "owned_by": "library"} for name in names]
    return {"object": "list", "data": data}


def litellm(*names: str) -> dict[str, Any]:
    """A LiteLLM proxy's listing of the model names in its config."""
    data = [{"id": name, "object": "model", "created": 1677610602, "owned_by": "openai"} for name in names]
    return {"object": "list", "data": data}
