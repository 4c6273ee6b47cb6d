"""Which llama.cpp libraries the offline player loads: the binding's own, or a build for this CPU.

The ``llama-cpp-py-sync`` wheel's ggml CPU backend is compiled for AVX2 at most, so a
machine with AVX-512 evaluates prompts slower in-process than a llama.cpp built for it.
``make llama-native`` (:mod:`players.models.native_build`) writes ``.llama-native/lib/``:
copies of the wheel's libraries with ``libggml-cpu.so.0`` replaced by one compiled for
this machine (``GGML_NATIVE=ON``), and ``build.json`` describing it.

The binding describes one C API (its cdef), so a build is used only when its
``libllama.so`` is byte for byte the installed wheel's; after an upgrade of the binding
the old build is set aside, with a message, until it is rebuilt.

``$ARENA_LLAMA_NATIVE`` chooses: unset, the build in the checkout's ``.llama-native/lib``
when there is one; ``off``, always the wheel's; a folder, that build (an error if it does
not fit, since it was asked for by name).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ENV = "ARENA_LLAMA_NATIVE"
OFF_VALUES = frozenset({"off", "0", "no", "wheel"})
DEFAULT_DIR = Path(__file__).resolve().parents[2] / ".llama-native" / "lib"
MANIFEST = "build.json"
LIBLLAMA = "libllama.so"


class NativeLibraryError(RuntimeError):
    """The native build named by ``$ARENA_LLAMA_NATIVE`` cannot be used."""


@dataclass(frozen=True)
class LibraryChoice:
    """The folder to load ``libllama.so`` from (``None``: the wheel's own) and why."""

    directory: Path | None
    note: str
    engine_suffix: str = ""  # added to the recorded engine name when a native build serves
    skipped: bool = False  # a build was found but does not fit (worth telling the user)


def sha256_of(path: Path) -> str:
    """Hex SHA-256 of a file."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def read_manifest(directory: Path) -> dict[str, Any] | None:
    """A build's ``build.json``, or ``None`` when it is missing or not a JSON object."""
    try:
        data = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def misfit(directory: Path, wheel_dir: Path, binding: str) -> str | None:
    """Why the build in ``directory`` cannot serve the installed binding, else ``None``."""
    manifest = read_manifest(directory)
    if manifest is None:
        return f"{directory} holds no readable {MANIFEST} (make llama-native writes it)"
    library = directory / LIBLLAMA
    if not library.is_file():
        return f"{directory} has no {LIBLLAMA}"
    if sha256_of(library) != sha256_of(wheel_dir / LIBLLAMA):
        built_for = manifest.get("binding", "an unknown binding")
        return (
            f"the llama.cpp build in {directory} was made for {built_for}, "
            f"but {binding} is installed: rebuild it with make llama-native"
        )
    return None


def choose(
    wheel_dir: Path, binding: str, environ: Mapping[str, str], *, default_dir: Path = DEFAULT_DIR
) -> LibraryChoice:
    """The libraries to load for the binding installed in ``wheel_dir`` (``binding``: name and version).

    Raises :class:`NativeLibraryError` when ``$ARENA_LLAMA_NATIVE`` names a folder that
    does not fit; a build merely found in the checkout is skipped instead (see ``note``).
    """
    setting = environ.get(ENV, "").strip()
    if setting.lower() in OFF_VALUES:
        return LibraryChoice(None, f"{ENV}={setting}: the wheel's own libraries")
    explicit = bool(setting)
    directory = Path(setting).expanduser() if explicit else default_dir
    if not explicit and not directory.is_dir():
        return LibraryChoice(None, "no native build (make llama-native makes one): the wheel's own libraries")
    problem = misfit(directory, wheel_dir, binding)
    if problem is not None:
        if explicit:
            raise NativeLibraryError(f"{ENV}={setting}: {problem}")
        return LibraryChoice(None, f"{problem}; using the wheel's own libraries meanwhile", skipped=True)
    manifest = read_manifest(directory) or {}
    source = str(manifest.get("ggml_cpu_source", "unknown llama.cpp"))
    return LibraryChoice(
        directory,
        f"native build in {directory}: ggml-cpu compiled for this CPU from {source}",
        f"; ggml-cpu built for this CPU from {source}",
    )
